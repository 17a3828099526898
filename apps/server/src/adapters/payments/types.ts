/**
 * The one interface every payment provider is reached through (docs/payment-providers.md):
 * the sandbox (embedded default), Triple-A and NOWPayments. Amounts are decimal strings, never
 * numbers; currency codes are upper-case here (adapters convert to the provider's spelling).
 * Modules never see a provider's own shapes: the adapter maps them to these.
 */

export type ProviderName = 'sandbox' | 'triple-a' | 'nowpayments';

/** A hosted checkout: the payer is sent to `hostedUrl` and pays there. */
export interface CheckoutRequest {
  /** Our id of the payment (unique); echoed back in every webhook about it. */
  reference: string;
  /** What the payer owes: currency and amount (e.g. BTC 0.5, or USD 25). */
  orderCurrency: string;
  orderAmount: string;
  /** The crypto the payer pays with, when already chosen (a deposit of BTC pays in BTC). */
  payCurrency?: string | undefined;
  description: string;
  payer: { accountId: string; email?: string | undefined; name?: string | undefined };
  successUrl: string;
  cancelUrl: string;
  /** Our webhook endpoint for this provider. */
  notifyUrl: string;
  /** How long the quote and the checkout stay payable. */
  expiresInSeconds: number;
  /** 'card': the hosted page takes a card (only with a provider that has `card`); default crypto. */
  payMethod?: 'crypto' | 'card' | undefined;
}

/** A provider that sells currencies by card on its hosted checkout, and what it charges for it. */
export interface CardSupport {
  readonly currencies: readonly string[];
  /** The card fee in basis points of the amount bought, rounded up to the currency's decimals. */
  readonly feeBps: number;
}

export interface Checkout {
  /** The provider's id of the payment (Triple-A payment_reference, NOWPayments payment id). */
  providerReference: string;
  hostedUrl: string;
  expiresAt: Date;
  cryptoCurrency: string | null;
  cryptoAddress: string | null;
  cryptoAmount: string | null;
  /** Order currency per crypto unit, when the provider quoted one. */
  exchangeRate: string | null;
}

/**
 * Where a payment stands, in our words. `paid` and `underpaid` and `expired` and `failed` are final
 * once `final` is true; `confirming` means money was seen but is not confirmed yet (never credited).
 */
export type PaymentStatus = 'waiting' | 'confirming' | 'paid' | 'underpaid' | 'expired' | 'failed' | 'refunded';

export interface PaymentState {
  providerReference: string;
  /** Our reference, when the provider echoes it (webhook_data / order_id). */
  reference: string | null;
  status: PaymentStatus;
  /** True when the status cannot change any more. */
  final: boolean;
  orderCurrency: string;
  orderAmount: string;
  cryptoCurrency: string | null;
  cryptoAmount: string | null;
  /** Confirmed so far, in the order currency: what may be credited once the payment is final. */
  confirmedOrderAmount: string;
  /** Seen but not confirmed, in the order currency. */
  unconfirmedOrderAmount: string;
  updatedAt: Date;
}

/** A Lightning invoice (BOLT11) to be paid to us. */
export interface LightningInvoiceRequest {
  reference: string;
  /** Amount in BTC (decimal string, at most 11 decimals: millisatoshi). */
  amountBtc: string;
  description: string;
  expiresInSeconds: number;
  notifyUrl: string;
}

export interface LightningInvoice {
  providerReference: string;
  /** The BOLT11 string (lntb... in sandbox). */
  invoice: string;
  /** Hex sha256 of the preimage. */
  paymentHash: string;
  expiresAt: Date;
}

/** A payout (withdrawal) to an outside address. */
export interface PayoutRequest {
  /** Our id of the withdrawal: NOWPayments unique_external_id, Triple-A remarks. */
  reference: string;
  currency: string;
  amount: string;
  address: string;
  /** Destination tag / memo (NOWPayments extra_id). */
  extraId: string | null;
  /**
   * For a currency on several networks: the catalogue's code of the currency on the chosen network
   * ('usdttrc20', NOWPayments' own ticker); absent for a currency on one network.
   */
  networkCode?: string | undefined;
  description: string;
  notifyUrl: string;
}

/** The provider's payout statuses (NOWPayments' list, which Triple-A's map into). */
export type PayoutStatus = 'creating' | 'waiting' | 'processing' | 'sending' | 'finished' | 'failed' | 'rejected';

export interface PayoutState {
  providerReference: string;
  /** The batch id verify-payout takes (NOWPayments batch_withdrawal_id); else the payout's own id. */
  batchId: string;
  reference: string | null;
  status: PayoutStatus;
  /** True when the provider wants a verification code before it sends (NOWPayments 2FA). */
  needsVerification: boolean;
  /** Network fee the provider charged, when it says. */
  networkFee: string | null;
  /** Chain transaction id once sent. */
  hash: string | null;
  error: string | null;
  updatedAt: Date;
}

/** A webhook the provider sent us, checked. Anything not `ok` credits nothing. */
export type WebhookCheck =
  | {
      ok: true;
      /** Stable id of this event (same body = same id): a replay is recognised by it. */
      eventId: string;
      event:
        | { kind: 'payment'; payment: PaymentState }
        | { kind: 'payout'; payout: PayoutState }
        | { kind: 'lightning'; providerReference: string; reference: string | null; paid: boolean };
    }
  | { ok: false; reason: 'unsigned' | 'bad_signature' | 'stale' | 'malformed' };

export interface WebhookInput {
  /** Header names lower-case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body exactly as received (signatures cover the raw bytes). */
  rawBody: string;
  now: Date;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /**
   * True when createPayout with a reference it has seen answers that payout and sends nothing new
   * (the sandbox). Real providers do not promise it, so a payout whose first attempt may have
   * reached them is never sent again without a person checking (modules/withdrawals/processor.ts).
   */
  readonly idempotentPayouts: boolean;
  /** Present when the hosted checkout takes cards (the sandbox simulates one). */
  readonly card?: CardSupport | undefined;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  paymentStatus(providerReference: string): Promise<PaymentState>;
  createLightningInvoice(request: LightningInvoiceRequest): Promise<LightningInvoice>;
  lightningStatus(providerReference: string): Promise<{ paid: boolean; expired: boolean }>;
  refund(providerReference: string, amount: string, email: string): Promise<{ refundReference: string }>;
  createPayout(request: PayoutRequest): Promise<PayoutState>;
  /** Confirms a payout waiting for it (NOWPayments verify; Triple-A confirm). */
  verifyPayout(batchId: string, verificationCode: string): Promise<void>;
  payoutStatus(providerReference: string): Promise<PayoutState>;
  /** The provider's smallest payout, or null when it has no opinion (callers use §9's). */
  minimumPayout(currency: string): Promise<string | null>;
  /** The provider's network fee for a payout, or null when it does not say. */
  payoutFee(currency: string, amount: string): Promise<string | null>;
  /** What `amount` of `from` buys of `to` at the provider's rate, or null. */
  estimate(amount: string, from: string, to: string): Promise<string | null>;
  verifyWebhook(input: WebhookInput): WebhookCheck;
}

/** A provider call that failed (network, 5xx, refused): callers fall back (§7.8) or answer 502. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly details: {
      provider: ProviderName;
      status?: number;
      code?: string;
      retryable: boolean;
      /**
       * Whether the request may have been acted on: 'no' when it surely was not (refused before
       * sending, a 4xx or 429 answer), 'maybe' when it may have been (a timeout, a dropped
       * connection, a 5xx, an unreadable 2xx). Unset means 'maybe'.
       */
      delivered?: 'no' | 'maybe';
    },
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
