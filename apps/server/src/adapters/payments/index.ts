import type { PaymentProvider, PayoutState } from './types.ts';

export * from './types.ts';

/**
 * A payout update from a provider (webhook or status poll), handed to the withdrawals module. The
 * webhook is answered 200 only after the listener's promise resolves, so a failure makes the
 * provider retry.
 */
export type PayoutListener = (payout: PayoutState) => Promise<void>;

/**
 * The server's way to its payment provider, built once by the composition root and handed to the
 * modules that pay or get paid (wallet fees, payments, withdrawals).
 */
export class PaymentGateway {
  private current: PaymentProvider;
  private callbackBase: string | null = null;
  private listener: PayoutListener | undefined;

  constructor(
    provider: PaymentProvider,
    private readonly publicUrl: string,
  ) {
    this.current = provider;
  }

  /** Read at call time: tests put a fake provider in the configured one's place. */
  get provider(): PaymentProvider {
    return this.current;
  }

  /** Puts another provider in the configured one's place (tests use fakes). */
  useProvider(provider: PaymentProvider): void {
    this.current = provider;
  }

  /**
   * The base URL providers call back (webhooks) and payers are sent to (sandbox checkout pages):
   * PUBLIC_URL when configured, else the address the server actually listens on (tests listen on
   * port 0), set once the server listens.
   */
  callbackBaseUrl(): string {
    return this.callbackBase ?? this.publicUrl;
  }

  setCallbackBaseUrl(baseUrl: string): void {
    this.callbackBase = baseUrl.replace(/\/$/, '');
  }

  /** Our webhook endpoint for a provider (served by the payments module). */
  webhookUrl(provider: string): string {
    return `${this.callbackBaseUrl()}/v1/webhooks/${provider}`;
  }

  /** The withdrawals module takes the payout updates; the payments module's webhooks hand them over. */
  onPayoutUpdate(listener: PayoutListener): void {
    this.listener = listener;
  }

  get payoutListener(): PayoutListener | undefined {
    return this.listener;
  }
}
