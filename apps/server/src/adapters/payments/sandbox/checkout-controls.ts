import { compare, mul } from '@platform/money';
import type { Database, Transaction } from '../../../db/database.ts';
import { canonical, exact, ZERO_TEXT } from '../amounts.ts';
import type { PaymentStatus } from '../types.ts';
import { type ControlResult, type PaymentRow, paymentById, updatePayment } from './rows.ts';
import { paymentBody } from './shapes.ts';
import type { SandboxTimers } from './timers.ts';
import type { SandboxWebhooks } from './webhooks.ts';

/**
 * What happens to a checkout after it is created: the payer pays, underpays, is declined or lets
 * it expire on the sandbox page; a paid one is confirmed after a delay, an unpaid one expires on
 * time. Every change sends a webhook, in the transaction that makes it.
 */

/** The page's "pay half" button pays this share of the order (an underpayment to try). */
const UNDERPAID_SHARE = '0.5';

export class SandboxCheckoutControls {
  constructor(
    private readonly options: { db: Database; clock: () => Date; confirmDelayMs: number },
    private readonly timers: SandboxTimers,
    private readonly webhooks: SandboxWebhooks,
  ) {}

  /**
   * The payer pays in full or half (the page's buttons): money seen, so `confirming` and a webhook;
   * final after the confirmation delay. Answers the success URL to send the payer to.
   */
  async pay(id: string, part: 'full' | 'half'): Promise<ControlResult<{ redirectTo: string }>> {
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      const now = this.options.clock();
      // A card is charged in full or not at all.
      if (row.status !== 'waiting' || (part === 'half' && row.pay_method === 'card')) {
        return { ok: false, error: 'not_pending' };
      }
      if (new Date(row.expires_at).getTime() <= now.getTime()) {
        await this.#finish(tx, row, 'expired', now);
        return { ok: false, error: 'expired' };
      }
      const orderAmount = exact(row.order_amount);
      const paid = part === 'full' ? orderAmount : mul(orderAmount, exact(UNDERPAID_SHARE));
      const confirmAt = new Date(now.getTime() + this.options.confirmDelayMs);
      const updated = await updatePayment(tx, row.id, {
        status: 'confirming',
        paidOrderAmount: canonical(paid),
        confirmAt,
        now,
      });
      await this.webhooks.enqueue(tx, 'payment', row.id, row.notify_url, paymentBody(updated));
      tx.afterCommit(() => this.armConfirmation(row.id, confirmAt));
      return { ok: true, value: { redirectTo: row.success_url } };
    });
  }

  /** The card is declined (the card page's second button): failed, final, nothing paid. Answers the cancel URL. */
  async decline(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting' || row.pay_method !== 'card') return { ok: false, error: 'not_pending' };
      await this.#finish(tx, row, 'failed', this.options.clock());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  /** The payer lets the payment expire (the page's third button). Answers the cancel URL. */
  async expire(id: string): Promise<ControlResult<{ redirectTo: string }>> {
    return this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'waiting') return { ok: false, error: 'not_pending' };
      await this.#finish(tx, row, 'expired', this.options.clock());
      return { ok: true, value: { redirectTo: row.cancel_url } };
    });
  }

  /** Re-arms the confirmations and expiries pending when the server stopped; answers how many. */
  async rearmPending(): Promise<number> {
    const payments = await this.options.db.query<{
      id: string;
      status: PaymentStatus;
      confirm_at: Date | null;
      expires_at: Date;
    }>(`SELECT id, status, confirm_at, expires_at FROM sandbox_payments WHERE status IN ('waiting', 'confirming')`);
    for (const row of payments.rows) {
      if (row.status === 'confirming') this.armConfirmation(row.id, row.confirm_at ?? this.options.clock());
      else this.armExpiry(row.id, row.expires_at);
    }
    return payments.rows.length;
  }

  armConfirmation(id: string, at: Date): void {
    this.timers.arm(`payment:${id}`, at, () => this.#confirm(id));
  }

  armExpiry(id: string, at: Date): void {
    this.timers.arm(`payment:${id}`, at, () => this.#expireOnTime(id));
  }

  /** A confirming payment becomes final: paid in full, or underpaid with the part paid. */
  async #confirm(id: string): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (row?.status !== 'confirming') return;
      const now = this.options.clock();
      const confirmAt = row.confirm_at ? new Date(row.confirm_at) : now;
      if (confirmAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.armConfirmation(id, confirmAt));
        return;
      }
      const full = compare(exact(row.paid_order_amount), exact(row.order_amount)) >= 0;
      await this.#finish(tx, row, full ? 'paid' : 'underpaid', now);
    });
  }

  async #expireOnTime(id: string): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      const row = await paymentById(tx, id, true);
      if (row?.status !== 'waiting') return;
      const now = this.options.clock();
      const expiresAt = new Date(row.expires_at);
      if (expiresAt.getTime() > now.getTime()) {
        tx.afterCommit(() => this.armExpiry(id, expiresAt));
        return;
      }
      await this.#finish(tx, row, 'expired', now);
    });
  }

  async #finish(tx: Transaction, row: PaymentRow, status: PaymentStatus, now: Date): Promise<void> {
    const updated = await updatePayment(tx, row.id, {
      status,
      paidOrderAmount: status === 'expired' || status === 'failed' ? ZERO_TEXT : row.paid_order_amount,
      confirmAt: null,
      now,
    });
    await this.webhooks.enqueue(tx, 'payment', row.id, row.notify_url, paymentBody(updated));
    tx.afterCommit(() => this.timers.disarm(`payment:${row.id}`));
  }
}
