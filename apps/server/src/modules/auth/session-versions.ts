import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { AuthenticatedAccount } from './access-tokens.ts';

/**
 * Ending sessions must stop access tokens too, not only refresh tokens. Each account has a session
 * version (accounts.session_version); an access token carries the version it was minted under
 * (claim `sv`). Ending all sessions raises the version, so every older access token is refused at
 * its next request with SESSION_REVOKED (401): a browser whose session survived refreshes and goes
 * on, the others are signed out. The guard reads versions through a small per-node cache, beside
 * the account-state cache (account-state.ts) that refuses frozen accounts; `sessionCurrent` is
 * the whole contract, so the two reads could become one without touching a caller.
 */

/** How long a node trusts a version it read. Another node's revocation reaches it within this. */
export const SESSION_VERSION_CACHE_MS = 5_000;
/** Past this many accounts the cache starts over (memory bound). */
const CACHE_LIMIT = 100_000;

type Cached = { version: number | null; readAtMs: number };

export class SessionVersions {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly db: Queryable) {}

  /** The account's current version, or null when the account is gone. */
  async current(accountId: string, nowMs: number): Promise<number | null> {
    const cached = this.cache.get(accountId);
    if (cached && nowMs - cached.readAtMs < SESSION_VERSION_CACHE_MS) return cached.version;
    const found = await this.db.query<{ session_version: number }>(
      'SELECT session_version FROM accounts WHERE id = $1',
      [accountId],
    );
    const version = found.rows[0] === undefined ? null : Number(found.rows[0].session_version);
    this.remember(accountId, version, nowMs);
    return version;
  }

  /** After a committed raise on this node: its own requests see the new version at once. */
  remember(accountId: string, version: number | null, nowMs: number): void {
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(accountId, { version, readAtMs: nowMs });
  }
}

/** One cache per database: every module's guard and the auth module share it (tests run several servers). */
const byDatabase = new WeakMap<object, SessionVersions>();

export function sessionVersionsOf(db: Queryable): SessionVersions {
  let versions = byDatabase.get(db);
  if (!versions) {
    versions = new SessionVersions(db);
    byDatabase.set(db, versions);
  }
  return versions;
}

/** SESSION_REVOKED for a token minted before the account's sessions were last ended. */
export async function sessionCurrent(db: Queryable, account: AuthenticatedAccount, now: Date): Promise<Result<void>> {
  const current = await sessionVersionsOf(db).current(account.id, now.getTime());
  if (current === null || (account.sessionVersion ?? 0) < current) return fail('SESSION_REVOKED');
  return ok(undefined);
}

/** Raises the account's version inside the caller's transaction; returns the new one. */
export async function raiseSessionVersion(q: Queryable, accountId: string): Promise<number> {
  const raised = await q.query<{ session_version: number }>(
    'UPDATE accounts SET session_version = session_version + 1 WHERE id = $1 RETURNING session_version',
    [accountId],
  );
  return Number(raised.rows[0]?.session_version ?? 0);
}
