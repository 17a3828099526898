import { withdrawalNetwork } from '@platform/contracts';
import { type PaymentProvider, type PayoutState, ProviderError } from '../../adapters/payments/index.ts';
import { BatchLoop } from '../../lib/batch-loop.ts';
import type { EntryInput } from '../ledger/service.ts';
import { postEntries } from '../ledger/service.ts';
import { type NewNotification, publishNotifications } from '../notifications/service.ts';
import { providerOrNull } from '../wallet/fees.ts';
import { trimAmount } from '../wallet/rules.ts';
import type { WithdrawalDeps } from './deps.ts';
import { plus, shortAddress, WITHDRAWAL_COLUMNS, type WithdrawalRow } from './rows.ts';

/** Most withdrawals one send pass claims. */
const SEND_BATCH = 50;
/** Provider calls in flight at once, per pass: a provider is an outside service with its own limits. */
const PROVIDER_CONCURRENCY = 4;
/** Longest wait for one provider call; the payout stays claimed meanwhile, so it is well under the lease. */
const PROVIDER_CALL_TIMEOUT_MS = 30_000;
/** How long a claim keeps other processors off a withdrawal: a crashed sender's payouts are retried after it. */
const CLAIM_LEASE_MS = 2 * 60_000;
/** Back-off after a failed send: 1 s doubling, capped at 5 minutes; the hold stays meanwhile. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 5 * 60_000;
/** How often payouts in flight are polled, so a lost webhook never strands a withdrawal. */
export const POLL_INTERVAL_MS = 15_000;
/** Most payouts one poll asks about (the stalest first). */
const POLL_BATCH = 100;
/** Retry delay while no provider is registered, or after an unexpected error (a database hiccup). */
const IDLE_RETRY_MS = 5_000;
/** Provider statuses in the order a payout goes through them: an older update never moves one back. */
const PROGRESS_ORDER = ['creating', 'waiting', 'processing', 'sending'];

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ClaimedRow = {
  id: string;
  currency: string;
  amount: string;
  address: string;
  extra_id: string | null;
  network: string | null;
  payout_description: string | null;
  send_attempts: number;
  /** The previous attempt began and never recorded how it ended (a crash, or a lease outlived). */
  previous_unrecorded: boolean;
};

/** Why a payout waits for a person instead of being sent again. */
const REVIEW_UNRECORDED =
  'An earlier attempt to send this payout ended without a recorded answer; the provider may have it. Check with the provider before sending again.';
const reviewAfterError = (message: string) =>
  `The provider may have received this payout (${message}). Check with the provider before sending again.`;

/** Doublings of the retry delay counted at most: 2^20 times the base is past the cap, and the power stays small. */
const MAX_RETRY_DOUBLINGS = 20;

