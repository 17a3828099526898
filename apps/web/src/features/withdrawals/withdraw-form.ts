import {
  type AddressFormat,
  type CreateWithdrawalRequest,
  DEFAULT_WITHDRAWAL_BASE_FEE,
  DEFAULT_WITHDRAWAL_MINIMUM,
  TWO_FACTOR_CODE_LENGTH,
  WITHDRAWAL_ADDRESS_MAX_LENGTH,
  WITHDRAWAL_BASE_FEES,
  WITHDRAWAL_FEE_BPS,
  WITHDRAWAL_MINIMUMS,
  type WithdrawalFeeEstimate,
  type WithdrawalNetwork,
} from '@platform/contracts';
import { type Amount, add, compare, decimal, formatDecimal, parseDecimal, toScale, toUnits } from '@platform/money';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { serverMessageKey } from '../../lib/error-message.ts';
import {
  createIdempotencyKey,
  currencyDecimals,
  editFormField,
  normalizeAmountText,
  visibleFormErrors,
} from '../wallet/transfer-form.ts';

/**
 * The withdrawal form of spec §5 as plain data, like the send form: a reducer for the edits,
 * `withdrawFormErrors` for the rules (in the spec's words) and `withdrawFormSummary` for what the
 * view shows and what the request would be. §9's fee and minimum are the local fallbacks (§7.8)
 * when the server's estimate or minimums cannot be read.
 */

export const withdrawFields = ['currency', 'amount', 'address', 'extraId', 'twoFactorCode'] as const;
export type WithdrawField = (typeof withdrawFields)[number];
export type WithdrawFormValues = Record<WithdrawField, string>;

export interface WithdrawFormError {
  field: WithdrawField | 'form';
  /** An i18n key; a server text that has none travels as it came (translateMessage shows it as is). */
  key: string;
  values?: Record<string, string>;
}

export interface WithdrawFormState {
  values: WithdrawFormValues;
  touched: Readonly<Record<WithdrawField, boolean>>;
  submitAttempted: boolean;
  /** Names this payload for the server; any edit takes a fresh one, a refused send keeps it. */
  idempotencyKey: string;
  serverError: WithdrawFormError | null;
  /** The server answered WITHDRAWAL_TWO_FACTOR_REQUIRED: ask for the code even if the account looked 2FA-less. */
  twoFactorAsked: boolean;
}

export type WithdrawFormAction =
  | { type: 'edit'; field: WithdrawField; value: string }
  | { type: 'blur'; field: WithdrawField }
  | { type: 'submitAttempted' }
  | { type: 'failed'; error: WithdrawFormError; twoFactorAsked?: boolean }
  | { type: 'sent' };

const untouched: Record<WithdrawField, boolean> = {
  currency: false,
  amount: false,
  address: false,
  extraId: false,
  twoFactorCode: false,
};

export function initialWithdrawFormState(
  currency: string,
  newKey: () => string = createIdempotencyKey,
): WithdrawFormState {
  return {
    values: { currency, amount: '', address: '', extraId: '', twoFactorCode: '' },
    touched: untouched,
    submitAttempted: false,
    idempotencyKey: newKey(),
    serverError: null,
    twoFactorAsked: false,
  };
}

export function createWithdrawFormReducer(newKey: () => string = createIdempotencyKey) {
  return function withdrawFormReducer(state: WithdrawFormState, action: WithdrawFormAction): WithdrawFormState {
    switch (action.type) {
      case 'edit': {
        const edited = editFormField(state, action.field, action.value, newKey);
        // Another currency has another tag rule: a tag typed for XRP does not travel with BTC.
        if (edited === state || action.field !== 'currency') return edited;
        return { ...edited, values: { ...edited.values, extraId: '' } };
      }
      case 'blur':
        return state.touched[action.field] ? state : { ...state, touched: { ...state.touched, [action.field]: true } };
      case 'submitAttempted':
        return { ...state, submitAttempted: true, serverError: null };
      case 'failed':
        // The key stays: a refused withdrawal recorded nothing under it, and one whose answer was
        // lost may have gone through, so its retry must carry the same key to get it back.
        return {
          ...state,
          serverError: action.error,
          twoFactorAsked: state.twoFactorAsked || action.twoFactorAsked === true,
        };
      case 'sent':
        return { ...initialWithdrawFormState(state.values.currency, newKey), twoFactorAsked: state.twoFactorAsked };
    }
  };
}

