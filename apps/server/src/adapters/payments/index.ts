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
