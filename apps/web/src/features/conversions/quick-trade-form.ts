import { ApiError } from '../../api/client.ts';
import type { ExecuteTradeBody } from '../../api/conversions.ts';
import { createIdempotencyKey } from '../wallet/transfer-form.ts';
import { type AmountProblem, amountForRequest, amountProblem } from './convert-form.ts';

/**
 * The quick trade of spec §3.5 (sell_currency, buy_currency, sell_amount, target_amount,
 * trade_type) as plain data: the values, the rules (sell amount with the sell currency's decimals
 * and the balance, the optional least-to-receive with the buy currency's), and the request.
 */

export const quickTradeFields = ['sell', 'buy', 'amount', 'target'] as const;
export type QuickTradeField = (typeof quickTradeFields)[number];
export type QuickTradeValues = Record<QuickTradeField, string>;

export interface QuickTradeState {
  values: QuickTradeValues;
  touched: Readonly<Record<QuickTradeField, boolean>>;
  submitAttempted: boolean;
  /** Names this payload for the server: kept while the values stay (a retry cannot trade twice), new on any edit. */
  idempotencyKey: string;
}

export type QuickTradeAction =
  | { type: 'edit'; field: QuickTradeField; value: string }
  | { type: 'swap' }
  | { type: 'blur'; field: QuickTradeField }
  | { type: 'submitAttempted' }
  | { type: 'executed' };

const untouched = { sell: false, buy: false, amount: false, target: false };

export function initialQuickTradeState(
  sell: string,
  buy: string,
  newKey: () => string = createIdempotencyKey,
): QuickTradeState {
  return {
    values: { sell, buy, amount: '', target: '' },
    touched: untouched,
    submitAttempted: false,
    idempotencyKey: newKey(),
  };
}

export function createQuickTradeReducer(newKey: () => string = createIdempotencyKey) {
  return function quickTradeReducer(state: QuickTradeState, action: QuickTradeAction): QuickTradeState {
    switch (action.type) {
      case 'edit': {
        if (state.values[action.field] === action.value) return state;
        const values = { ...state.values, [action.field]: action.value };
        // A least-to-receive set for one currency means nothing for another.
        if (action.field === 'buy') values.target = '';
        return { ...state, values, idempotencyKey: newKey() };
      }
      case 'swap':
        return {
          ...state,
          values: { ...state.values, sell: state.values.buy, buy: state.values.sell, target: '' },
          idempotencyKey: newKey(),
        };
      case 'blur':
        return state.touched[action.field] ? state : { ...state, touched: { ...state.touched, [action.field]: true } };
      case 'submitAttempted':
        return { ...state, submitAttempted: true };
      case 'executed':
        return initialQuickTradeState(state.values.sell, state.values.buy, newKey);
    }
  };
}

export interface QuickTradeSummary {
  sell: string;
  buy: string;
  errors: Partial<Record<QuickTradeField, AmountProblem>>;
  /** What to show: the rules of the fields left (all once a trade was tried). */
  visibleErrors: Partial<Record<QuickTradeField, AmountProblem>>;
  request: ExecuteTradeBody | null;
}

export function quickTradeSummary(state: QuickTradeState, available: string | null): QuickTradeSummary {
  const { values } = state;
  const sell = values.sell.trim().toUpperCase();
  const buy = values.buy.trim().toUpperCase();
  const errors: QuickTradeSummary['errors'] = {};
  if (sell === buy) errors.buy = { key: 'wallet.convert.errors.samePair' };
  const amount = amountProblem(values.amount, sell, available);
  if (amount) errors.amount = amount;
  if (values.target.trim() !== '') {
    const target = amountProblem(values.target, buy, null);
    if (target) errors.target = target;
  }
  const visibleErrors: QuickTradeSummary['visibleErrors'] = {};
  for (const [field, problem] of Object.entries(errors) as [QuickTradeField, AmountProblem][]) {
    if (state.submitAttempted || state.touched[field] || field === 'buy') visibleErrors[field] = problem;
  }
  const valid = Object.keys(errors).length === 0;
  return {
    sell,
    buy,
    errors,
    visibleErrors,
    request: valid
      ? {
          sell_currency: sell,
          buy_currency: buy,
          sell_amount: amountForRequest(values.amount),
          target_amount: values.target.trim() === '' ? undefined : amountForRequest(values.target),
        }
      : null,
  };
}

/** Where a refused trade's text shows: the price moved past the target, the balance, or the form. */
export function quickTradeFailureField(error: unknown): QuickTradeField | 'form' {
  if (!(error instanceof ApiError)) return 'form';
  if (error.code === 'SLIPPAGE_EXCEEDED') return 'target';
  if (['INSUFFICIENT_BALANCE', 'AMOUNT_NOT_POSITIVE', 'AMOUNT_BELOW_MINIMUM', 'INVALID_AMOUNT'].includes(error.code)) {
    return 'amount';
  }
  if (error.code === 'CONVERSION_NOT_SUPPORTED') return 'buy';
  return 'form';
}
