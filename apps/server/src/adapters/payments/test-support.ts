import { type PaymentState, ProviderError, type WebhookCheck } from './types.ts';

/** What the adapters' contract tests and the sandbox's tests share to look at an outcome. */

/** The ProviderError a call failed with; anything else (or success) fails the test. */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

/** The payment of a webhook that checked out as a payment event; anything else fails the test. */
export function paymentOf(check: WebhookCheck): PaymentState {
  if (!check.ok || check.event.kind !== 'payment') throw new Error(`not a payment event: ${JSON.stringify(check)}`);
  return check.event.payment;
}