export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, Math.min(attempts - 1, MAX_RETRY_DOUBLINGS)));
}

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${PROVIDER_CALL_TIMEOUT_MS} ms`)),
      PROVIDER_CALL_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Sends pending withdrawals to the payment provider and applies what the provider says about them.
 *
 * Sending: a pass claims unsent pending withdrawals (an UPDATE of the claim lease, rows taken with
 * SKIP LOCKED, so two processors never send one at the same time) and calls createPayout with the
 * withdrawal id as reference; the provider recognises a repeated reference, so a send retried after
 * a crash makes no second payout. A provider error leaves the withdrawal pending with its hold and
 * schedules a retry with back-off; a provider that refuses it outright (not retryable) fails it.
 *
 * Updates (webhooks through the payments module, and the poll of payouts in flight): finished
 * completes the withdrawal (the hold leaves the books: amount to custody, fee to fees), failed or
 * rejected fails it (the hold goes back). Each happens once: the status moves from pending in the
 * same transaction as the ledger entry, and a duplicate update finds nothing pending.
 */
export class PayoutProcessor {
  private readonly sends: BatchLoop;
  private pollTimer: NodeJS.Timeout | null = null;
  private polling: Promise<number> | null = null;
  private warnedNoProvider = false;

  constructor(
    private readonly deps: WithdrawalDeps,
    private readonly pollIntervalMs = POLL_INTERVAL_MS,
  ) {
    this.sends = new BatchLoop({
      batch: () => this.sendBatch(),
      batchSize: SEND_BATCH,
      retryMs: IDLE_RETRY_MS,
      failed: (error) => deps.log.error({ err: error }, 'payout processing failed; retrying shortly'),
      drained: () => this.scheduleNext(),
    });
  }

  /** At boot: sends what waits (withdrawals recorded before a restart) and starts polling. */
  start(): void {
    this.kick();
    this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
    this.pollTimer.unref();
  }

  kick(): void {
    this.sends.kick();
  }

  /** Resolves once no send pass runs. */
  idle(): Promise<void> {
    return this.sends.idle();
  }

  async stop(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.sends.stop();
    await this.polling;
  }

  /** Wakes up when the next withdrawal waiting for a retry (or an expired claim) is due. */
  private async scheduleNext(): Promise<void> {
    if (this.sends.stopped || providerOrNull(this.deps) === null) return;
    const next = await this.deps.db.query<{ due: Date | string | null }>(
      `SELECT min(greatest(next_attempt_at, coalesce(claimed_until, next_attempt_at))) AS due FROM withdrawals
       WHERE status = 'pending' AND provider_reference IS NULL`,
    );
    const due = next.rows[0]?.due;
    if (due === null || due === undefined) return;
    // The server clock may be moved by tests; a wait is never longer than the back-off cap.
    this.sends.later(Math.min(new Date(due).getTime() - this.deps.clock().getTime() + 10, RETRY_MAX_MS));
  }

  /** One send pass; returns how many withdrawals it claimed. */
  private async sendBatch(): Promise<number> {
    const provider = providerOrNull(this.deps);
    if (provider === null) {
      if (!this.warnedNoProvider) this.deps.log.warn('no payment provider registered yet: withdrawals wait');
      this.warnedNoProvider = true;
      this.sends.later(IDLE_RETRY_MS);
      return 0;
    }
    const now = this.deps.clock();
    const claimed = await this.deps.db.query<ClaimedRow>(
      `UPDATE withdrawals w SET claimed_until = $2, send_attempts = w.send_attempts + 1, provider = $3, updated_at = $1,
         in_flight_since = $1
       FROM (
         SELECT id, in_flight_since IS NOT NULL AS previous_unrecorded FROM withdrawals
         WHERE status = 'pending' AND provider_reference IS NULL AND review_reason IS NULL AND next_attempt_at <= $1
           AND (claimed_until IS NULL OR claimed_until < $1)
         ORDER BY next_attempt_at, created_at, payout_index LIMIT $4 FOR UPDATE SKIP LOCKED
       ) c
       WHERE w.id = c.id
       RETURNING w.id, w.currency, w.amount::text AS amount, w.address, w.extra_id, w.network, w.payout_description,
         w.send_attempts, c.previous_unrecorded`,
      [now, new Date(now.getTime() + CLAIM_LEASE_MS), provider.name, SEND_BATCH],
    );
    await eachLimited(claimed.rows, PROVIDER_CONCURRENCY, (row) => this.send(provider, row));
    return claimed.rowCount;
  }

  /**
   * Holds a payout for a person: it stays pending with its funds held, and nothing sends it again
   * until the review reason is cleared (or the provider's reference is recorded, after which the
   * poll follows it). Logged as an error: someone must look.
   */
  private async holdForReview(row: ClaimedRow, reason: string, error?: unknown): Promise<void> {
    this.deps.log.error(
      { err: error, withdrawalId: row.id, attempts: row.send_attempts },
      'payout held for review: the provider may already have it',
    );
    const now = this.deps.clock();
    await this.deps.db.query(
      `UPDATE withdrawals SET review_reason = $2, claimed_until = NULL, in_flight_since = NULL, updated_at = $3
       WHERE id = $1 AND status = 'pending' AND provider_reference IS NULL`,
      [row.id, reason, now],
    );
  }

  private async send(provider: PaymentProvider, row: ClaimedRow): Promise<void> {
    // A provider that does not recognise a repeated reference would pay twice: an attempt that
    // may have reached it is never repeated blindly.
    if (row.previous_unrecorded && !provider.idempotentPayouts) {
      await this.holdForReview(row, REVIEW_UNRECORDED);
      return;
    }
    let state: PayoutState;
    try {
      state = await withTimeout(
        provider.createPayout({
          reference: row.id,
          currency: row.currency,
          amount: trimAmount(row.amount),
          address: row.address,
          extraId: row.extra_id,
          networkCode: row.network ? withdrawalNetwork(row.currency, row.network)?.code : undefined,
          description: row.payout_description ?? `Withdrawal ${row.id}`,
          notifyUrl: this.deps.gateway.webhookUrl(provider.name),
        }),
        'createPayout',
      );
    } catch (error) {
      await this.sendFailed(provider, row, error);
      return;
    }
    // Sent: the claim ends and the provider's ids are kept. The status itself goes through
    // applyUpdate, which never moves it back (a webhook may have told us more meanwhile).
    const now = this.deps.clock();
    await this.deps.db.query(
      `UPDATE withdrawals SET provider_reference = coalesce(provider_reference, $2), batch_id = coalesce(batch_id, $3),
         sent_at = $4, claimed_until = NULL, in_flight_since = NULL, last_error = NULL, updated_at = $4
       WHERE id = $1`,
      [row.id, state.providerReference, state.batchId, now],
    );
    await this.applyUpdate(state, row.id);
  }

  private async sendFailed(provider: PaymentProvider, row: ClaimedRow, error: unknown): Promise<void> {
    const surelyNotSent = error instanceof ProviderError && error.details.delivered === 'no';
    if (!provider.idempotentPayouts && !surelyNotSent) {
      await this.holdForReview(row, reviewAfterError(error instanceof Error ? error.message : String(error)), error);
      return;
    }
    if (error instanceof ProviderError && !error.details.retryable) {
      this.deps.log.warn(
        { err: error, withdrawalId: row.id },
        'payment provider refused a payout; the withdrawal fails',
      );
      await this.settle(row.id, 'failed', null, `Refused by the payment provider: ${error.message}`);
      return;
    }
    const delayMs = retryDelayMs(row.send_attempts);
    this.deps.log.warn(
      { err: error, withdrawalId: row.id, attempts: row.send_attempts, retryInMs: delayMs },
      'payout could not be sent; retrying later, the funds stay held',
    );
    const now = this.deps.clock();
    await this.deps.db.query(
      `UPDATE withdrawals SET claimed_until = NULL, in_flight_since = NULL, next_attempt_at = $2, last_error = $3,
         updated_at = $4
       WHERE id = $1 AND status = 'pending' AND provider_reference IS NULL`,
      [row.id, new Date(now.getTime() + delayMs), error instanceof Error ? error.message : String(error), now],
    );
  }

  /**
   * Asks the provider about payouts in flight, the stalest first, and applies the answers. A lost
   * webhook costs at most a poll interval. Returns how many it asked about.
   */
  poll(): Promise<number> {
    if (this.sends.stopped) return Promise.resolve(0);
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollOnce(): Promise<number> {
    const provider = providerOrNull(this.deps);
    if (provider === null) return 0;
    const now = this.deps.clock();
    const due = await this.deps.db.query<{ id: string; provider_reference: string }>(
      `UPDATE withdrawals SET polled_at = $1
       WHERE id IN (
         SELECT id FROM withdrawals WHERE status = 'pending' AND provider_reference IS NOT NULL
         ORDER BY polled_at NULLS FIRST, created_at, id LIMIT $2
       )
       RETURNING id, provider_reference`,
      [now, POLL_BATCH],
    );
    await eachLimited(due.rows, PROVIDER_CONCURRENCY, async (row) => {
      try {
        const state = await withTimeout(provider.payoutStatus(row.provider_reference), 'payoutStatus');
        await this.applyUpdate(state, row.id);
      } catch (error) {
        this.deps.log.warn({ err: error, withdrawalId: row.id }, 'payout status poll failed; asking again next time');
      }
    });
    return due.rowCount;
  }

  /**
   * A payout update from the provider (webhook or poll). `knownId` when the caller knows which
   * withdrawal it is about; else it is found by our reference (the withdrawal id) or the provider's.
   * An update about no withdrawal of ours is logged and ignored.
   */
  async applyUpdate(state: PayoutState, knownId?: string): Promise<void> {
    const id = knownId ?? (await this.withdrawalIdOf(state));
    if (id === null) {
      this.deps.log.warn(
        { providerReference: state.providerReference, reference: state.reference },
        'payout update about no known withdrawal; ignored',
      );
      return;
    }
    const status = String(state.status).toLowerCase();
    if (status === 'finished') await this.settle(id, 'completed', state, null);
    else if (status === 'failed' || status === 'rejected') {
      await this.settle(id, 'failed', state, state.error ?? `The payment provider reported the payout ${status}`);
    } else await this.progress(id, state);
  }

  private async withdrawalIdOf(state: PayoutState): Promise<string | null> {
    const reference = state.reference !== null && UUID_PATTERN.test(state.reference) ? state.reference : null;
    const found = await this.deps.db.query<{ id: string }>(
      `SELECT id FROM withdrawals WHERE ($1::uuid IS NOT NULL AND id = $1::uuid) OR provider_reference = $2
       ORDER BY (id = $1::uuid) DESC NULLS LAST LIMIT 1`,
      [reference, state.providerReference],
    );
    return found.rows[0]?.id ?? null;
  }

  /** A payout still on its way: the detailed status (never moved back), the batch id, the hash. */
  private async progress(id: string, state: PayoutState): Promise<void> {
    await this.deps.db.query(
      `UPDATE withdrawals SET
         provider_status = CASE
           WHEN provider_status IS NULL
             OR coalesce(array_position($8::text[], $2::text), 0) >= coalesce(array_position($8::text[], provider_status), 0)
           THEN $2 ELSE provider_status END,
         needs_verification = $3, provider_reference = coalesce(provider_reference, $4),
         batch_id = coalesce(batch_id, $5), hash = coalesce($6, hash), updated_at = $7
       WHERE id = $1 AND status = 'pending'`,
      [
        id,
        state.status,
        state.needsVerification,
        state.providerReference,
        state.batchId,
        state.hash,
        this.deps.clock(),
        PROGRESS_ORDER,
      ],
    );
  }

  /**
   * completed: the held amount + fee leave the user's locked balance, the amount to custody (it left
   * our wallets) and the fee to the fees account. failed: the hold goes back to available. The
   * status guard (only a pending withdrawal moves) is in the same transaction as the entry, so a
   * duplicate or concurrent update applies nothing.
   */
  private async settle(
    id: string,
    outcome: 'completed' | 'failed',
    state: PayoutState | null,
    reason: string | null,
  ): Promise<void> {
    const now = this.deps.clock();
    const done = await this.deps.db.transaction(async (tx) => {
      const updated = await tx.query<WithdrawalRow>(
        `UPDATE withdrawals SET status = $2, provider_status = coalesce($3, provider_status), hash = coalesce($4, hash),
           reason = $5, provider_reference = coalesce(provider_reference, $6), batch_id = coalesce(batch_id, $7),
           needs_verification = false, claimed_until = NULL, updated_at = $8,
           completed_at = CASE WHEN $2 = 'completed' THEN $8 ELSE completed_at END
         WHERE id = $1 AND status = 'pending'
         RETURNING ${WITHDRAWAL_COLUMNS}`,
        [
          id,
          outcome,
          state?.status ?? null,
          state?.hash ?? null,
          reason,
          state?.providerReference ?? null,
          state?.batchId ?? null,
          now,
        ],
      );
      const row = updated.rows[0];
      if (row === undefined) return null;
      const stored = await this.deps.insertNotifications(tx, [settledNotice(row, now)]);
      await postEntries(tx, [outcome === 'completed' ? completionEntry(row) : releaseEntry(row)]);
      return { row, stored };
    });
    if (done === null) return;
    publishNotifications(this.deps.pubsub, done.stored);
  }
}

function heldTotal(row: WithdrawalRow): { amount: string; fee: string; total: string } {
  const amount = trimAmount(row.amount);
  const fee = trimAmount(row.fee);
  return { amount, fee, total: plus(amount, fee) };
}

function completionEntry(row: WithdrawalRow): EntryInput {
  const { amount, fee, total } = heldTotal(row);
  return {
    kind: 'withdrawal',
    reference: row.id,
    postings: [
      {
        owner: { kind: 'user', accountId: row.account_id },
        currency: row.currency,
        bucket: 'locked',
        amount: `-${total}`,
      },
      { owner: { kind: 'system', name: 'custody' }, currency: row.currency, bucket: 'available', amount },
      { owner: { kind: 'system', name: 'fees' }, currency: row.currency, bucket: 'available', amount: fee },
    ],
  };
}

function releaseEntry(row: WithdrawalRow): EntryInput {
  const owner = { kind: 'user' as const, accountId: row.account_id };
  const { total } = heldTotal(row);
  return {
    kind: 'withdrawal_release',
    reference: row.id,
    postings: [
      { owner, currency: row.currency, bucket: 'locked', amount: `-${total}` },
      { owner, currency: row.currency, bucket: 'available', amount: total },
    ],
  };
}

/** §8 wording: the withdrawal went out, or failed and the funds are back. */
function settledNotice(row: WithdrawalRow, now: Date): NewNotification {
  const { amount, total } = heldTotal(row);
  const completed = row.status === 'completed';
  return {
    accountId: row.account_id,
    type: 'withdrawal',
    title: completed ? 'Withdrawal completed' : 'Withdrawal failed',
    message: completed
      ? `Withdrawal of ${amount} ${row.currency} to ${shortAddress(row.address)} completed`
      : `Withdrawal of ${amount} ${row.currency} failed: ${row.reason ?? 'refused by the payment provider'}. ${total} ${row.currency} is back in your balance.`,
    severity: completed ? 'success' : 'error',
    actionUrl: '/wallet',
    textKey: completed ? 'withdrawalCompleted' : 'withdrawalFailed',
    // A provider's reason is its own free text; without one the client says the provider refused.
    params: {
      amount,
      currency: row.currency,
      address: row.address,
      ...(completed ? {} : { total, ...(row.reason ? { reason: row.reason } : {}) }),
    },
    metadata: { amount, transactionId: row.id },
    createdAt: now,
  };
}