// ---------------------------------------------------------------------------------------------
// §9 local rules: fee, minimum, destination tags, §5 address formats
// ---------------------------------------------------------------------------------------------

const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

function parseAmount(text: string | null | undefined): Amount | null {
  if (typeof text !== 'string') return null;
  const parsed = parseDecimal(text.trim(), AMOUNT_LIMITS);
  return parsed.ok ? parsed.value : null;
}

/** Units of the currency's last decimal, as canonical text ('1.5', '0.0001'). */
function unitsText(units: bigint, currency: string): string {
  return formatDecimal({ units, scale: currencyDecimals(currency) }, { trimZeros: true });
}

function baseFeeUnits(currency: string): bigint {
  const base = decimal(WITHDRAWAL_BASE_FEES[currency.toUpperCase()] ?? DEFAULT_WITHDRAWAL_BASE_FEE);
  return toScale(base, currencyDecimals(currency), 'up').units;
}

function feeUnits(amountUnits: bigint, currency: string, network?: WithdrawalNetwork | null): bigint {
  const proportional = (amountUnits * BigInt(WITHDRAWAL_FEE_BPS) + 9_999n) / 10_000n;
  // A network other than the currency's default has its own base fee (contracts withdrawal-networks.ts).
  const base =
    network && !network.is_default
      ? toScale(decimal(network.fee), currencyDecimals(currency), 'up').units
      : baseFeeUnits(currency);
  return proportional > base ? proportional : base;
}

/**
 * §9 "Withdrawal fallbacks": the larger of the currency's base fee and 0.1 % of the amount,
 * rounded up to the currency's decimals (as the server computes it); total = amount + fee.
 */
export function localWithdrawalFee(
  currency: string,
  amount: string,
  network?: WithdrawalNetwork | null,
): WithdrawalFeeEstimate | null {
  const code = currency.trim().toUpperCase();
  const parsed = parseAmount(amount);
  if (!parsed || parsed.units <= 0n) return null;
  const units = toUnits(parsed, currencyDecimals(code));
  if (!units.ok) return null;
  const fee = feeUnits(units.value, code, network);
  return {
    currency: code,
    amount: unitsText(units.value, code),
    fee: unitsText(fee, code),
    total_amount: unitsText(units.value + fee, code),
  };
}

/** §9's minimum withdrawal of a currency (0.001 when unknown). */
export function localMinimumWithdrawal(currency: string): string {
  return WITHDRAWAL_MINIMUMS[currency.trim().toUpperCase()] ?? DEFAULT_WITHDRAWAL_MINIMUM;
}

/**
 * "Max": the most that can leave an available balance once the §9 fee is added, cut to the
 * currency's decimals. The fee grows with the amount, so the largest amount whose amount + fee
 * fits is searched for (amount + fee only grows with the amount). Null when nothing fits.
 */
export function maxWithdrawalAmount(available: string | null | undefined, currency: string): string | null {
  const parsed = parseAmount(available ?? null);
  if (!parsed || parsed.units <= 0n) return null;
  const code = currency.trim().toUpperCase();
  const budget = toScale(parsed, currencyDecimals(code), 'down').units;
  let low = 0n;
  let high = budget;
  while (low < high) {
    const middle = (low + high + 1n) / 2n;
    if (middle + feeUnits(middle, code) <= budget) low = middle;
    else high = middle - 1n;
  }
  return low > 0n ? unitsText(low, code) : null;
}

/** Where the network needs a tag or memo with the address, what it is called (i18n key under wallet.withdraw.tagLabels). */
export const DESTINATION_TAG_LABELS: Readonly<Record<string, 'destinationTag' | 'memo' | 'comment'>> = {
  XRP: 'destinationTag',
  XLM: 'memo',
  EOS: 'memo',
  ATOM: 'memo',
  HBAR: 'memo',
  TON: 'comment',
};

export function destinationTagLabel(currency: string): 'destinationTag' | 'memo' | 'comment' | null {
  return DESTINATION_TAG_LABELS[currency.trim().toUpperCase()] ?? null;
}

