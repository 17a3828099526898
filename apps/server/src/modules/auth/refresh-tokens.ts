import crypto from 'node:crypto';
import type { Queryable, Transaction } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';

/** 256 random bits: the token itself is the credential, so it must be unguessable. */
const REFRESH_TOKEN_BYTES = 32;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Two tabs of one browser share the refresh cookie and may refresh at the same moment. Within
 * this window a just-exchanged token yields a sibling instead of ending the session; after it,
 * presenting an exchanged token is treated as theft.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export function newRefreshToken(): string {
  return crypto.randomBytes(REFRESH_TOKEN_BYTES).toString('base64url');
}

/** Only this hash is stored: a copy of the table signs no one in. */
export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export type StoredRefreshToken = {
  id: string;
  account_id: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
};

/**
 * What presenting a stored token means. A token that was already exchanged, outside the short
 * grace window of concurrent tabs, is evidence that it was copied (the rightful client holds its
 * successor), so it is 'reused' and its family dies.
 */
export function refreshTokenState(
  token: Pick<StoredRefreshToken, 'expires_at' | 'used_at' | 'revoked_at'> | undefined,
  now: Date,
): 'usable' | 'just_used' | 'reused' | 'invalid' {
  if (!token || token.revoked_at !== null) return 'invalid';
  if (token.used_at !== null) {
    const sinceUseMs = now.getTime() - new Date(token.used_at).getTime();
    return sinceUseMs < REFRESH_REUSE_GRACE_MS ? 'just_used' : 'reused';
  }
  if (new Date(token.expires_at).getTime() <= now.getTime()) return 'invalid';
  return 'usable';
}

export type NewRefreshToken = { accountId: string; familyId: string; now: Date; ttlDays: number };

export async function storeRefreshToken(q: Queryable, input: NewRefreshToken): Promise<string> {
  const token = newRefreshToken();
  await q.query(
    `INSERT INTO refresh_tokens (id, account_id, family_id, token_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      crypto.randomUUID(),
      input.accountId,
      input.familyId,
      hashRefreshToken(token),
      input.now,
      new Date(input.now.getTime() + input.ttlDays * DAY_MS),
    ],
  );
  return token;
}

/**
 * Exchanges a refresh token for its successor in the same family. The row lock makes two
 * concurrent exchanges of one token run one after the other: the second sees it used.
 * A reuse revokes the family; the transaction still commits so that the revocation holds.
 */
export async function rotateRefreshToken(
  tx: Transaction,
  token: string,
  now: Date,
  ttlDays: number,
): Promise<Result<{ accountId: string; refreshToken: string }>> {
  const found = await tx.query<StoredRefreshToken>('SELECT * FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE', [
    hashRefreshToken(token),
  ]);
  const stored = found.rows[0];
  const state = refreshTokenState(stored, now);
  if (state === 'invalid' || !stored) return fail('REFRESH_TOKEN_INVALID');
  if (state === 'reused') {
    await revokeFamily(tx, stored.family_id, now);
    return fail('REFRESH_TOKEN_REUSED');
  }
  if (state === 'usable') await tx.query('UPDATE refresh_tokens SET used_at = $2 WHERE id = $1', [stored.id, now]);
  const refreshToken = await storeRefreshToken(tx, {
    accountId: stored.account_id,
    familyId: stored.family_id,
    now,
    ttlDays,
  });
  return ok({ accountId: stored.account_id, refreshToken });
}

async function revokeFamily(q: Queryable, familyId: string, now: Date): Promise<void> {
  await q.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [
    familyId,
    now,
  ]);
}

/** Logout: the whole sign-in (every token of the family) ends. Unknown tokens are ignored. */
export async function revokeRefreshToken(q: Queryable, token: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE refresh_tokens SET revoked_at = $2
     WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
    [hashRefreshToken(token), now],
  );
}

/**
 * Expired tokens can never be exchanged again, so they are dropped when their account signs in;
 * exchanged but unexpired ones stay, because they are what reveals a stolen token's reuse.
 */
export async function sweepExpiredRefreshTokens(q: Queryable, accountId: string, now: Date): Promise<void> {
  await q.query('DELETE FROM refresh_tokens WHERE account_id = $1 AND expires_at <= $2', [accountId, now]);
}
