import { TOTP, URI } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { generateTotpSecret, totpCode, totpSetup, verifyTotp } from './totp.ts';

const STEP_MS = 30_000;

describe('TOTP', () => {
  const secret = generateTotpSecret();
  const now = new Date(1_900_000_000_000);
  const currentStep = Math.floor(now.getTime() / STEP_MS);

  it('makes 160-bit base32 secrets', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('accepts the current code and one step of drift either way, nothing more', () => {
    expect(verifyTotp(secret, totpCode(secret, now), now, null)).toEqual({ step: currentStep });
    const previous = new Date(now.getTime() - STEP_MS);
    const next = new Date(now.getTime() + STEP_MS);
    expect(verifyTotp(secret, totpCode(secret, previous), now, null)).toEqual({ step: currentStep - 1 });
    expect(verifyTotp(secret, totpCode(secret, next), now, null)).toEqual({ step: currentStep + 1 });
    const tooOld = new Date(now.getTime() - 2 * STEP_MS);
    expect(verifyTotp(secret, totpCode(secret, tooOld), now, null)).toBeNull();
  });

  it('refuses a code whose step was already used, and any earlier step', () => {
    const code = totpCode(secret, now);
    expect(verifyTotp(secret, code, now, currentStep)).toBeNull();
    expect(verifyTotp(secret, code, now, currentStep + 1)).toBeNull();
    expect(verifyTotp(secret, code, now, currentStep - 1)).toEqual({ step: currentStep });
  });

  it('refuses a wrong code and a code of another secret', () => {
    const code = totpCode(secret, now);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(verifyTotp(secret, wrong, now, null)).toBeNull();
    expect(verifyTotp(generateTotpSecret(), code, now, null)).toBeNull();
  });

  it('builds the otpauth URL and a PNG QR code for authenticator apps', async () => {
    const setup = await totpSetup(secret, 'ada@example.com');
    const parsed = new URL(setup.otpauthUrl);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.searchParams.get('issuer')).toBe('Meridian');
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('digits')).toBe('6');
    expect(parsed.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(parsed.pathname)).toContain('ada@example.com');
    expect(setup.qrCode).toMatch(/^data:image\/png;base64,/);
    // The code an app computes from the URL is the one the server accepts.
    const app = URI.parse(setup.otpauthUrl);
    expect(app).toBeInstanceOf(TOTP);
    expect(verifyTotp(secret, app.generate({ timestamp: now.getTime() }), now, null)).toEqual({ step: currentStep });
  });
});
