import type { PaymentGateway, PaymentProvider, PaymentState } from '../../adapters/payments/index.ts';
import type { Result } from '../../lib/errors.ts';
import type { MarketFeed } from '../markets/index.ts';
import type { PaymentsDeps } from './credit.ts';
import { selectLightning } from './lightning-selection.ts';
import { type CreatedPayment, createCheckoutPayment, createLightning, type NewPayment } from './payment-creation.ts';
import { ownPayment, ownPayments, type PaymentKind, type PaymentRow } from './payment-rows.ts';
import { applyLightningState, applyPaymentState } from './payment-states.ts';
import type { ProviderAccess } from './provider-calls.ts';

export type { NewPayment } from './payment-creation.ts';
export {
  claimOpenPayments,
  FINAL_STATUSES,
  failStaleCreating,
  type PaymentKind,
  type PaymentRow,
} from './payment-rows.ts';
export { toCheckoutDeposit, toLightningPayment, toPayment, walletStatusOf } from './payment-views.ts';

/**
 * Payments through the provider: hosted-checkout deposits (§7.3), the facade's payments and
 * Lightning invoices (§7.4). The service is the module's one entry point; each part lives in its
 * own file: creation (payment-creation.ts), paying a checkout with Lightning
 * (lightning-selection.ts), what the provider says later (payment-states.ts), and the rows and
 * their shapes (payment-rows.ts, payment-views.ts).
 */
export class PaymentsService implements ProviderAccess {
  constructor(
    readonly deps: PaymentsDeps,
    readonly gateway: PaymentGateway,
    private readonly feed: Pick<MarketFeed, 'usdPrice'>,
  ) {}

  /** Read at call time: tests swap the gateway's provider. */
  provider(): PaymentProvider {
    return this.gateway.provider;
  }

  /** The web client's routes, on the address payers and providers reach us at. */
  webUrl(path: string): string {
    return `${this.gateway.callbackBaseUrl()}${path}`;
  }

  /** Where the configured provider sends its webhooks. */
  notifyUrl(): string {
    return this.gateway.webhookUrl(this.provider().name);
  }

  /** The live prices (Lightning invoices for fiat orders are priced from them). */
  priceFeed(): Pick<MarketFeed, 'usdPrice'> {
    return this.feed;
  }

  createCheckoutPayment(accountId: string, input: NewPayment): Promise<Result<CreatedPayment>> {
    return createCheckoutPayment(this, accountId, input);
  }

  createLightning(
    accountId: string,
    amountBtc: string,
    description: string,
    key: string | null,
  ): Promise<Result<CreatedPayment>> {
    return createLightning(this, accountId, amountBtc, description, key);
  }

  selectLightning(accountId: string, idOrReference: string): Promise<Result<PaymentRow>> {
    return selectLightning(this, accountId, idOrReference);
  }

  ownPayment(accountId: string, idOrReference: string, kinds: readonly PaymentKind[]): Promise<Result<PaymentRow>> {
    return ownPayment(this.deps.db, accountId, idOrReference, kinds);
  }

  ownPayments(accountId: string, references: readonly string[]): Promise<{ rows: PaymentRow[]; notFound: string[] }> {
    return ownPayments(this.deps.db, accountId, references);
  }

  applyPaymentState(state: PaymentState, providerName: string): Promise<boolean> {
    return applyPaymentState(this.deps, state, providerName);
  }

  applyLightningState(
    update: { providerReference: string; reference: string | null; paid: boolean; expired?: boolean },
    providerName: string,
  ): Promise<boolean> {
    return applyLightningState(this.deps, update, providerName);
  }
}
