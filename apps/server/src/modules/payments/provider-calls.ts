import type { PaymentProvider } from '../../adapters/payments/types.ts';
import { type Failure, fail } from '../../lib/errors.ts';
import type { MarketFeed } from '../markets/index.ts';
import type { PaymentsDeps } from './credit.ts';

/**
 * What creating a payment (payment-creation.ts) and paying a checkout with Lightning
 * (lightning-selection.ts) use of PaymentsService: a narrow view, so that those parts need not
 * import payments.ts, which calls them.
 */
export interface ProviderAccess {
  readonly deps: PaymentsDeps;
  /** Read at call time: tests swap the gateway's provider. */
  provider(): PaymentProvider;
  /** Where the configured provider sends its webhooks. */
  notifyUrl(): string;
  /** The live prices (Lightning invoices for fiat orders are priced from them). */
  priceFeed(): Pick<MarketFeed, 'usdPrice'>;
}

/** A provider call that failed: logged with its cause, answered 502 (the client falls back to its own text). */
export function providerFailure(deps: PaymentsDeps, error: unknown, what: string): Failure {
  deps.log.warn({ err: error }, `payment provider failed to ${what}`);
  return fail('PROVIDER_UNAVAILABLE');
}
