import type { Withdrawal } from '@platform/contracts';
import {
  type PaymentProvider,
  type PayoutRequest,
  type PayoutState,
  type PayoutStatus,
  ProviderError,
} from '../../adapters/payments/index.ts';
import type { TestServer } from '../../test/harness.ts';
import { currentCode } from '../auth/test-support.ts';
import { type Member, signUpMember } from '../wallet/test-support.ts';

export const ADDRESSES = {
  BTC: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  ETH: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  LTC: 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
  XRP: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
} as const;

type Answer<T> = T | Error;

/** Sets a member's KYC tier directly: how a tier is earned is the kyc module's business. */
export async function setKycTier(server: TestServer, member: Member, tier: 'unverified' | 'verified'): Promise<void> {
  await server.db.query('UPDATE accounts SET kyc_tier = $2 WHERE id = $1', [member.id, tier]);
}

/** A member whose withdrawals are not held back by the unverified tier's limit. */
export async function verifiedMember(server: TestServer): Promise<Member> {
  const member = await signUpMember(server);
  await setKycTier(server, member, 'verified');
  return member;
}

/**
 * A payment provider of our own for the withdrawal tests: payouts are kept in memory, recognised by
 * reference (as real providers and the sandbox do), and moved by the test. Quotes answer null (use
 * §9) unless set; any call can be made to fail.
 */
export class FakePayoutProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  /** Recognises a repeated reference, like the sandbox; tests set it false to play a real provider. */
  idempotentPayouts = true;
  readonly payouts = new Map<string, PayoutState & { request: PayoutRequest }>();
  createCalls = 0;
  verifyCalls: { batchId: string; code: string }[] = [];
  /** While set, createPayout throws it (an outage: retryable). */
  createError: Error | null = null;
  statusError: Error | null = null;
  minimum: Answer<string | null> = null;
  fee: Answer<string | null> = null;
  estimateAnswer: Answer<string | null> = null;
  /** Status a new payout starts in, and whether it waits for a verification code. */
  initialStatus: PayoutStatus = 'creating';
  needsVerification = false;
  validCode = '123456';

  static outage(): ProviderError {
    return new ProviderError('provider unreachable', { provider: 'sandbox', retryable: true });
  }

  async createPayout(request: PayoutRequest): Promise<PayoutState> {
    this.createCalls++;
    if (this.createError) throw this.createError;
    const existing = this.payouts.get(request.reference);
    if (existing) return this.state(existing);
    const payout = {
      providerReference: `PO-${this.payouts.size + 1}-${request.reference.slice(0, 8)}`,
      batchId: `B-${request.reference.slice(0, 8)}`,
      reference: request.reference,
      status: this.initialStatus,
      needsVerification: this.needsVerification,
      networkFee: null,
      hash: null,
      error: null,
      updatedAt: new Date(),
      request,
    };
    this.payouts.set(request.reference, payout);
    return this.state(payout);
  }

  async verifyPayout(batchId: string, verificationCode: string): Promise<void> {
    this.verifyCalls.push({ batchId, code: verificationCode });
    if (verificationCode !== this.validCode) {
      throw new ProviderError('wrong code', { provider: 'sandbox', status: 400, retryable: false });
    }
    for (const payout of this.payouts.values()) {
      if (payout.batchId === batchId) {
        payout.needsVerification = false;
        payout.status = 'processing';
      }
    }
  }

  async payoutStatus(providerReference: string): Promise<PayoutState> {
    if (this.statusError) throw this.statusError;
    const payout = [...this.payouts.values()].find((item) => item.providerReference === providerReference);
    if (!payout) throw new ProviderError('no such payout', { provider: 'sandbox', status: 404, retryable: false });
    return this.state(payout);
  }

  async minimumPayout(): Promise<string | null> {
    return answer(this.minimum);
  }

  async payoutFee(): Promise<string | null> {
    return answer(this.fee);
  }

  async estimate(): Promise<string | null> {
    return answer(this.estimateAnswer);
  }

  /** Moves a payout (by our reference) and answers its new state, as a webhook would carry it. */
  move(reference: string, status: PayoutStatus, extra: { hash?: string; error?: string } = {}): PayoutState {
    const payout = this.payouts.get(reference);
    if (!payout) throw new Error(`no payout ${reference}`);
    payout.status = status;
    payout.hash = extra.hash ?? payout.hash;
    payout.error = extra.error ?? payout.error;
    payout.updatedAt = new Date();
    return this.state(payout);
  }

  private state(payout: PayoutState & { request: PayoutRequest }): PayoutState {
    const { request: _request, ...state } = payout;
    return { ...state };
  }

  createCheckout(): never {
    throw new Error('not used by the withdrawal tests');
  }
  paymentStatus(): never {
    throw new Error('not used by the withdrawal tests');
  }
  createLightningInvoice(): never {
    throw new Error('not used by the withdrawal tests');
  }
  lightningStatus(): never {
    throw new Error('not used by the withdrawal tests');
  }
  refund(): never {
    throw new Error('not used by the withdrawal tests');
  }
  verifyWebhook(): never {
    throw new Error('not used by the withdrawal tests');
  }
}

