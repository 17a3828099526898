import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const TOTP_ISSUER = 'Meridian';
const TOTP_PERIOD_SECONDS = 30;
/** One step either side: tolerates a phone clock 30 s off without widening the guessing window much. */
const TOTP_WINDOW_STEPS = 1;
/** 160-bit secrets, the size RFC 4226 recommends for HMAC-SHA-1. */
const TOTP_SECRET_BYTES = 20;

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function generateTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

export type TotpSetup = { secret: string; otpauthUrl: string; qrCode: string };

/** What an authenticator app needs: the secret, its otpauth URL, and that URL as a PNG QR code. */
export async function totpSetup(secretBase32: string, label: string): Promise<TotpSetup> {
  const otpauthUrl = totpFor(secretBase32, label).toString();
  const qrCode = await QRCode.toDataURL(otpauthUrl, { type: 'image/png' });
  return { secret: secretBase32, otpauthUrl, qrCode };
}

/**
 * Checks a code and returns the time step it belongs to, or null. A step at or before
 * `lastUsedStep` is refused: a code seen once (over a shoulder, in a log) never works again.
 */
export function verifyTotp(
  secretBase32: string,
  code: string,
  now: Date,
  lastUsedStep: number | null,
): { step: number } | null {
  const totp = totpFor(secretBase32, '');
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  const step = totp.counter({ timestamp: now.getTime() }) + delta;
  if (lastUsedStep !== null && step <= lastUsedStep) return null;
  return { step };
}

/** The code of a given moment (tests and tooling). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32, '').generate({ timestamp: at.getTime() });
}
