import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';

/** What a token's account is now: usable, frozen by an operator, or gone from the database. */
export type AccountState = 'active' | 'frozen' | 'closed';

/**
 * How long a node trusts what it read about an account. Every authenticated request asks, so the
 * answer is cached; a freeze made elsewhere (the freeze-account command, another node) counts
 * everywhere within this time, and at once on the node that made it (invalidate). Ten seconds is
 * far below the access-token lifetime this check shortens.
 */
export const ACCOUNT_STATE_TTL_MS = 10_000;
/** Past this many cached accounts the cache starts over: memory stays bounded. */
const MAX_CACHED = 100_000;

type Entry = { state: AccountState; checkedAtMs: number };

export class AccountStates {
  private readonly entries = new Map<string, Entry>();
  /** One read per account at a time, however many requests of it arrive together. */
  private readonly loading = new Map<string, Promise<AccountState>>();

  constructor(
    private readonly db: Queryable,
    private readonly clock: () => Date,
  ) {}

  async of(accountId: string): Promise<AccountState> {
    const now = this.clock().getTime();
    const cached = this.entries.get(accountId);
    if (cached && now - cached.checkedAtMs < ACCOUNT_STATE_TTL_MS) return cached.state;
    let pending = this.loading.get(accountId);
    if (!pending) {
      pending = this.load(accountId).finally(() => this.loading.delete(accountId));
      this.loading.set(accountId, pending);
    }
    const state = await pending;
    if (this.entries.size >= MAX_CACHED) this.entries.clear();
    this.entries.set(accountId, { state, checkedAtMs: now });
    return state;
  }

  /** After a change of the account's state on this node: the next request reads it afresh. */
  invalidate(accountId: string): void {
    this.entries.delete(accountId);
  }

  private async load(accountId: string): Promise<AccountState> {
    const found = await this.db.query<{ frozen_at: Date | null }>(
      'SELECT frozen_at FROM accounts WHERE id = $1',
      [accountId],
      { prepare: true },
    );
    const row = found.rows[0];
    if (!row) return 'closed';
    return row.frozen_at === null ? 'active' : 'frozen';
  }
}

const byDatabase = new WeakMap<object, AccountStates>();

/** The one cache of a server (every module's guard and the socket gateway share it). */
export function accountStates(context: { db: Queryable; clock: () => Date }): AccountStates {
  let states = byDatabase.get(context.db);
  if (!states) {
    states = new AccountStates(context.db, context.clock);
    byDatabase.set(context.db, states);
  }
  return states;
}

/** ACCOUNT_FROZEN or ACCOUNT_CLOSED (both 401) for an account that may no longer act. */
export function usableAccount(state: AccountState): Result<true> {
  if (state === 'frozen') return fail('ACCOUNT_FROZEN');
  if (state === 'closed') return fail('ACCOUNT_CLOSED');
  return ok(true);
}
