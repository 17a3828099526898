import {
  COIN_SYMBOLS,
  type CreateTransferRequest,
  CURRENCY_DECIMALS,
  DEFAULT_CURRENCY_DECIMALS,
  MIN_TRANSFER_UNITS,
  TRANSFER_MEMO_MAX_LENGTH,
} from '@platform/contracts';
import { type Amount, compare, formatDecimal, parseDecimal, toUnits } from '@platform/money';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { serverMessageKey } from '../../lib/error-message.ts';

/**
 * The send (transfer between users) form of spec §5 as plain data, dYdX style: a reducer for the
 * edits, `transferFormErrors` for the rules and `transferFormSummary` for what the view shows and
 * what the request would be. Nothing here needs React, so every rule is tested on its own.
 */

export const transferFields = ['recipient', 'currency', 'amount', 'memo'] as const;
export type TransferField = (typeof transferFields)[number];
export type TransferFormValues = Record<TransferField, string>;

/** A problem with the form: an i18n key and its values, on a field or on the whole form. */
export interface TransferFormError {
  field: TransferField | 'form';
  /** An i18n key; a server text that has none travels as it came (translateMessage shows it as is). */
  key: string;
  values?: Record<string, string>;
  severity: 'error';
}

export interface TransferFormState {
  values: TransferFormValues;
  touched: Readonly<Record<TransferField, boolean>>;
  /** Rules show on every field once a send was tried, and on a field once it was left. */
  submitAttempted: boolean;
  /**
   * Names this payload for the server (Idempotency-Key). It stays while the values stay, so a
   * double click or a retry after a lost answer cannot send twice; any edit, and a completed send,
   * take a fresh one (the server refuses a used key with a different payload).
   */
  idempotencyKey: string;
  /** What the server said about the last attempt, until the user edits what it was about. */
  serverError: TransferFormError | null;
}

export type TransferFormAction =
  | { type: 'edit'; field: TransferField; value: string }
  | { type: 'blur'; field: TransferField }
  | { type: 'submitAttempted' }
  | { type: 'failed'; error: TransferFormError }
  | { type: 'sent' };

/** Currencies the server's wallet holds (its balances list them all): the enabled coins and USD. */
export const WALLET_CURRENCY_FALLBACK: readonly string[] = [
  ...COIN_SYMBOLS,
  ...(COIN_SYMBOLS.includes('USD') ? [] : ['USD']),
];

/** The wallet's currency codes, upper case: its balances', or the fallback list until they load. */
export function walletCurrencies(balances: readonly { currency: string }[] | undefined): string[] {
  return balances ? balances.map((balance) => balance.currency.toUpperCase()) : [...WALLET_CURRENCY_FALLBACK];
}

/** Crypto only: the wallet's US dollar is the quote currency of the spot pairs, not a coin to send or pay with. */
export function walletCryptoCurrencies(balances: readonly { currency: string }[] | undefined): string[] {
  return walletCurrencies(balances).filter((currency) => currency !== 'USD');
}

export const TRANSFER_RECIPIENT_MAX_LENGTH = 64;

const untouched: Record<TransferField, boolean> = { recipient: false, currency: false, amount: false, memo: false };

