import type { Queryable } from '../../db/database.ts';
import type { Failure, Result } from '../../lib/errors.ts';
import type { AttemptLimit } from './attempt-limiter.ts';
import { rateLimited } from './limits.ts';

/** A reserved attempt: the window it was counted in (a refund must hit the same window). */
export type Reservation = { ok: true; windowStart: Date } | { ok: false; retryAfterSeconds: number };

/** What one attempt turned out to be: a right answer, a wrong one, or neither (nothing was guessed). */
export type AttemptOutcome = 'success' | 'failure' | 'neutral';

/** After this many reservations, expired windows are swept: the table stays as small as the live budgets. */
const SWEEP_EVERY = 1_000;

/**
 * The per-account budget of wrong passwords and codes, kept in the database so that it holds across
 * concurrent requests and across nodes. An attempt is counted before its slow check (argon2, TOTP)
 * by one atomic upsert that refuses once the budget is spent: of 300 parallel guesses at most
 * `maxFailures` are ever evaluated. An attempt that proves nothing is refunded; a success forgives.
 */
export class AttemptBudget {
  private reservations = 0;

  constructor(
    private readonly db: Queryable,
    private readonly limit: AttemptLimit,
    private readonly clock: () => Date,
  ) {}

  async reserve(key: string): Promise<Reservation> {
    const now = this.clock();
    const expiredBefore = new Date(now.getTime() - this.limit.windowMs);
    if (++this.reservations % SWEEP_EVERY === 0) await this.sweep(expiredBefore);
    // The row lock of ON CONFLICT DO UPDATE serialises concurrent reservations of one key; the
    // WHERE leaves a spent budget untouched, and then no row comes back.
    const counted = await this.db.query<{ window_started_at: Date }>(
      `INSERT INTO auth_attempts AS a (key, attempts, window_started_at) VALUES ($1, 1, $2)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN a.window_started_at <= $3 THEN 1 ELSE a.attempts + 1 END,
         window_started_at = CASE WHEN a.window_started_at <= $3 THEN $2 ELSE a.window_started_at END
       WHERE a.window_started_at <= $3 OR a.attempts < $4
       RETURNING window_started_at`,
      [key, now, expiredBefore, this.limit.maxFailures],
    );
    const row = counted.rows[0];
    if (row) return { ok: true, windowStart: new Date(row.window_started_at) };
    return { ok: false, retryAfterSeconds: await this.retryAfterSeconds(key, now) };
  }

  /** Gives back an attempt that proved nothing (the 2FA question after a right password, a setup not started). */
  async refund(key: string, windowStart: Date): Promise<void> {
    await this.db.query(
      'UPDATE auth_attempts SET attempts = attempts - 1 WHERE key = $1 AND window_started_at = $2 AND attempts > 0',
      [key, windowStart],
    );
  }

  /** A success forgives the key's earlier mistakes. */
  async reset(key: string): Promise<void> {
    await this.db.query('DELETE FROM auth_attempts WHERE key = $1', [key]);
  }

  private async retryAfterSeconds(key: string, now: Date): Promise<number> {
    const found = await this.db.query<{ window_started_at: Date }>(
      'SELECT window_started_at FROM auth_attempts WHERE key = $1',
      [key],
    );
    const started = found.rows[0] ? new Date(found.rows[0].window_started_at).getTime() : now.getTime();
    return Math.max(1, Math.ceil((started + this.limit.windowMs - now.getTime()) / 1000));
  }

  private async sweep(expiredBefore: Date): Promise<void> {
    await this.db.query('DELETE FROM auth_attempts WHERE window_started_at <= $1', [expiredBefore]);
  }
}

/**
 * Runs one guess inside the key's budget: counted first, then checked; `classify` says what the
 * result was. A guess that throws is refunded (an outage is not the user's mistake).
 */
export async function withAttempt<T>(
  budget: AttemptBudget,
  key: string,
  attempt: () => Promise<Result<T>>,
  classify: (result: Result<T>) => AttemptOutcome,
): Promise<Result<T> | Failure> {
  const reservation = await budget.reserve(key);
  if (!reservation.ok) return rateLimited(reservation.retryAfterSeconds);
  let result: Result<T>;
  try {
    result = await attempt();
  } catch (error) {
    await budget.refund(key, reservation.windowStart);
    throw error;
  }
  const outcome = classify(result);
  if (outcome === 'success') await budget.reset(key);
  else if (outcome === 'neutral') await budget.refund(key, reservation.windowStart);
  return result;
}
