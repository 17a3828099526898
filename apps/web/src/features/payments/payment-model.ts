import {
  type LightningPayment,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  type Payment,
  type PaymentStatusName,
} from '@platform/contracts';
import { parseDecimal, toUnits } from '@platform/money';
import { readJsonStorage, writeStorage } from '../../lib/safe-storage.ts';
import type { Tone } from '../../theme/status.ts';
import { currencyDecimals, normalizeAmountText } from '../wallet/transfer-form.ts';

/**
 * The Create Payment tab as plain data (spec §2.7, §3.5, §4, §7.4): the forms' rules in the spec's
 * words, how a payment's status and expiry read, and the list of payments created from this
 * browser (the contracts have no "my payments" list; their status is read back in one batch call).
 */

export const paymentKinds = ['payment', 'lightning'] as const;
export type PaymentKind = (typeof paymentKinds)[number];

/** How often an open payment or invoice is read again while it is shown. */
export const PAYMENT_POLL_INTERVAL_MS = 3_000;

/** Lightning amounts are in BTC, to the satoshi. */
export const LIGHTNING_DECIMALS = 8;

export interface FieldProblem {
  key: string;
  values?: Record<string, string>;
}

const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;

/** A positive decimal with at most `decimals` decimals ('Amount must be greater than zero'). */
export function paymentAmountProblem(typed: string, decimals: number, currency: string): FieldProblem | null {
  const text = normalizeAmountText(typed);
  if (text === '') return { key: 'wallet.payment.errors.amountNotPositive' };
  const parsed = parseDecimal(text, AMOUNT_LIMITS);
  if (!parsed.ok) return { key: 'errors.invalidAmount' };
  if (parsed.value.units <= 0n) return { key: 'wallet.payment.errors.amountNotPositive' };
  if (!toUnits(parsed.value, decimals).ok) {
    return { key: 'wallet.payment.errors.tooManyDecimals', values: { decimals: String(decimals), currency } };
  }
  return null;
}

export function descriptionProblem(text: string): FieldProblem | null {
  return text.trim().length > PAYMENT_DESCRIPTION_MAX_LENGTH
    ? { key: 'wallet.payment.errors.descriptionTooLong', values: { max: String(PAYMENT_DESCRIPTION_MAX_LENGTH) } }
    : null;
}

export interface PaymentFormValues {
  description: string;
  amount: string;
  /** The order currency: what the amount is in and what is credited. */
  currency: string;
  /** The crypto the payer pays with; '' lets the payer choose at the checkout. */
  payWith: string;
}

export function paymentFormProblems(
  values: PaymentFormValues,
): Partial<Record<'description' | 'amount', FieldProblem>> {
  const currency = values.currency.trim().toUpperCase();
  const problems: Partial<Record<'description' | 'amount', FieldProblem>> = {};
  const description = descriptionProblem(values.description);
  if (description) problems.description = description;
  const amount = paymentAmountProblem(values.amount, currencyDecimals(currency), currency);
  if (amount) problems.amount = amount;
  return problems;
}

export function lightningFormProblems(values: {
  description: string;
  amount: string;
}): Partial<Record<'description' | 'amount', FieldProblem>> {
  const problems: Partial<Record<'description' | 'amount', FieldProblem>> = {};
  const description = descriptionProblem(values.description);
  if (description) problems.description = description;
  const amount = paymentAmountProblem(values.amount, LIGHTNING_DECIMALS, 'BTC');
  if (amount) problems.amount = amount;
  return problems;
}

/** Status colour families, shared with the wallet's §4 statuses. */
export type StatusTone = 'pending' | 'completed' | 'failed' | 'neutral';

/** The theme's tone (data-tone) each family shows in. */
export const STATUS_TONE_THEME: Readonly<Record<StatusTone, Tone>> = {
  pending: 'warning',
  completed: 'success',
  failed: 'danger',
  neutral: 'neutral',
};

export const PAYMENT_STATUS_TONE: Readonly<Record<PaymentStatusName, StatusTone>> = {
  waiting: 'pending',
  confirming: 'pending',
  paid: 'completed',
  underpaid: 'failed',
  expired: 'neutral',
  failed: 'failed',
  refunded: 'neutral',
};

export const LIGHTNING_STATUS_TONE: Readonly<Record<LightningPayment['status'], StatusTone>> = {
  waiting: 'pending',
  paid: 'completed',
  expired: 'neutral',
};

export function isFinalLightning(status: LightningPayment['status']): boolean {
  return status !== 'waiting';
}

/** Whole seconds left until `expiresAt` (never negative); null for an unreadable date. */
export function secondsLeft(expiresAt: string, now: number): number | null {
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.floor((end - now) / 1000));
}

/** '24:59', '1:00:00': minutes and seconds, hours when there are any. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(rest)}` : `${two(minutes)}:${two(rest)}`;
}

/**
 * A BOLT11 invoice as a payer's wallet opens it from a QR code. Upper case on purpose: bech32 is
 * case-insensitive, and upper case fits the QR alphanumeric mode, a code with far fewer modules
 * (BOLT11's own recommendation), so it scans from a screen more easily.
 */
export function lightningUri(invoice: string): string {
  return `LIGHTNING:${invoice.toUpperCase()}`;
}

/** How a pay-with code reads: 'LNBC' is bitcoin over Lightning. */
export function payWithCurrencyName(code: string): string {
  return code.toUpperCase() === 'LNBC' ? 'BTC ⚡' : code.toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// The payments created from this browser
// ---------------------------------------------------------------------------------------------

export interface RememberedPayment {
  kind: PaymentKind;
  id: string;
}

/** Most payments remembered per account. */
export const REMEMBERED_PAYMENTS_MAX = 20;

const storageKey = (accountId: string) => `wallet.payments.${accountId}`;

function isRemembered(value: unknown): value is RememberedPayment {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (entry.kind === 'payment' || entry.kind === 'lightning') && typeof entry.id === 'string';
}

export function readRememberedPayments(accountId: string): RememberedPayment[] {
  const stored = readJsonStorage(storageKey(accountId));
  return Array.isArray(stored) ? stored.filter(isRemembered).slice(0, REMEMBERED_PAYMENTS_MAX) : [];
}

/** Newest first; a payment already listed moves to the front. */
export function rememberPayment(list: readonly RememberedPayment[], entry: RememberedPayment): RememberedPayment[] {
  const rest = list.filter((item) => !(item.kind === entry.kind && item.id === entry.id));
  return [entry, ...rest].slice(0, REMEMBERED_PAYMENTS_MAX);
}

export function writeRememberedPayments(accountId: string, list: readonly RememberedPayment[]): void {
  writeStorage(storageKey(accountId), JSON.stringify(list));
}

/** A payment's amount line: '25 USD', and what the payer sends once a crypto was chosen. */
export function paymentPayWith(payment: Pick<Payment, 'crypto_currency' | 'crypto_amount'>): string | null {
  if (!payment.crypto_currency) return null;
  const name = payWithCurrencyName(payment.crypto_currency);
  return payment.crypto_amount ? `${payment.crypto_amount} ${name}` : name;
}