/** XRP destination tags are unsigned 32-bit integers. */
const XRP_TAG_MAX = 4_294_967_295n;
export const EXTRA_ID_MAX_LENGTH = 64;

const ethereumAddress = /^0x[0-9a-fA-F]{40}$/;

/**
 * §5: address formats exist for btc, eth, ltc, xrp, usdt and usdc (usdt and usdc use the Ethereum
 * format); other currencies are not format-checked. The same shapes as the server's first check
 * (base58 legacy, bech32 segwit, testnet forms included); the server also verifies the checksum.
 */
export const ADDRESS_PATTERNS: Readonly<Record<string, RegExp>> = {
  BTC: /^(?:[13mn2][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87})$/i,
  ETH: ethereumAddress,
  LTC: /^(?:[LM3mnQ2][1-9A-HJ-NP-Za-km-z]{25,34}|(?:ltc1|tltc1)[02-9ac-hj-np-z]{8,87})$/i,
  XRP: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  USDT: ethereumAddress,
  USDC: ethereumAddress,
};

/** The shape of an address on each withdrawal network (the server also checks the checksum). */
export const NETWORK_ADDRESS_PATTERNS: Readonly<Record<AddressFormat, RegExp>> = {
  evm: ethereumAddress,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  tezos: /^(?:tz[1-4]|KT1)[1-9A-HJ-NP-Za-km-z]{33}$/,
  eos: /^[a-z1-5.]{1,12}$/,
};

/** §5: at least 10 characters. */
export const ADDRESS_MIN_LENGTH = 10;

// ---------------------------------------------------------------------------------------------
// The form's rules
// ---------------------------------------------------------------------------------------------

export interface WithdrawFormContext {
  /** Upper-case codes the wallet holds. */
  supportedCurrencies: readonly string[];
  /** Available balance per upper-case currency, when loaded. */
  available?: ReadonlyMap<string, string> | null;
  /** The minimum per upper-case currency (the server's, else §9's). */
  minimum: (currency: string) => string;
  /** The fee of the amount as typed (the server's estimate, else §9's), when known. */
  fee?: string | null;
  /** The account has two-factor on, or the server asked for the code. */
  twoFactorRequired: boolean;
  /** The chosen network of a currency on several (its address format); absent otherwise. */
  network?: WithdrawalNetwork | null;
}

const fieldError = (field: WithdrawField, key: string, values?: Record<string, string>): WithdrawFormError =>
  values ? { field, key, values } : { field, key };

function currencyOf(values: WithdrawFormValues): string {
  return values.currency.trim().toUpperCase();
}

function currencyError(values: WithdrawFormValues, context: WithdrawFormContext): WithdrawFormError | null {
  const currency = currencyOf(values);
  return context.supportedCurrencies.includes(currency)
    ? null
    : fieldError('currency', 'wallet.withdraw.errors.currencyNotSupported', { currency: currency || values.currency });
}

function amountError(values: WithdrawFormValues, context: WithdrawFormContext): WithdrawFormError | null {
  const text = normalizeAmountText(values.amount);
  if (text === '') return fieldError('amount', 'wallet.withdraw.errors.amountNotPositive');
  const amount = parseAmount(text);
  if (!amount) return fieldError('amount', 'errors.invalidAmount');
  if (amount.units <= 0n) return fieldError('amount', 'wallet.withdraw.errors.amountNotPositive');
  const currency = currencyOf(values);
  if (!context.supportedCurrencies.includes(currency)) return null;
  const decimals = currencyDecimals(currency);
  if (!toUnits(amount, decimals).ok) {
    return fieldError('amount', 'wallet.withdraw.errors.tooManyDecimals', { decimals: String(decimals), currency });
  }
  const minimumText = context.minimum(currency);
  const minimum = parseAmount(minimumText);
  if (minimum && compare(amount, minimum) < 0) {
    return fieldError('amount', 'wallet.withdraw.errors.belowMinimum', { minimum: minimumText, currency });
  }
  const availableText = context.available?.get(currency);
  const available = parseAmount(availableText);
  if (available) {
    const fee = parseAmount(context.fee ?? null);
    const total = fee ? add(amount, fee) : amount;
    if (compare(total, available) > 0) return fieldError('amount', 'errors.insufficientBalance');
  }
  return null;
}

