import { describe, expect, it } from 'vitest';
import { hashRefreshToken, newRefreshToken, REFRESH_REUSE_GRACE_MS, refreshTokenState } from './refresh-tokens.ts';

describe('refresh tokens', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  const later = new Date('2030-01-31T00:00:00Z');
  const fresh = { expires_at: later, used_at: null, revoked_at: null };

  it('are 32 random bytes in base64url, stored as a SHA-256 hash', () => {
    const token = newRefreshToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRefreshToken()).not.toBe(token);
    expect(hashRefreshToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRefreshToken(token)).not.toContain(token);
  });

  it('may be exchanged once, before expiry, unless revoked', () => {
    expect(refreshTokenState(fresh, now)).toBe('usable');
    expect(refreshTokenState(fresh, later)).toBe('invalid');
    expect(refreshTokenState(undefined, now)).toBe('invalid');
    expect(refreshTokenState({ ...fresh, revoked_at: now }, now)).toBe('invalid');
  });

  it('counts a second exchange as reuse, which is what revokes the family', () => {
    const afterGrace = new Date(now.getTime() + REFRESH_REUSE_GRACE_MS);
    expect(refreshTokenState({ ...fresh, used_at: now }, afterGrace)).toBe('reused');
    // Once the family is revoked the token is simply invalid: no second revocation is needed.
    expect(refreshTokenState({ ...fresh, used_at: now, revoked_at: now }, now)).toBe('invalid');
  });

  it('lets a second tab exchange the same token within the grace window', () => {
    const justBefore = new Date(now.getTime() + REFRESH_REUSE_GRACE_MS - 1);
    expect(refreshTokenState({ ...fresh, used_at: now }, justBefore)).toBe('just_used');
  });
});
