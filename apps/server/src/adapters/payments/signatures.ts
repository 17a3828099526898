import crypto from 'node:crypto';
import type { WebhookCheck, WebhookInput } from './types.ts';

/**
 * Webhook signatures of the providers (third-party-apis.md §1, §2), shared by the adapters, the
 * sandbox (which signs the Triple-A way) and the local fakes (which sign as the real ones do).
 */

/** The header Triple-A (and our sandbox) sign webhooks with. */
export const TRIPLEA_SIGNATURE_HEADER = 'triplea-signature';
/** The header NOWPayments signs IPN calls with. */
export const NOWPAYMENTS_SIGNATURE_HEADER = 'x-nowpayments-sig';

/** A secret of ours for one purpose, derived from a master key so nothing more has to be stored. */
export function deriveSecret(masterKey: string, label: string): string {
  return crypto.createHmac('sha256', masterKey).update(label).digest('hex');
}

/** `t=<unix>,v1=<hex hmac-sha256(secret, t + "." + rawBody)>` */
export function tripleASignatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const t = String(Math.floor(unixSeconds));
  return `t=${t},v1=${hmacHex('sha256', secret, `${t}.${rawBody}`)}`;
}

export type SignatureVerdict = 'ok' | 'unsigned' | 'bad_signature' | 'stale' | 'malformed';

/** Longest signature header looked at: a real one is ~80 characters. */
const MAX_SIGNATURE_HEADER_LENGTH = 1024;
/** A signed timestamp is Unix seconds: up to 12 digits (thousands of years ahead), never a fraction. */
const UNIX_SECONDS_PATTERN = /^\d{1,12}$/;

/**
 * Checks a Triple-A signature header. The signature is checked before the time so that a forged
 * header is reported as forged; a genuine one signed too long ago (or too far ahead) is stale, which
 * is what a captured and replayed request looks like.
 */
export function checkTripleASignature(
  header: string | undefined,
  rawBody: string,
  secret: string,
  now: Date,
  toleranceSeconds: number,
): SignatureVerdict {
  if (header === undefined || header.trim() === '') return 'unsigned';
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return 'malformed';
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) return 'malformed';
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || !UNIX_SECONDS_PATTERN.test(timestamp) || signatures.length === 0) return 'malformed';
  const expected = hmacHex('sha256', secret, `${timestamp}.${rawBody}`);
  if (!signatures.some((signature) => sameHex(signature, expected))) return 'bad_signature';
  const ageSeconds = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (ageSeconds >= toleranceSeconds) return 'stale';
  return 'ok';
}

/**
 * What every webhook check starts with: a signature header, and a body that is a JSON object.
 * Nothing in the body is believed yet: the caller checks the signature next.
 */
export function signedJsonObject(
  input: WebhookInput,
  headerName: string,
): { ok: true; header: string; body: object } | Extract<WebhookCheck, { ok: false }> {
  const header = input.headers[headerName];
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'unsigned' };
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, reason: 'malformed' };
  return { ok: true, header, body };
}

/** NOWPayments: hex(HMAC-SHA512(ipnSecret, JSON.stringify(sortKeysRecursively(body)))). */
export function nowPaymentsSignature(ipnSecret: string, body: unknown): string {
  return hmacHex('sha512', ipnSecret, JSON.stringify(sortKeysRecursively(body)));
}

/**
 * Checks a NOWPayments IPN signature over the parsed body. NOWPayments signs no timestamp, so a
 * stale call cannot be told from a fresh one: replays are recognised by their event id instead.
 */
export function checkNowPaymentsSignature(
  header: string | undefined,
  body: unknown,
  ipnSecret: string,
): SignatureVerdict {
  if (header === undefined || header.trim() === '') return 'unsigned';
  if (header.length > MAX_SIGNATURE_HEADER_LENGTH) return 'malformed';
  return sameHex(header.trim(), nowPaymentsSignature(ipnSecret, body)) ? 'ok' : 'bad_signature';
}

/** Object keys sorted at every depth; arrays keep their order. */
export function sortKeysRecursively(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysRecursively);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      sorted[key] = sortKeysRecursively((value as Record<string, unknown>)[key]);
    return sorted;
  }
  return value;
}

/**
 * The id of a webhook event: the same body (whatever its spacing or key order) gives the same id,
 * so a replayed or re-delivered call is recognised, while every real change (status, amounts,
 * status date) gives a new one.
 */
export function webhookEventId(provider: string, body: unknown): string {
  const digest = crypto
    .createHash('sha256')
    .update(JSON.stringify(sortKeysRecursively(body)))
    .digest('hex');
  return `${provider}:${digest}`;
}

function hmacHex(algorithm: 'sha256' | 'sha512', secret: string, text: string): string {
  return crypto.createHmac(algorithm, secret).update(text).digest('hex');
}

/** Constant-time comparison of two hex strings (case-insensitive). */
function sameHex(given: string, expected: string): boolean {
  if (!/^[0-9a-fA-F]+$/.test(given) || given.length !== expected.length) return false;
  return crypto.timingSafeEqual(Buffer.from(given.toLowerCase(), 'utf8'), Buffer.from(expected, 'utf8'));
}