function addressError(values: WithdrawFormValues, network?: WithdrawalNetwork | null): WithdrawFormError | null {
  const address = values.address.trim();
  if (address.length < ADDRESS_MIN_LENGTH || address.length > WITHDRAWAL_ADDRESS_MAX_LENGTH) {
    return fieldError('address', 'wallet.withdraw.errors.addressInvalid');
  }
  const currency = currencyOf(values);
  if (network && !network.is_default) {
    return NETWORK_ADDRESS_PATTERNS[network.address_format].test(address)
      ? null
      : fieldError('address', 'wallet.withdraw.errors.addressFormatNetwork', { currency, network: network.name });
  }
  const pattern = network ? NETWORK_ADDRESS_PATTERNS[network.address_format] : ADDRESS_PATTERNS[currency];
  if (pattern && !pattern.test(address)) {
    return fieldError('address', 'wallet.withdraw.errors.addressFormat', { currency });
  }
  return null;
}

function extraIdError(values: WithdrawFormValues): WithdrawFormError | null {
  const tag = values.extraId.trim();
  if (tag === '') return null;
  if (tag.length > EXTRA_ID_MAX_LENGTH) return fieldError('extraId', 'wallet.withdraw.errors.tagInvalid');
  if (currencyOf(values) === 'XRP' && (!/^\d{1,10}$/.test(tag) || BigInt(tag) > XRP_TAG_MAX)) {
    return fieldError('extraId', 'wallet.withdraw.errors.tagInvalid');
  }
  return null;
}

