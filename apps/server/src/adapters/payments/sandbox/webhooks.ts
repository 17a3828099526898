import type { Database, Transaction } from '../../../db/database.ts';
import type { Logger } from '../../../logger.ts';
import { TRIPLEA_SIGNATURE_HEADER, tripleASignatureHeader } from '../signatures.ts';
import type { SandboxTimers } from './timers.ts';

/**
 * The sandbox's webhooks: written in the transaction of the change they announce, then POSTed
 * signed the Triple-A way and retried with back-off. Webhooks about one payment or payout go out
 * in the order they were written.
 */

export type WebhookOptions = {
  db: Database;
  log: Logger;
  clock: () => Date;
  /** First retry of a failed webhook after this; each next one waits twice as long. */
  webhookRetryBaseMs?: number;
  /** Deliveries tried per webhook before it is abandoned (the receiver can still poll). */
  webhookAttempts?: number;
  /** How long one delivery may take. */
  webhookTimeoutMs?: number;
};

/** A receiver that is down for a moment is tried again soon; the back-off doubles from here. */
const DEFAULT_WEBHOOK_RETRY_BASE_MS = 2_000;
/** Five tries span about half a minute of back-off: past a restart, short of hiding a dead receiver. */
const DEFAULT_WEBHOOK_ATTEMPTS = 5;
/** A receiver that has not answered in this long is treated as failed, like a real provider would. */
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The claim of an attempt outlasts its timeout by this, so another node never sends it while it is on the way. */
const CLAIM_MARGIN_MS = 5_000;
/** A webhook found due but not claimable is looked at again after this pause. */
const REARM_PAUSE_MS = 50;

type WebhookRow = { id: string; subject: string; url: string; body: string; attempts: number; next_attempt_at: Date };

export class SandboxWebhooks {
  constructor(
    private readonly options: WebhookOptions,
    private readonly timers: SandboxTimers,
    private readonly secret: string,
  ) {}

