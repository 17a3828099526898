import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from './wallet.ts';

/**
 * Money coming in (spec §3.5, §4, §7.3, §7.4): deposit addresses, deposits to them (credited once,
 * after the network's confirmations), hosted-checkout deposits, payments and Lightning invoices of
 * the payment-provider facade, and the webhook check. Amounts are decimal strings; a JSON number
 * is accepted on input and read by its text. Currency codes may come in any case (the client sends
 * them lower-cased, §5) and are answered upper-case.
 */

const amountInput = z.union([z.string().max(64), z.number()]);
const currencyInput = z.string().max(20);

// ---------------------------------------------------------------------------------------------
// Deposit addresses (GET /api/v1/wallet/deposit-address/{currency}, and §7.3's
// GET /wallet/deposit-address/{currency})
// ---------------------------------------------------------------------------------------------

/**
 * Confirmations a deposit needs on its network before it is credited, by network (the `network`
 * of a deposit address). One table for the whole product; a network not listed needs
 * DEFAULT_DEPOSIT_CONFIRMATIONS.
 */
export const DEPOSIT_CONFIRMATIONS: Readonly<Record<string, number>> = {
  BTC: 2,
  ETH: 12,
  LTC: 6,
  BCH: 6,
  DOGE: 20,
  ZEC: 12,
  XMR: 10,
  ETC: 64,
  BSC: 15,
  KCC: 15,
  MATIC: 128,
  ARB: 12,
  OP: 12,
  AVAX: 12,
  THETA: 12,
  TRX: 20,
  SOL: 32,
  XRP: 1,
  XLM: 1,
  EOS: 1,
  ATOM: 1,
  SEI: 1,
  TON: 1,
  HBAR: 1,
  ALGO: 1,
  NEAR: 1,
  SUI: 1,
  APT: 1,
  XTZ: 2,
  DOT: 2,
  ADA: 15,
  ICP: 1,
  FIL: 5,
};
export const DEFAULT_DEPOSIT_CONFIRMATIONS = 12;

export const depositAddressParamsSchema = z.object({
  /** A wallet currency ('btc', 'usdt') or a catalogue code naming the network too ('usdttrc20'). */
  currency: currencyInput,
});
export const depositAddressQuerySchema = z.object({
  /** The network for a currency on several ('ETH', 'TRX', 'BSC', 'SOL' for USDT); the currency's first otherwise. */
  network: z.string().max(20).optional(),
});