function twoFactorError(values: WithdrawFormValues, context: WithdrawFormContext): WithdrawFormError | null {
  if (!context.twoFactorRequired) return null;
  const code = values.twoFactorCode.trim();
  if (code === '') return fieldError('twoFactorCode', 'validation.twoFactorCodeRequired');
  if (!new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`).test(code)) {
    return fieldError('twoFactorCode', 'validation.twoFactorCodeLength');
  }
  return null;
}

/** Spec §5 withdrawal rules, at most one per field, in the form's order. */
export function withdrawFormErrors(values: WithdrawFormValues, context: WithdrawFormContext): WithdrawFormError[] {
  return [
    currencyError(values, context),
    amountError(values, context),
    addressError(values, context.network),
    extraIdError(values),
    twoFactorError(values, context),
  ].filter((error): error is WithdrawFormError => error !== null);
}

export function toWithdrawalRequest(
  values: WithdrawFormValues,
  twoFactorRequired: boolean,
  network?: WithdrawalNetwork | null,
): CreateWithdrawalRequest {
  const extraId = values.extraId.trim();
  const code = values.twoFactorCode.trim();
  return {
    // Spec §5: currency codes are lower-cased in requests.
    currency: values.currency.trim().toLowerCase(),
    amount: normalizeAmountText(values.amount),
    address: values.address.trim(),
    ...(extraId === '' ? {} : { extra_id: extraId }),
    ...(network ? { network: network.network } : {}),
    ...(twoFactorRequired && code !== '' ? { two_factor_code: code } : {}),
  };
}

export interface WithdrawFormSummary {
  errors: WithdrawFormError[];
  visibleErrors: Partial<Record<WithdrawField | 'form', WithdrawFormError>>;
  request: CreateWithdrawalRequest | null;
  currency: string;
  /** The amount as typed when it reads as a positive amount with the currency's decimals, else null. */
  amount: string | null;
  minimum: string;
  available: string | null;
  tagLabel: 'destinationTag' | 'memo' | 'comment' | null;
}

export function withdrawFormSummary(state: WithdrawFormState, context: WithdrawFormContext): WithdrawFormSummary {
  const errors = withdrawFormErrors(state.values, context);
  const currency = currencyOf(state.values);
  return {
    errors,
    visibleErrors: visibleFormErrors(errors, state),
    request: errors.length === 0 ? toWithdrawalRequest(state.values, context.twoFactorRequired, context.network) : null,
    currency,
    amount: feeableAmount(currency, state.values.amount),
    minimum: context.minimum(currency),
    available: context.available?.get(currency) ?? null,
    tagLabel: destinationTagLabel(currency),
  };
}

/** The typed amount, canonical, when a fee can be asked for it (positive, the currency's decimals). */
export function feeableAmount(currency: string, typed: string): string | null {
  return localWithdrawalFee(currency, normalizeAmountText(typed))?.amount ?? null;
}

// ---------------------------------------------------------------------------------------------
// The server's refusals, in the form's words
// ---------------------------------------------------------------------------------------------

const detailsSchema = z
  .object({ field: z.string().optional(), minimum: z.union([z.string(), z.number()]).optional() })
  .partial();

const fieldOfRequestField: Record<string, WithdrawField> = {
  currency: 'currency',
  amount: 'amount',
  address: 'address',
  extra_id: 'extraId',
  two_factor_code: 'twoFactorCode',
};

export interface WithdrawFailure {
  error: WithdrawFormError;
  /** The server wants a two-factor code with this withdrawal. */
  twoFactorAsked: boolean;
}

/**
 * A refused withdrawal as a form error, in the spec's words (§5, §8): the server's codes map to the
 * same keys as the client's rules; any other text shows as the server wrote it, and without one
 * 'Failed to create withdrawal'.
 */
export function withdrawErrorFromFailure(error: unknown, request: CreateWithdrawalRequest): WithdrawFailure {
  const plain = (formError: WithdrawFormError): WithdrawFailure => ({ error: formError, twoFactorAsked: false });
  if (!(error instanceof ApiError)) return plain({ field: 'form', key: 'wallet.withdraw.errors.failed' });
  if (error.isNetworkError) return plain({ field: 'form', key: 'wallet.withdraw.errors.networkRetrySafe' });
  const details = detailsSchema.safeParse(error.details);
  const currency = request.currency.toUpperCase();
  switch (error.code) {
    case 'WITHDRAWAL_TWO_FACTOR_REQUIRED':
      return { error: fieldError('twoFactorCode', 'wallet.withdraw.errors.twoFactorRequired'), twoFactorAsked: true };
    case 'WITHDRAWAL_TWO_FACTOR_INVALID':
      return { error: fieldError('twoFactorCode', 'wallet.withdraw.errors.twoFactorInvalid'), twoFactorAsked: true };
    case 'AMOUNT_NOT_POSITIVE':
      return plain(fieldError('amount', 'wallet.withdraw.errors.amountNotPositive'));
    case 'AMOUNT_BELOW_MINIMUM': {
      const minimum = details.success ? details.data.minimum : undefined;
      return plain(
        fieldError('amount', 'wallet.withdraw.errors.belowMinimum', {
          minimum: minimum === undefined ? localMinimumWithdrawal(currency) : String(minimum),
          currency,
        }),
      );
    }
    case 'INSUFFICIENT_BALANCE':
      return plain(fieldError('amount', 'errors.insufficientBalance'));
    case 'CURRENCY_NOT_SUPPORTED':
      return plain(fieldError('currency', 'wallet.withdraw.errors.currencyNotSupported', { currency }));
    case 'ADDRESS_INVALID':
      return plain(fieldError('address', 'wallet.withdraw.errors.addressInvalid'));
    case 'ADDRESS_FORMAT_INVALID':
      return plain(fieldError('address', 'wallet.withdraw.errors.addressFormat', { currency }));
    case 'DESTINATION_TAG_INVALID':
      return plain(fieldError('extraId', 'wallet.withdraw.errors.tagInvalid'));
    case 'INVALID_RESPONSE':
    case 'HTTP_ERROR':
      return plain({ field: 'form', key: 'wallet.withdraw.errors.failed' });
  }
  const field = details.success && details.data.field ? fieldOfRequestField[details.data.field] : undefined;
  // A message with values (the daily limit, decimals, a network) in the reader's language (docs/i18n.md "Server texts").
  const text = serverMessageKey(error);
  if (text) return plain(field ? fieldError(field, text.key, text.values) : { field: 'form', ...text });
  const key = error.message || 'wallet.withdraw.errors.failed';
  return plain(field ? fieldError(field, key) : { field: 'form', key });
}
