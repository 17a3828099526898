import type { ActiveSession } from '@platform/contracts';
import type { Queryable, Transaction } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { hashRefreshToken } from './refresh-tokens.ts';
import { raiseSessionVersion, sessionVersionsOf } from './session-versions.ts';

/**
 * A session is one sign-in on one device: a refresh-token family. It is active while one of its
 * tokens can still be exchanged (neither revoked, nor exchanged, nor expired). What the user sees
 * of it (device, address) is kept in session_devices when the sign-in happens.
 */

/** What identifies a device to its owner. Capped: the header is the client's to fill. */
const USER_AGENT_MAX = 512;

export type SessionClient = { userAgent: string | undefined; ip: string };

/** Notes the device of the session a new refresh token starts (after a sign-in or registration). */
export async function recordSessionDevice(
  q: Queryable,
  refreshToken: string,
  client: SessionClient,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO session_devices (family_id, account_id, user_agent, ip, created_at)
     SELECT family_id, account_id, $2, $3, $4 FROM refresh_tokens WHERE token_hash = $1
     ON CONFLICT (family_id) DO NOTHING`,
    [hashRefreshToken(refreshToken), client.userAgent?.slice(0, USER_AGENT_MAX) ?? null, client.ip, now],
  );
}

const LIVE_TOKEN = 't.revoked_at IS NULL AND t.used_at IS NULL AND t.expires_at > $2';

/** The session a refresh token belongs to, if it is the account's and still active. */
export async function sessionOfToken(
  q: Queryable,
  accountId: string,
  refreshToken: string | undefined,
  now: Date,
): Promise<string | null> {
  if (!refreshToken) return null;
  const found = await q.query<{ family_id: string }>(
    `SELECT t.family_id FROM refresh_tokens t
     WHERE t.token_hash = $3 AND t.account_id = $1
       AND EXISTS (SELECT 1 FROM refresh_tokens l WHERE l.family_id = t.family_id
                   AND l.revoked_at IS NULL AND l.used_at IS NULL AND l.expires_at > $2)`,
    [accountId, now, hashRefreshToken(refreshToken)],
  );
  return found.rows[0]?.family_id ?? null;
}

type SessionRow = {
  family_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_used_at: Date;
};

/** Active sessions, most recently used first; `current` marks the asking browser's. */
export async function listSessions(
  q: Queryable,
  accountId: string,
  currentRefreshToken: string | undefined,
  now: Date,
): Promise<ActiveSession[]> {
  const current = await sessionOfToken(q, accountId, currentRefreshToken, now);
  // Every refresh stores a new token, so the newest token's time is the session's last use.
  const found = await q.query<SessionRow>(
    `SELECT t.family_id, d.user_agent, d.ip, COALESCE(d.created_at, min(t.created_at)) AS created_at,
       max(t.created_at) AS last_used_at
     FROM refresh_tokens t LEFT JOIN session_devices d ON d.family_id = t.family_id
     WHERE t.account_id = $1
     GROUP BY t.family_id, d.user_agent, d.ip, d.created_at
     HAVING bool_or(${LIVE_TOKEN})
     ORDER BY last_used_at DESC`,
    [accountId, now],
  );
  return found.rows.map((row) => ({
    id: row.family_id,
    user_agent: row.user_agent,
    ip: row.ip,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: new Date(row.last_used_at).toISOString(),
    current: row.family_id === current,
  }));
}

/** Which sessions to end: one, or all but one (null: all). */
export type SessionSelection = { only: string } | { allExcept: string | null };

/**
 * Revokes the selected sessions' refresh tokens and raises the session version, so their access
 * tokens stop at their next request too. Returns how many sessions ended and the new version.
 */
export async function endSessions(
  tx: Transaction,
  accountId: string,
  selection: SessionSelection,
  now: Date,
): Promise<Result<{ revoked: number; version: number }>> {
  const families = await tx.query<{ family_id: string }>(
    `UPDATE refresh_tokens SET revoked_at = $2
     WHERE account_id = $1 AND revoked_at IS NULL
       AND ($3::uuid IS NULL OR family_id = $3) AND ($4::uuid IS NULL OR family_id <> $4)
     RETURNING family_id`,
    [
      accountId,
      now,
      'only' in selection ? selection.only : null,
      'allExcept' in selection ? selection.allExcept : null,
    ],
  );
  const revoked = new Set(families.rows.map((row) => row.family_id)).size;
  if ('only' in selection && revoked === 0) return fail('SESSION_NOT_FOUND');
  const version = await raiseSessionVersion(tx, accountId);
  // This node's guard knows at once; others within the version cache's lifetime.
  const versions = sessionVersionsOf(tx.database);
  tx.afterCommit(() => versions.remember(accountId, version, now.getTime()));
  return ok({ revoked, version });
}

/** Password change or reset: every session of the account ends. */
export async function endAllSessions(tx: Transaction, accountId: string, now: Date): Promise<number> {
  const ended = await endSessions(tx, accountId, { allExcept: null }, now);
  return ended.ok ? ended.value.version : 0;
}