/** A fresh key the server accepts (IDEMPOTENCY_KEY_PATTERN). */
export function createIdempotencyKey(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts (https, localhost); getRandomValues works everywhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function initialTransferFormState(currency: string, newKey: () => string = createIdempotencyKey) {
  return {
    values: { recipient: '', currency, amount: '', memo: '' },
    touched: untouched,
    submitAttempted: false,
    idempotencyKey: newKey(),
    serverError: null,
  } satisfies TransferFormState;
}

/** What the wallet's money forms (send, withdraw) keep beside their values. */
interface FieldFormState<Field extends string> {
  values: Readonly<Record<Field, string>>;
  touched: Readonly<Record<Field, boolean>>;
  submitAttempted: boolean;
  idempotencyKey: string;
  serverError: { field: Field | 'form' } | null;
}

/**
 * An edit of a money form: the new value under a fresh key, and the server's complaint gone when
 * it was about this field or the whole form. The same state when the value did not change.
 */
export function editFormField<Field extends string, State extends FieldFormState<Field>>(
  state: State,
  field: Field,
  value: string,
  newKey: () => string,
): State {
  if (state.values[field] === value) return state;
  const serverError =
    state.serverError && (state.serverError.field === field || state.serverError.field === 'form')
      ? null
      : state.serverError;
  return { ...state, values: { ...state.values, [field]: value }, idempotencyKey: newKey(), serverError };
}

/** What a money form shows: the rules of the fields the user has left (all after a send attempt), then the server's. */
export function visibleFormErrors<Field extends string, Error extends { field: Field | 'form' }>(
  errors: readonly Error[],
  state: { touched: Readonly<Record<Field, boolean>>; submitAttempted: boolean; serverError: Error | null },
): Partial<Record<Field | 'form', Error>> {
  const visible: Partial<Record<Field | 'form', Error>> = {};
  for (const error of errors) {
    const field = error.field;
    if (field !== 'form' && (state.submitAttempted || state.touched[field])) visible[field] = error;
  }
  if (state.serverError) visible[state.serverError.field] ??= state.serverError;
  return visible;
}

/** The reducer, with the key source handed in so that tests can count keys. */
export function createTransferFormReducer(newKey: () => string = createIdempotencyKey) {
  return function transferFormReducer(state: TransferFormState, action: TransferFormAction): TransferFormState {
    switch (action.type) {
      case 'edit':
        return editFormField(state, action.field, action.value, newKey);
      case 'blur':
        return state.touched[action.field] ? state : { ...state, touched: { ...state.touched, [action.field]: true } };
      case 'submitAttempted':
        return { ...state, submitAttempted: true, serverError: null };
      case 'failed':
        // The key stays: a refused send recorded nothing under it, and a send whose answer was lost
        // may have gone through, so its retry must carry the same key to get that transfer back.
        return { ...state, serverError: action.error };
      case 'sent':
        return initialTransferFormState(state.values.currency, newKey);
    }
  };
}

/** Longest amount text read: 20 digits before the point and up to 30 after, as the server reads it. */
const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

export function currencyDecimals(currency: string): number {
  return CURRENCY_DECIMALS[currency.toUpperCase()] ?? DEFAULT_CURRENCY_DECIMALS;
}

/** The smallest transfer (MIN_TRANSFER_UNITS of the currency's last decimal): '1' USDT, '0.000001' BTC. */
export function minimumTransferAmount(currency: string): string {
  return formatDecimal({ units: BigInt(MIN_TRANSFER_UNITS), scale: currencyDecimals(currency) }, { trimZeros: true });
}

/**
 * The most the user can send of an available balance: cut down (never up) to the currency's
 * decimals, since a ledger balance may carry more of them than a transfer accepts. Null when
 * there is nothing to send.
 */
export function maxTransferAmount(available: string | null, currency: string): string | null {
  const parsed = available === null ? null : parseDecimal(available, AMOUNT_LIMITS);
  if (!parsed?.ok) return null;
  const text = formatDecimal(parsed.value, { scale: currencyDecimals(currency), rounding: 'down', trimZeros: true });
  return parsed.value.units > 0n && text !== '0' ? text : null;
}

/** Typed amounts: a comma is read as the decimal point ('1,5'), surrounding spaces are dropped. */
export function normalizeAmountText(text: string): string {
  return text.trim().replace(/^(\d*),(\d*)$/, '$1.$2');
}

/** The recipient as the server reads it: trimmed, without a leading '@'. */
export function normalizeRecipient(text: string): string {
  return text.trim().replace(/^@/, '');
}

export interface TransferFormContext {
  /** Upper-case codes the wallet holds. */
  supportedCurrencies: readonly string[];
  /** Available balance per upper-case currency, when loaded; a send above it is refused. */
  available?: ReadonlyMap<string, string> | null;
}

const fieldError = (field: TransferField, key: string, values?: Record<string, string>): TransferFormError =>
  values ? { field, key, values, severity: 'error' } : { field, key, severity: 'error' };
const formError = (key: string): TransferFormError => ({ field: 'form', key, severity: 'error' });

function currencyError(values: TransferFormValues, context: TransferFormContext): TransferFormError | null {
  const currency = values.currency.trim().toUpperCase();
  if (context.supportedCurrencies.includes(currency)) return null;
  return fieldError('currency', 'wallet.send.errors.currencyNotSupported', { currency: currency || values.currency });
}

function amountError(values: TransferFormValues, context: TransferFormContext): TransferFormError | null {
  const text = normalizeAmountText(values.amount);
  if (text === '') return fieldError('amount', 'wallet.send.errors.amountNotPositive');
  const parsed = parseDecimal(text, AMOUNT_LIMITS);
  if (!parsed.ok) return fieldError('amount', 'errors.invalidAmount');
  const amount: Amount = parsed.value;
  if (amount.units <= 0n) return fieldError('amount', 'wallet.send.errors.amountNotPositive');
  // The rules below depend on the currency; an unsupported one has its own message already.
  const currency = values.currency.trim().toUpperCase();
  if (!context.supportedCurrencies.includes(currency)) return null;
  const decimals = currencyDecimals(currency);
  const units = toUnits(amount, decimals);
  if (!units.ok) {
    return fieldError('amount', 'wallet.send.errors.tooManyDecimals', { decimals: String(decimals), currency });
  }
  if (units.value < BigInt(MIN_TRANSFER_UNITS)) {
    return fieldError('amount', 'wallet.send.errors.belowMinimum', {
      minimum: minimumTransferAmount(currency),
      currency,
    });
  }
  const availableText = context.available?.get(currency);
  const available = availableText === undefined ? null : parseDecimal(availableText, AMOUNT_LIMITS);
  if (available?.ok && compare(amount, available.value) > 0) return fieldError('amount', 'errors.insufficientBalance');
  return null;
}

function recipientError(values: TransferFormValues): TransferFormError | null {
  return normalizeRecipient(values.recipient).length < 2
    ? fieldError('recipient', 'wallet.send.errors.usernameInvalid')
    : null;
}

function memoError(values: TransferFormValues): TransferFormError | null {
  return values.memo.trim().length > TRANSFER_MEMO_MAX_LENGTH
    ? fieldError('memo', 'wallet.send.errors.memoTooLong', { max: String(TRANSFER_MEMO_MAX_LENGTH) })
    : null;
}

/** Spec §5 transfer rules, at most one per field, in the form's order. */
export function transferFormErrors(values: TransferFormValues, context: TransferFormContext): TransferFormError[] {
  return [
    recipientError(values),
    currencyError(values, context),
    amountError(values, context),
    memoError(values),
  ].filter((error): error is TransferFormError => error !== null);
}

export function toTransferRequest(values: TransferFormValues): CreateTransferRequest {
  const memo = values.memo.trim();
  return {
    to_username: normalizeRecipient(values.recipient),
    // Spec §5: currency codes are lower-cased in requests.
    currency: values.currency.trim().toLowerCase(),
    amount: normalizeAmountText(values.amount),
    ...(memo === '' ? {} : { memo }),
  };
}

export interface TransferFormSummary {
  /** Every rule that fails now. */
  errors: TransferFormError[];
  /** What to show: rules of the fields the user has left (all after a send attempt), then the server's. */
  visibleErrors: Partial<Record<TransferField | 'form', TransferFormError>>;
  /** The request to send, or null while a rule fails. */
  request: CreateTransferRequest | null;
  currency: string;
  minimumAmount: string | null;
  available: string | null;
}

export function transferFormSummary(state: TransferFormState, context: TransferFormContext): TransferFormSummary {
  const errors = transferFormErrors(state.values, context);
  const currency = state.values.currency.trim().toUpperCase();
  const supported = context.supportedCurrencies.includes(currency);
  return {
    errors,
    visibleErrors: visibleFormErrors(errors, state),
    request: errors.length === 0 ? toTransferRequest(state.values) : null,
    currency,
    minimumAmount: supported ? minimumTransferAmount(currency) : null,
    available: context.available?.get(currency) ?? null,
  };
}

const detailsSchema = z.object({ field: z.string().optional(), minimum: z.string().optional() }).partial();

const fieldOfRequestField: Record<string, TransferField> = {
  to_username: 'recipient',
  currency: 'currency',
  amount: 'amount',
  memo: 'memo',
};

/**
 * A failed send as a form error in the spec's words (§5, §8): the server's codes map to the same
 * keys as the client's rules, with its figures (the minimum) where it sends them; any other text
 * is shown as the server wrote it.
 */
export function transferErrorFromFailure(error: unknown, request: CreateTransferRequest): TransferFormError {
  if (!(error instanceof ApiError)) return formError('errors.transferFailed');
  if (error.isNetworkError) return formError('wallet.send.errors.networkRetrySafe');
  const details = detailsSchema.safeParse(error.details);
  const currency = request.currency.toUpperCase();
  switch (error.code) {
    case 'AMOUNT_NOT_POSITIVE':
      return fieldError('amount', 'wallet.send.errors.amountNotPositive');
    case 'AMOUNT_BELOW_MINIMUM':
      return fieldError('amount', 'wallet.send.errors.belowMinimum', {
        minimum: (details.success ? details.data.minimum : undefined) ?? minimumTransferAmount(currency),
        currency,
      });
    case 'INSUFFICIENT_BALANCE':
      return fieldError('amount', 'errors.insufficientBalance');
    case 'CURRENCY_NOT_SUPPORTED':
      return fieldError('currency', 'wallet.send.errors.currencyNotSupported', { currency });
    case 'USERNAME_INVALID':
      return fieldError('recipient', 'wallet.send.errors.usernameInvalid');
    case 'RECIPIENT_NOT_FOUND':
      return fieldError('recipient', 'wallet.send.errors.recipientNotFound');
    case 'TRANSFER_TO_SELF':
      return fieldError('recipient', 'wallet.send.errors.transferToSelf');
    case 'INVALID_RESPONSE':
      return formError('errors.transferFailed');
  }
  const field = details.success && details.data.field ? fieldOfRequestField[details.data.field] : undefined;
  // A message with values (decimals, the memo's limit) in the reader's language (docs/i18n.md "Server texts").
  const text = serverMessageKey(error);
  if (text) return field ? fieldError(field, text.key, text.values) : { ...formError(text.key), values: text.values };
  const key = error.message || 'errors.transferFailed';
  return field ? fieldError(field, key) : formError(key);
}