  async enqueue(
    tx: Transaction,
    kind: 'payment' | 'payout' | 'lightning',
    subject: string,
    url: string,
    body: unknown,
  ) {
    const now = this.options.clock();
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO sandbox_webhooks (url, kind, subject, body, next_attempt_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $5, $5)
        RETURNING id::text AS id`,
      [url, kind, subject, JSON.stringify(body), now],
    );
    const id = inserted.rows[0]?.id;
    if (id) tx.afterCommit(() => this.arm(id, now));
  }

  /** Re-arms every pending webhook (after a restart); answers how many. */
  async rearmPending(): Promise<number> {
    const webhooks = await this.options.db.query<{ id: string; next_attempt_at: Date }>(
      `SELECT id::text AS id, next_attempt_at FROM sandbox_webhooks WHERE state = 'pending'`,
    );
    for (const row of webhooks.rows) this.arm(row.id, row.next_attempt_at);
    return webhooks.rows.length;
  }

  arm(id: string, at: Date): void {
    this.timers.arm(`webhook:${id}`, at, () => this.#deliver(id));
  }

  /**
   * One delivery attempt. The row is claimed first (its next attempt pushed past the delivery's
   * timeout), so two nodes sharing the database never send the same attempt twice. A later
   * webhook about the same subject waits while an earlier one is pending, and is kicked when that
   * one is delivered or abandoned.
   */
  async #deliver(id: string): Promise<void> {
    const { db } = this.options;
    const timeoutMs = this.options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    const now = this.options.clock();
    const claimed = await db.query<WebhookRow>(
      `UPDATE sandbox_webhooks w SET attempts = attempts + 1, next_attempt_at = $3, updated_at = $2
        WHERE w.id = $1 AND w.state = 'pending' AND w.next_attempt_at <= $2
          AND NOT EXISTS (SELECT 1 FROM sandbox_webhooks earlier
                           WHERE earlier.subject = w.subject AND earlier.state = 'pending' AND earlier.id < w.id)
        RETURNING id::text AS id, subject, url, body, attempts, next_attempt_at`,
      [id, now, new Date(now.getTime() + timeoutMs + CLAIM_MARGIN_MS)],
    );
    const row = claimed.rows[0];
    if (!row) {
      await this.#rearmDelivery(id);
      return;
    }
    const failure = await this.#post(row, timeoutMs);
    if (this.timers.closed && failure !== null) {
      // Aborted by close: the attempt does not count, and start() sends it again.
      await db.query(`UPDATE sandbox_webhooks SET attempts = attempts - 1, next_attempt_at = $2 WHERE id = $1`, [
        id,
        now,
      ]);
      return;
    }
    await this.#settle(row, failure);
  }

  /** After an attempt: delivered, abandoned after the last try, or retried after a back-off. */
  async #settle(row: WebhookRow, failure: string | null): Promise<void> {
    const { db, log } = this.options;
    const maxAttempts = this.options.webhookAttempts ?? DEFAULT_WEBHOOK_ATTEMPTS;
    if (failure === null || row.attempts >= maxAttempts) {
      if (failure !== null)
        log.warn({ webhook: row.id, url: row.url, attempts: row.attempts, failure }, 'sandbox webhook abandoned');
      await db.query(`UPDATE sandbox_webhooks SET state = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [
        row.id,
        failure === null ? 'delivered' : 'abandoned',
        failure,
        this.options.clock(),
      ]);
      await this.#kickNext(row.subject);
      return;
    }
    const backoffMs = (this.options.webhookRetryBaseMs ?? DEFAULT_WEBHOOK_RETRY_BASE_MS) * 2 ** (row.attempts - 1);
    const at = new Date(this.options.clock().getTime() + backoffMs);
    await db.query(`UPDATE sandbox_webhooks SET next_attempt_at = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [
      row.id,
      at,
      failure,
      this.options.clock(),
    ]);
    log.info(
      { webhook: row.id, url: row.url, attempts: row.attempts, failure, retryInMs: backoffMs },
      'sandbox webhook retry',
    );
    this.arm(row.id, at);
  }

  /**
   * A webhook that could not be claimed: delivered meanwhile (nothing to do), waiting behind an
   * earlier one about the same subject (that one kicks it), or not due (claimed by another node
   * whose lease ends later, or in back-off): then it is looked at again when due.
   */
  async #rearmDelivery(id: string): Promise<void> {
    const found = await this.options.db.query<{ next_attempt_at: Date; blocked: boolean }>(
      `SELECT w.next_attempt_at, EXISTS (SELECT 1 FROM sandbox_webhooks earlier
                WHERE earlier.subject = w.subject AND earlier.state = 'pending' AND earlier.id < w.id) AS blocked
        FROM sandbox_webhooks w WHERE w.id = $1 AND w.state = 'pending'`,
      [id],
    );
    const row = found.rows[0];
    if (!row || row.blocked) return;
    const at = new Date(row.next_attempt_at);
    // Never a busy loop: a row that looks due but was not claimable is looked at a moment later.
    const soonest = new Date(this.options.clock().getTime() + REARM_PAUSE_MS);
    this.arm(id, at.getTime() > soonest.getTime() ? at : soonest);
  }

  /** Arms the oldest pending webhook about `subject`, now that the one before it is done. */
  async #kickNext(subject: string): Promise<void> {
    const next = await this.options.db.query<{ id: string; next_attempt_at: Date }>(
      `SELECT id::text AS id, next_attempt_at FROM sandbox_webhooks
        WHERE subject = $1 AND state = 'pending' ORDER BY id LIMIT 1`,
      [subject],
    );
    const row = next.rows[0];
    if (row) this.arm(row.id, new Date(row.next_attempt_at));
  }

  /** POSTs one webhook; null when the receiver answered 2xx, else what went wrong. */
  async #post(row: WebhookRow, timeoutMs: number): Promise<string | null> {
    const unixSeconds = Math.floor(this.options.clock().getTime() / 1000);
    try {
      const response = await fetch(row.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TRIPLEA_SIGNATURE_HEADER]: tripleASignatureHeader(this.secret, row.body, unixSeconds),
        },
        body: row.body,
        redirect: 'error',
        signal: AbortSignal.any([this.timers.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
