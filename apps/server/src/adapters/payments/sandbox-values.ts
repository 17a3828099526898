import crypto from 'node:crypto';
import { bech32 } from '@scure/base';
import { getAddress } from 'viem';
import { DEFAULT_MAX_AMOUNT_SCALE, parsePositive } from './amounts.ts';
import { ProviderError } from './types.ts';

/**
 * Small pure pieces of the sandbox provider: input guards, ids, and the fake but well-formed chain
 * values (addresses, transaction hashes) its pages and webhooks show.
 */

/** The longest checkout or invoice the sandbox keeps open: a month. */
export const MAX_EXPIRY_SECONDS = 30 * 86_400;
/** Callers' references are ids (uuids, keys); this bounds what a row holds. */
const MAX_REFERENCE_LENGTH = 200;
/** Currency codes as providers write them: 2 to 12 letters or digits (BTC, USDTTRC20). */
const CURRENCY_CODE_PATTERN = /^[A-Z0-9]{2,12}$/;
const MAX_TEXT_LENGTH = 1_000;
const MAX_URL_LENGTH = 2_000;

/** Fiat order currencies: the payer then pays in BTC unless the caller chose a coin. */
const FIAT_CURRENCIES = new Set(['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD']);
/** Coins whose sandbox addresses and hashes look like Bitcoin's (bech32, 64 hex); the rest look EVM. */
const BECH32_PREFIXES: Record<string, string> = { BTC: 'tb', LTC: 'tltc' };
const BITCOIN_LIKE_HASHES = new Set(['BTC', 'LTC', 'BCH', 'DOGE', 'DASH']);

export function refuse(code: string, message: string, status = 400): ProviderError {
  return new ProviderError(message, { provider: 'sandbox', code, status, retryable: false });
}

export function checkReference(reference: string): string {
  if (typeof reference !== 'string' || reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH) {
    throw refuse('INVALID_REFERENCE', `reference must be 1 to ${MAX_REFERENCE_LENGTH} characters`);
  }
  return reference;
}

export function checkCurrency(currency: string, field = 'currency'): string {
  const upper = typeof currency === 'string' ? currency.toUpperCase() : '';
  if (!CURRENCY_CODE_PATTERN.test(upper)) throw refuse('INVALID_CURRENCY', `${field} is not a currency code`);
  return upper;
}

export function checkAmount(amount: string, field = 'amount', maxScale = DEFAULT_MAX_AMOUNT_SCALE): string {
  if (typeof amount !== 'string' || parsePositive(amount, maxScale) === null) {
    throw refuse('INVALID_AMOUNT', `${field} must be a positive decimal with at most ${maxScale} decimals`);
  }
  return amount;
}

export function checkUrl(url: string, field: string): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= MAX_URL_LENGTH ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw refuse('INVALID_URL', `${field} must be an absolute http(s) URL`);
  }
  return url;
}

export function checkText(text: string | undefined | null, field: string): string {
  const value = text ?? '';
  if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) {
    throw refuse('INVALID_TEXT', `${field} must be at most ${MAX_TEXT_LENGTH} characters`);
  }
  return value;
}

export function checkExpiry(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_EXPIRY_SECONDS) {
    throw refuse('INVALID_EXPIRY', `expiresInSeconds must be a whole number from 1 to ${MAX_EXPIRY_SECONDS}`);
  }
  return seconds;
}

export function isFiat(currency: string): boolean {
  return FIAT_CURRENCIES.has(currency);
}

/** `SBX-<hex>-<kind>`, in the spirit of Triple-A's "PMA-401443-PMT". */
export function sandboxId(kind: 'PMT' | 'PO' | 'BATCH' | 'RF'): string {
  return `SBX-${crypto.randomBytes(8).toString('hex').toUpperCase()}-${kind}`;
}

/** A testnet-style deposit address for a checkout: stable for the checkout, well-formed for the coin. */
export function sandboxAddress(currency: string, seed: string): string {
  const digest = crypto.createHash('sha256').update(`sandbox address ${currency} ${seed}`).digest();
  const prefix = BECH32_PREFIXES[currency];
  if (prefix) return bech32.encode(prefix, [0, ...bech32.toWords(digest.subarray(0, 20))]);
  return getAddress(`0x${digest.subarray(0, 20).toString('hex')}`);
}

/** A chain transaction id of the coin's usual form (64 hex, or 0x + 64 hex on EVM chains). */
export function sandboxTxHash(currency: string, seed: string): string {
  const hex = crypto.createHash('sha256').update(`sandbox tx ${currency} ${seed}`).digest('hex');
  return BITCOIN_LIKE_HASHES.has(currency) ? hex : `0x${hex}`;
}

/** What the QR code of a checkout holds: a BIP-21 URI for Bitcoin, the bare address otherwise. */
export function paymentUri(currency: string, address: string, amount: string | null): string {
  if (currency === 'BTC') return `bitcoin:${address}${amount ? `?amount=${amount}` : ''}`;
  return address;
}

/**
 * What the sandbox sells by card on its hosted checkout, and its card fee (3.5 %, in the range card
 * on-ramps charge). The page simulates the card form: pay, decline, or let it expire.
 */
export const SANDBOX_CARD = { currencies: ['USD', 'USDT', 'USDC', 'BTC', 'ETH'], feeBps: 350 } as const;
