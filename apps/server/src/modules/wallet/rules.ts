import {
  COIN_SYMBOLS,
  CURRENCY_DECIMALS,
  DEFAULT_CURRENCY_DECIMALS,
  DEFAULT_WITHDRAWAL_BASE_FEE,
  DEFAULT_WITHDRAWAL_MINIMUM,
  DEFAULT_WITHDRAWAL_NETWORK,
  IDEMPOTENCY_KEY_PATTERN,
  MIN_TRANSFER_UNITS,
  TRANSFER_MEMO_MAX_LENGTH,
  WITHDRAWAL_BASE_FEES,
  WITHDRAWAL_FEE_BPS,
  WITHDRAWAL_MINIMUMS,
  type WithdrawalNetwork,
  withdrawalNetwork,
  withdrawalNetworksOf,
} from '@platform/contracts';
import { type Amount, decimal, formatDecimal, parseDecimal, toScale, toUnits } from '@platform/money';
import { fail, failWithText, ok, type Result } from '../../lib/errors.ts';

/**
 * The wallet's input rules, in the words of spec §5 where it has them. Pure: every check the
 * transfer, withdrawal, conversion and payment calls make before touching the database, each
 * answering a Result.
 */

/** Currencies the wallet holds: every enabled coin of the catalogue, and USD (the quote of the spot pairs). */
export const WALLET_CURRENCIES: readonly string[] = [...COIN_SYMBOLS, ...(COIN_SYMBOLS.includes('USD') ? [] : ['USD'])];
const WALLET_CURRENCY_SET = new Set(WALLET_CURRENCIES);

/**
 * Longest amount text read: 20 digits before the point (the ledger's NUMERIC size) and 30 after, so
 * that an amount with too many decimals is read and refused with its currency's own message.
 */
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
 * A wallet amount in units of the currency's last decimal (§9): a positive decimal ('Amount must be
 * greater than zero') with no more decimals than the currency has.
 */
export function parseWalletAmount(input: string | number, currency: string): Result<bigint> {
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
    return failWithText('INVALID_AMOUNT', 'amountDecimals', { decimals, currency }, { field: 'amount', decimals });
  }
  return ok(units.value);
}

/** Units of a currency's last decimal as canonical text. */
export function unitsText(units: bigint, currency: string): string {
  return formatDecimal({ units, scale: currencyDecimals(currency) }, { trimZeros: true });
}

/** A decimal constant of the spec in units of the currency's last decimal (rounded up: a fee or a floor). */
function constantUnits(text: string, currency: string): bigint {
  return toScale(decimal(text), currencyDecimals(currency), 'up').units;
}

/**
 * §9's withdrawal fee: the larger of the currency's base fee and 0.1 % of the amount, rounded up
 * to the currency's decimals; the total is what leaves the balance.
 */
export function withdrawalFee(units: bigint, currency: string): { fee: bigint; total: bigint } {
  const base = constantUnits(WITHDRAWAL_BASE_FEES[currency] ?? DEFAULT_WITHDRAWAL_BASE_FEE, currency);
  const proportional = (units * BigInt(WITHDRAWAL_FEE_BPS) + 9_999n) / 10_000n;
  const fee = proportional > base ? proportional : base;
  return { fee, total: units + fee };
}

/** §9's minimum withdrawal of a currency, as text. */
export function minimumWithdrawal(currency: string): string {
  return WITHDRAWAL_MINIMUMS[currency] ?? DEFAULT_WITHDRAWAL_MINIMUM;
}

/**
 * A transfer amount: a positive decimal with at most the currency's decimals (§9), at least the
 * minimum ('Minimum transfer amount is {min} {X}'). Answers the canonical text.
 */
export function parseTransferAmount(input: string | number, currency: string): Result<string> {
  const parsed = parseWalletAmount(input, currency);
  if (!parsed.ok) return parsed;
  const decimals = currencyDecimals(currency);
  const units = { value: parsed.value };
  if (units.value < BigInt(MIN_TRANSFER_UNITS)) {
    const minimum = minimumTransfer(currency);
    return failWithText('AMOUNT_BELOW_MINIMUM', 'transferMinimum', { minimum, currency }, { field: 'amount', minimum });
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
    return failWithText('VALIDATION_ERROR', 'memoTooLong', { max: TRANSFER_MEMO_MAX_LENGTH }, { field: 'memo' });
  }
  return ok(memo === '' ? null : memo);
}

/** NUMERIC text without trailing zeros ('1.50000000' -> '1.5'). */
export function trimAmount(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * The idempotency key of a request that makes money move (transfer, withdrawal, conversion,
 * payment): the Idempotency-Key header, else the body's idempotency_key; null when neither is sent.
 */
export function parseIdempotencyKey(headerKey: string | undefined, bodyKey: string | undefined): Result<string | null> {
  const key = headerKey ?? bodyKey ?? null;
  if (key !== null && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    return fail('VALIDATION_ERROR', {
      message: 'The idempotency key is 1 to 64 letters, digits or _:.-',
      details: { field: 'Idempotency-Key' },
    });
  }
  return ok(key);
}

/**
 * The network of a withdrawal: for a currency on several networks the one named (any case), else its
 * default (Ethereum for USDT and USDC, §5's format); undefined for a currency on one network, which
 * takes no network name other than none.
 */
export function parseNetwork(
  input: string | null | undefined,
  currency: string,
): Result<WithdrawalNetwork | undefined> {
  const named = input?.trim() ?? '';
  const networks = withdrawalNetworksOf(currency);
  if (networks.length === 0) {
    if (named === '') return ok(undefined);
    return failWithText(
      'NETWORK_NOT_SUPPORTED',
      'networkNotSupported',
      { currency, network: named.toUpperCase() },
      { field: 'network' },
    );
  }
  const found = withdrawalNetwork(currency, named === '' ? (DEFAULT_WITHDRAWAL_NETWORK[currency] ?? '') : named);
  if (!found) {
    return failWithText(
      'NETWORK_NOT_SUPPORTED',
      'networkNotSupported',
      { currency, network: named.toUpperCase() },
      { field: 'network', networks: networks.map((entry) => entry.network) },
    );
  }
  return ok(found);
}
