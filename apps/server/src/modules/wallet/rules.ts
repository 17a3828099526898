import {
  COIN_SYMBOLS,
  CURRENCY_DECIMALS,
  DEFAULT_CURRENCY_DECIMALS,
  MIN_TRANSFER_UNITS,
  TRANSFER_MEMO_MAX_LENGTH,
} from '@platform/contracts';
import { type Amount, formatDecimal, parseDecimal, toUnits } from '@platform/money';
import { fail, ok, type Result } from '../../lib/errors.ts';

/**
 * The wallet's input rules, in the words of spec §5 where it has them. Pure: every check the
 * transfer (and later the withdrawal) calls make before touching the database.
 */

/** Currencies the wallet holds: every enabled coin of the catalogue, and USD (the quote of the spot pairs). */
export const WALLET_CURRENCIES: readonly string[] = [...COIN_SYMBOLS, ...(COIN_SYMBOLS.includes('USD') ? [] : ['USD'])];
const WALLET_CURRENCY_SET = new Set(WALLET_CURRENCIES);

/** Longest amount text read: 20 digits before the point and 18 after, the ledger's NUMERIC size. */
const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

export function currencyDecimals(currency: string): number {
  return CURRENCY_DECIMALS[currency] ?? DEFAULT_CURRENCY_DECIMALS;
}

/** §5: codes come lower-cased from the client; any case is read, upper case is kept. */
export function parseCurrency(input: string): Result<string> {
  const currency = input.trim().toUpperCase();
  if (!WALLET_CURRENCY_SET.has(currency)) {
    return fail('CURRENCY_NOT_SUPPORTED', { message: `Currency ${currency || input} is not supported` });
  }
  return ok(currency);
}

/** The smallest transfer of a currency (MIN_TRANSFER_UNITS of its last decimal), as text. */
export function minimumTransfer(currency: string): string {
  const decimals = currencyDecimals(currency);
  return formatDecimal({ units: BigInt(MIN_TRANSFER_UNITS), scale: decimals }, { trimZeros: true });
}

/**
 * A transfer amount: a positive decimal with at most the currency's decimals (§9), at least the
 * minimum ('Minimum transfer amount is {min} {X}'). Answers the canonical text.
 */
export function parseTransferAmount(input: string | number, currency: string): Result<string> {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  const parsed = text === '' ? null : parseDecimal(text, AMOUNT_LIMITS);
  if (parsed === null || !parsed.ok) {
    return fail('INVALID_AMOUNT', { details: { field: 'amount', reason: 'not a decimal number' } });
  }
  const amount: Amount = parsed.value;
  if (amount.units <= 0n) return fail('AMOUNT_NOT_POSITIVE', { details: { field: 'amount' } });
  const decimals = currencyDecimals(currency);
  const units = toUnits(amount, decimals);
  if (!units.ok) {
    return fail('INVALID_AMOUNT', {
      message: `Amount has more than ${decimals} decimals for ${currency}`,
      details: { field: 'amount', decimals },
    });
  }
  if (units.value < BigInt(MIN_TRANSFER_UNITS)) {
    const minimum = minimumTransfer(currency);
    return fail('AMOUNT_BELOW_MINIMUM', {
      message: `Minimum transfer amount is ${minimum} ${currency}`,
      details: { field: 'amount', minimum },
    });
  }
  return ok(formatDecimal({ units: units.value, scale: decimals }, { trimZeros: true }));
}

/** §5: at least 2 characters after trimming ('Please enter a valid username'). */
export function parseRecipient(input: string): Result<string> {
  const username = input.trim().replace(/^@/, '');
  if (username.length < 2) return fail('USERNAME_INVALID', { details: { field: 'to_username' } });
  return ok(username);
}

export function parseMemo(input: string | undefined): Result<string | null> {
  if (input === undefined) return ok(null);
  const memo = input.trim();
  if (memo.length > TRANSFER_MEMO_MAX_LENGTH) {
    return fail('VALIDATION_ERROR', {
      message: `The memo is longer than ${TRANSFER_MEMO_MAX_LENGTH} characters`,
      details: { field: 'memo' },
    });
  }
  return ok(memo === '' ? null : memo);
}
