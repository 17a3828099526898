import type { Database, Transaction } from '../../../db/database.ts';
import { invariant } from '../../../lib/invariant.ts';
import { canonical, exact } from '../amounts.ts';
import {
  checkAmount,
  checkCurrency,
  checkReference,
  checkText,
  checkUrl,
  refuse,
  sandboxId,
  sandboxTxHash,
} from '../sandbox-values.ts';
import type { PayoutRequest, PayoutState, PayoutStatus } from '../types.ts';
import { type ControlResult, PAYOUT_COLUMNS, type PayoutRow, payoutBy } from './rows.ts';
import { payoutBody, payoutState } from './shapes.ts';
import type { SandboxTimers } from './timers.ts';
import type { SandboxWebhooks } from './webhooks.ts';

/** Payouts that walk through their statuses one step per payoutStepMs, or fail by the sandbox control. */

const PAYOUT_STEPS: Partial<Record<PayoutStatus, PayoutStatus>> = {
  creating: 'waiting',
  waiting: 'processing',
  processing: 'finished',
  sending: 'finished',
};
const FINAL_PAYOUT_STATUSES: readonly PayoutStatus[] = ['finished', 'failed', 'rejected'];
/** The longest destination address (or account) any network the wallet pays out to uses, with room to spare. */
const MAX_ADDRESS_LENGTH = 200;
/** A payout verification code is six digits, as NOWPayments' is. */
const VERIFICATION_CODE_PATTERN = /^\d{6}$/;

export class SandboxPayouts {
  constructor(
    private readonly options: { db: Database; clock: () => Date; payoutStepMs: number },
    private readonly timers: SandboxTimers,
    private readonly webhooks: SandboxWebhooks,
  ) {}

  async create(request: PayoutRequest): Promise<PayoutState> {
    const reference = checkReference(request.reference);
    const currency = checkCurrency(request.currency);
    const amount = canonical(exact(checkAmount(request.amount)));
    if (
      typeof request.address !== 'string' ||
      request.address.length < 1 ||
      request.address.length > MAX_ADDRESS_LENGTH
    ) {
      throw refuse('INVALID_ADDRESS', `address must be 1 to ${MAX_ADDRESS_LENGTH} characters`);
    }
    const extraId = request.extraId ? checkText(request.extraId, 'extraId') : null;
    const description = checkText(request.description, 'description');
    checkUrl(request.notifyUrl, 'notifyUrl');

    const now = this.options.clock();
    const id = sandboxId('PO');
    const nextStepAt = new Date(now.getTime() + this.options.payoutStepMs);
    const inserted = await this.options.db.query<{ id: string }>(
      `INSERT INTO sandbox_payouts (id, batch_id, reference, currency, amount, address, extra_id, description,
          notify_url, status, next_step_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'creating', $10, $11, $11)
        ON CONFLICT (reference) DO NOTHING
        RETURNING id`,
      [
        id,
        sandboxId('BATCH'),
        reference,
        currency,
        amount,
        request.address,
        extraId,
        description,
        request.notifyUrl,
        nextStepAt,
        now,
      ],
    );
    if (inserted.rows.length > 0) this.armStep(id, nextStepAt);
    const row = await payoutBy(this.options.db, 'reference', reference);
    invariant(row, `sandbox payout ${reference} vanished after insert`);
    return payoutState(row, this.options.clock());
  }

  /**
   * Sandbox payouts need no verification (our own 2FA guards withdrawals), but the call behaves
   * like NOWPayments' for callers that make it: any 6-digit code is accepted while the payout is
   * creating or waiting; anything else is refused.
   */
  async verify(batchId: string, verificationCode: string): Promise<void> {
    if (typeof verificationCode !== 'string' || !VERIFICATION_CODE_PATTERN.test(verificationCode)) {
      throw refuse('INVALID_VERIFICATION_CODE', 'The verification code must be 6 digits');
    }
    const row = await payoutBy(this.options.db, 'batch_id', batchId);
    if (!row) throw refuse('NOT_FOUND', `payout batch ${batchId} not found`, 404);
    if (row.status !== 'creating' && row.status !== 'waiting') {
      throw refuse('NOT_VERIFIABLE', `payout ${row.id} is ${row.status}: there is nothing to verify`, 409);
    }
  }

  async status(providerReference: string): Promise<PayoutState> {
    const row = await payoutBy(this.options.db, 'id', providerReference);
    if (!row) throw refuse('NOT_FOUND', `payout ${providerReference} not found`, 404);
    return payoutState(row, this.options.clock());
  }

  /** The sandbox control POST /sandbox/payouts/:id/fail: a payout not final yet fails. */
  async fail(id: string): Promise<ControlResult<PayoutState>> {
    return this.options.db.transaction(async (tx) => {
      const row = await payoutBy(tx, 'id', id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (FINAL_PAYOUT_STATUSES.includes(row.status)) return { ok: false, error: 'not_pending' };
      const updated = await this.#stepRow(tx, row, 'failed', this.options.clock());
      this.timers.disarm(`payout:${id}`);
      return { ok: true, value: payoutState(updated, this.options.clock()) };
    });
  }

  /** Re-arms the payout steps pending when the server stopped; answers how many. */
  async rearmPending(): Promise<number> {
    const payouts = await this.options.db.query<{ id: string; next_step_at: Date | null }>(
      `SELECT id, next_step_at FROM sandbox_payouts
        WHERE status IN ('creating', 'waiting', 'processing', 'sending') AND next_step_at IS NOT NULL`,
    );
    for (const row of payouts.rows) this.armStep(row.id, row.next_step_at ?? this.options.clock());
    return payouts.rows.length;
  }

  armStep(id: string, at: Date): void {
    this.timers.arm(`payout:${id}`, at, () => this.#step(id));
  }

  async #step(id: string): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      const row = await payoutBy(tx, 'id', id, true);
      if (!row || row.next_step_at === null) return;
      const next = PAYOUT_STEPS[row.status];
      if (!next) return;
      const now = this.options.clock();
      const due = new Date(row.next_step_at);
      if (due.getTime() > now.getTime()) {
        tx.afterCommit(() => this.armStep(id, due));
        return;
      }
      const updated = await this.#stepRow(tx, row, next, now);
      if (updated.next_step_at) {
        const at = new Date(updated.next_step_at);
        tx.afterCommit(() => this.armStep(id, at));
      }
    });
  }

  async #stepRow(tx: Transaction, row: PayoutRow, status: PayoutStatus, now: Date): Promise<PayoutRow> {
    const final = FINAL_PAYOUT_STATUSES.includes(status);
    const result = await tx.query<PayoutRow>(
      `UPDATE sandbox_payouts SET status = $2, hash = $3, error = $4, next_step_at = $5, updated_at = $6
        WHERE id = $1
        RETURNING ${PAYOUT_COLUMNS}`,
      [
        row.id,
        status,
        status === 'finished' ? sandboxTxHash(row.currency, row.id) : null,
        status === 'failed' ? 'Failed by the sandbox control' : null,
        final ? null : new Date(now.getTime() + this.options.payoutStepMs),
        now,
      ],
    );
    const updated = result.rows[0];
    invariant(updated, `sandbox payout ${row.id} vanished`);
    await this.webhooks.enqueue(tx, 'payout', row.id, row.notify_url, payoutBody(updated));
    return updated;
  }
}