export const depositAddressSchema = z.object({
  /** The wallet currency credited (upper-case symbol). */
  currency: z.string(),
  /** The catalogue code of the currency on this network ('usdttrc20'). */
  code: z.string(),
  /** The network the address lives on ('BTC', 'ETH', 'TRX', ...). */
  network: z.string(),
  address: z.string(),
  /** Destination tag or memo to send with the deposit, where the network needs one; else null. */
  memo: z.string().nullable(),
  /** What the network calls the memo ('Destination tag', 'Memo', 'Comment'), or null. */
  memo_label: z.string().nullable(),
  /** A PNG data: URL of a QR code of the address (with the memo written below it). */
  qr: z.string(),
  min_confirmations: z.number().int(),
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

// ---------------------------------------------------------------------------------------------
// Deposits (history, the sandbox chain, hosted checkout)
// ---------------------------------------------------------------------------------------------

/** §4 wallet and transaction statuses. */
export const DEPOSIT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** How the money came: to a deposit address on chain, or through the provider's hosted checkout. */
export const DEPOSIT_METHODS = ['address', 'checkout'] as const;
export type DepositMethod = (typeof DEPOSIT_METHODS)[number];

/**
 * POST /sandbox/chain/deposits (sandbox provider only, no sign-in): stands for the outside world
 * sending coins to an address. The deposit is seen with 0 confirmations and credited to the
 * address's owner once its network's confirmations are reached.
 */
export const sandboxChainDepositRequestSchema = z.object({
  currency: currencyInput,
  address: z.string().min(1).max(200),
  memo: z.string().max(100).nullable().optional(),
  amount: amountInput,
  /** The network, when the currency is on several and `currency` is not a catalogue code. */
  network: z.string().max(20).optional(),
});
export type SandboxChainDepositRequest = z.infer<typeof sandboxChainDepositRequestSchema>;

export const chainDepositSchema = z.object({
  id: z.string(),
  txid: z.string(),
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  memo: z.string().nullable(),
  amount: z.string(),
  confirmations: z.number().int(),
  required_confirmations: z.number().int(),
  status: z.enum(DEPOSIT_STATUSES),
  /** False when no account owns the address (and memo): recorded, credited to nobody. */
  attributed: z.boolean(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type ChainDeposit = z.infer<typeof chainDepositSchema>;

/** POST /api/v1/wallet/deposit (§7.3): a deposit through the provider's hosted checkout. */
export const createDepositRequestSchema = z.object({
  currency: currencyInput,
  amount: amountInput,
  /**
   * §7.3 has crypto only; `card` pays through the provider's hosted card checkout (docs/payments.md,
   * "Buying with a card"), for the currencies the provider sells by card (CardOptions).
   */
  payment_method: z.enum(['crypto', 'card']).default('crypto'),
  /** Same effect as the Idempotency-Key header: a retry with the same key returns the first deposit. */
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type CreateDepositRequest = z.infer<typeof createDepositRequestSchema>;

/** Where a payment stands (provider words mapped to ours; see docs/payments.md). */
export const PAYMENT_STATUSES = [
  'waiting',
  'confirming',
  'paid',
  'underpaid',
  'expired',
  'failed',
  'refunded',
] as const;
export type PaymentStatusName = (typeof PAYMENT_STATUSES)[number];

export const checkoutDepositSchema = z.object({
  id: z.string(),
  /** How the payer pays at the checkout: crypto to an address, or a card. */
  payment_method: z.enum(['crypto', 'card']).default('crypto'),
  /** §4 wallet status: pending until credited (completed), failed when it expired or failed. */
  status: z.enum(DEPOSIT_STATUSES),
  /** The payment's own status. */
  payment_status: z.enum(PAYMENT_STATUSES),
  currency: z.string(),
  amount: z.string(),
  /** What was credited, once completed (an underpaid deposit credits what arrived). */
  credited_amount: z.string().nullable(),
  checkout_url: z.string(),
  expires_at: z.string(),
  crypto_currency: z.string().nullable(),
  crypto_address: z.string().nullable(),
  crypto_amount: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CheckoutDeposit = z.infer<typeof checkoutDepositSchema>;

export const depositIdParamsSchema = z.object({ id: z.uuid() });

export const depositHistoryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** One row of GET /api/v1/wallet/deposits: either kind of deposit, newest first. */
export const depositHistoryItemSchema = z.object({
  id: z.string(),
  method: z.enum(DEPOSIT_METHODS),
  currency: z.string(),
  /** Network of an address deposit; null for checkout. */
  network: z.string().nullable(),
  amount: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  /** Address deposits only. */
  confirmations: z.number().int().nullable(),
  required_confirmations: z.number().int().nullable(),
  txid: z.string().nullable(),
  address: z.string().nullable(),
  memo: z.string().nullable(),
  /** Checkout deposits only. */
  checkout_url: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type DepositHistoryItem = z.infer<typeof depositHistoryItemSchema>;

export const depositHistoryResponseSchema = z.object({
  deposits: z.array(depositHistoryItemSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type DepositHistoryResponse = z.infer<typeof depositHistoryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Payment-provider facade (§7.4, base /v1/triple-a): payments and Lightning
// ---------------------------------------------------------------------------------------------

/** How long a payment's quote and checkout stay payable (Triple-A guarantees its rate 25 min). */
export const PAYMENT_EXPIRY_SECONDS = 25 * 60;
/** How long a Lightning invoice stays payable (BOLT11's default expiry). */
export const LIGHTNING_EXPIRY_SECONDS = 3600;
/** Most references one batch status call takes. */
export const PAYMENT_BATCH_MAX = 100;
/** Longest payment description. */
export const PAYMENT_DESCRIPTION_MAX_LENGTH = 200;
/** The pay-with code that asks for a Lightning invoice (§7.4 select). */
export const LIGHTNING_CRYPTO_CURRENCY = 'LNBC';

const urlInput = z.url().max(2000);

export const createPaymentRequestSchema = z.object({
  description: z.string().max(PAYMENT_DESCRIPTION_MAX_LENGTH),
  amount: amountInput,
  /** The order currency: what the amount is in and what the payer is credited ('usd', 'btc'). */
  currency: currencyInput,
  /** The crypto the payer will pay with, when already chosen ('btc'); any the checkout offers otherwise. */
  crypto_currency: currencyInput.optional(),
  success_url: urlInput.optional(),
  cancel_url: urlInput.optional(),
  payer_email: z.email().max(254).optional(),
  payer_name: z.string().max(100).optional(),
  /** Same effect as the Idempotency-Key header. */
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;

export const lightningInvoiceSchema = z.object({
  /** BOLT11 (lntb... in sandbox). */
  invoice: z.string(),
  payment_hash: z.string(),
  /** Amount in BTC. */
  amount: z.string(),
  expires_at: z.string(),
});
export type LightningInvoiceInfo = z.infer<typeof lightningInvoiceSchema>;

/**
 * A payment (§3.5: description, amount, pay-with currency, reference, status, expiresAt,
 * finalAmount, checkout link, Lightning invoice). `expiresAt` and `finalAmount` keep the spec's
 * names; the other fields are snake_case like the rest of the API.
 */
export const paymentSchema = z.object({
  id: z.string(),
  /** Our reference of the payment (= id): what batch/status and the webhooks name it by. */
  reference: z.string(),
  /** The provider's reference (Triple-A payment_reference), once the checkout exists. */
  payment_reference: z.string().nullable(),
  description: z.string(),
  amount: z.string(),
  currency: z.string(),
  /** Pay-with currency: the crypto chosen ('BTC', or 'LNBC' once a Lightning invoice was selected). */
  crypto_currency: z.string().nullable(),
  crypto_address: z.string().nullable(),
  crypto_amount: z.string().nullable(),
  exchange_rate: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  /** True when the status cannot change any more. */
  final: z.boolean(),
  expiresAt: z.string(),
  /** What was confirmed (and credited), in the order currency, once final; null before. */
  finalAmount: z.string().nullable(),
  checkout_url: z.string().nullable(),
  lightning: lightningInvoiceSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** GET /payment/{id}/crypto: where and how much to pay in crypto. */
export const paymentCryptoSchema = z.object({
  id: z.string(),
  crypto_currency: z.string().nullable(),
  crypto_address: z.string().nullable(),
  crypto_amount: z.string().nullable(),
  exchange_rate: z.string().nullable(),
  expiresAt: z.string(),
  status: z.enum(PAYMENT_STATUSES),
});
export type PaymentCrypto = z.infer<typeof paymentCryptoSchema>;

/** POST /payment/{id}/select: only Lightning ('LNBC', any case) is selectable. */
export const selectPaymentCryptoRequestSchema = z.object({ crypto_currency: z.string().max(20) });

export const selectPaymentCryptoResponseSchema = z.object({
  id: z.string(),
  crypto_currency: z.literal(LIGHTNING_CRYPTO_CURRENCY),
  invoice: z.string(),
  payment_hash: z.string(),
  /** Amount in BTC. */
  amount: z.string(),
  expires_at: z.string(),
  status: z.enum(PAYMENT_STATUSES),
});
export type SelectPaymentCryptoResponse = z.infer<typeof selectPaymentCryptoResponseSchema>;

export const paymentBatchStatusRequestSchema = z.object({
  payment_references: z.array(z.string().min(1).max(100)).min(1).max(PAYMENT_BATCH_MAX),
});
/** The caller's payments among those asked for; references unknown or not the caller's are listed in not_found. */
export const paymentBatchStatusResponseSchema = z.object({
  payments: z.array(paymentSchema),
  not_found: z.array(z.string()),
});
export type PaymentBatchStatusResponse = z.infer<typeof paymentBatchStatusResponseSchema>;

/** POST /lightning/payment: an invoice to receive `amount` BTC. */
export const createLightningPaymentRequestSchema = z.object({
  amount: amountInput,
  description: z.string().max(PAYMENT_DESCRIPTION_MAX_LENGTH).optional(),
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN).optional(),
});
export type CreateLightningPaymentRequest = z.infer<typeof createLightningPaymentRequestSchema>;

export const LIGHTNING_STATUSES = ['waiting', 'paid', 'expired'] as const;
export const lightningPaymentSchema = z.object({
  id: z.string(),
  invoice: z.string(),
  payment_hash: z.string(),
  /** BTC. */
  amount: z.string(),
  description: z.string(),
  expires_at: z.string(),
  status: z.enum(LIGHTNING_STATUSES),
  paid_at: z.string().nullable(),
  created_at: z.string(),
});
export type LightningPayment = z.infer<typeof lightningPaymentSchema>;

/** POST /webhook/verify (§7.4): checks a webhook signature as the provider would send it. */
export const webhookVerifyRequestSchema = z.object({
  /** The raw body (a string), or the parsed JSON (re-serialised with JSON.stringify). */
  payload: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]),
  signature: z.string().max(1000),
  timestamp: z.union([z.string().max(30), z.number()]).optional(),
});
export const webhookVerifyResponseSchema = z.object({ valid: z.boolean() });

/** Our answer to a webhook the provider sent (any 2xx stops its retries). */
export const webhookAckSchema = z.object({
  received: z.boolean(),
  /** True when this event was seen before and changed nothing. */
  duplicate: z.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Buying with a card (the provider's hosted card checkout; docs/payments.md)
// ---------------------------------------------------------------------------------------------

/** What the provider sells by card, and its card fee (GET /api/v1/wallet/card/options). */
export const cardOptionsSchema = z.object({
  /** Empty when the configured provider takes no cards. */
  currencies: z.array(z.string()),
  /** The provider's card fee in percent of the amount bought ("3.5"). */
  fee_percent: z.string(),
});
export type CardOptions = z.infer<typeof cardOptionsSchema>;

export const cardQuoteQuerySchema = z.object({ currency: currencyInput, amount: amountInput });

/**
 * GET /api/v1/wallet/card/quote: what a card purchase costs, disclosed before paying. `amount` is
 * credited; the card is charged `total` = amount + fee, in the same currency.
 */
export const cardQuoteSchema = z.object({
  currency: z.string(),
  amount: z.string(),
  fee: z.string(),
  fee_percent: z.string(),
  total: z.string(),
});
export type CardQuote = z.infer<typeof cardQuoteSchema>;
