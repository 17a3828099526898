import type { AppContext } from '../../context.ts';
import type { PaymentProvider } from './types.ts';

export * from './types.ts';

const providers = new WeakMap<AppContext, PaymentProvider>();

/** Set once by the payment-provider module at registration (before the wallet modules). */
export function setPaymentProvider(context: AppContext, provider: PaymentProvider): void {
  providers.set(context, provider);
}

/** The configured payment provider; throws when asked before the provider module registered. */
export function paymentProviderOf(context: AppContext): PaymentProvider {
  const provider = providers.get(context);
  if (!provider) throw new Error('payment provider asked for before the provider module registered');
  return provider;
}

const callbackBases = new WeakMap<AppContext, string>();

/**
 * Set by the payment-provider module once the server listens: the base URL providers call back
 * (webhooks) and payers are sent to (sandbox checkout pages). PUBLIC_URL when configured, else the
 * address the server actually listens on (tests listen on port 0).
 */
export function setCallbackBaseUrl(context: AppContext, baseUrl: string): void {
  callbackBases.set(context, baseUrl.replace(/\/$/, ''));
}

export function callbackBaseUrl(context: AppContext): string {
  return callbackBases.get(context) ?? context.config.publicUrl;
}

/** Our webhook endpoint for a provider (served by the payments module). */
export function webhookUrl(context: AppContext, provider: string): string {
  return `${callbackBaseUrl(context)}/v1/webhooks/${provider}`;
}

/**
 * A payout update from a provider (webhook or status poll), handed to the withdrawals module,
 * which registers the listener at registration. The webhook is answered 200 only after the
 * listener's promise resolves, so a failure makes the provider retry.
 */
export type PayoutListener = (payout: import('./types.ts').PayoutState) => Promise<void>;
const payoutListeners = new WeakMap<AppContext, PayoutListener>();

export function onPayoutUpdate(context: AppContext, listener: PayoutListener): void {
  payoutListeners.set(context, listener);
}

export function payoutListenerOf(context: AppContext): PayoutListener | undefined {
  return payoutListeners.get(context);
}
