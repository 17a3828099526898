import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokenKey, signAccessToken, verifyAccessToken } from './access-tokens.ts';

describe('access tokens', () => {
  const signing = accessTokenKey(crypto.randomBytes(32).toString('hex'), 900);
  const account = { id: crypto.randomUUID(), role: 'user' as const };
  const now = new Date('2030-01-01T00:00:00Z');

  it('carries the account id and role until it expires', async () => {
    const token = await signAccessToken(signing, account, now);
    expect(await verifyAccessToken(signing, token, new Date(now.getTime() + 899_000))).toEqual({
      ok: true,
      // A token minted without a session version carries version 0 (session-versions.ts).
      value: { ...account, sessionVersion: 0 },
    });
    const versioned = await signAccessToken(signing, { ...account, sessionVersion: 7 }, now);
    expect(await verifyAccessToken(signing, versioned, now)).toEqual({
      ok: true,
      value: { ...account, sessionVersion: 7 },
    });
    expect(await verifyAccessToken(signing, token, new Date(now.getTime() + 900_000))).toMatchObject({
      ok: false,
      code: 'TOKEN_EXPIRED',
    });
  });

  it('refuses a token signed with another secret, of another audience, or garbage', async () => {
    const other = accessTokenKey(crypto.randomBytes(32).toString('hex'), 900);
    const foreign = await signAccessToken(other, account, now);
    expect(await verifyAccessToken(signing, foreign, now)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const wrongAudience = await new SignJWT({ role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(account.id)
      .setIssuer('meridian')
      .setAudience('another-api')
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 60)
      .sign(signing.key);
    expect(await verifyAccessToken(signing, wrongAudience, now)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect(await verifyAccessToken(signing, 'not.a.token', now)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });
});