async function answer<T>(value: Answer<T>): Promise<T> {
  if (value instanceof Error) throw value;
  return value;
}

export function installFake(server: TestServer): FakePayoutProvider {
  const fake = new FakePayoutProvider();
  server.services.paymentProvider.gateway.useProvider(fake);
  return fake;
}

/** Delivers an update as the payments module does with a checked webhook. */
export async function deliverWebhook(server: TestServer, state: PayoutState): Promise<void> {
  const listener = server.services.paymentProvider.gateway.payoutListener;
  if (!listener) throw new Error('no payout listener registered');
  await listener(state);
}

export function processorOf(server: TestServer) {
  return server.services.withdrawals.processor;
}

export type WithdrawalAnswer = {
  status: number;
  body: Withdrawal & { error?: { code: string; message: string; details?: unknown } };
};

export function withdraw(
  server: TestServer,
  member: Member,
  body: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<WithdrawalAnswer> {
  return server.request('POST', '/api/v1/wallet/withdraw', {
    token: member.token,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  }) as Promise<WithdrawalAnswer>;
}

/** Polls the status call until the withdrawal satisfies `done` (the processor works in the background). */
export async function waitForWithdrawal(
  server: TestServer,
  member: Member,
  id: string,
  done: (withdrawal: Withdrawal) => boolean,
  what = 'the expected state',
): Promise<Withdrawal> {
  let last: Withdrawal | undefined;
  for (let attempt = 0; attempt < 400; attempt++) {
    const answer = await server.request<Withdrawal>('GET', `/api/v1/wallet/payout-status/${id}`, {
      token: member.token,
    });
    last = answer.body;
    if (answer.status === 200 && done(answer.body)) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`withdrawal ${id} did not reach ${what}: ${JSON.stringify(last)}`);
}

/** Waits until the processor has sent the withdrawal to the provider. */
export function sent(server: TestServer, member: Member, id: string): Promise<Withdrawal> {
  return waitForWithdrawal(server, member, id, (item) => item.provider_status !== null, 'the provider');
}

/** Turns 2FA on for a member; returns the secret. Moves the clock a step so the next code is fresh. */
export async function enableTwoFactor(server: TestServer, member: Member): Promise<string> {
  const path = `/v1/accounts/${member.id}/2fa/enable`;
  const setup = await server.request('POST', path, { token: member.token, body: {} });
  const secret: string = setup.body.secret;
  const confirmed = await server.request('POST', path, {
    token: member.token,
    body: { code: currentCode(server, secret) },
  });
  if (confirmed.status !== 200) throw new Error(`2FA not enabled: ${JSON.stringify(confirmed.body)}`);
  server.clock.advance(30_000);
  return secret;
}
