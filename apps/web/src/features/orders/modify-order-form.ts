import type { ModifyOrderRequest, Order, OrderType, TradingPair } from '@platform/contracts';
import { compare, formatDecimal, gt, isPositive, lte, parseDecimal, stripTrailingZeros } from '@platform/money';

/**
 * The modify-order form as a plain object (dYdX v4-web style): which fields an order type has,
 * the values as typed, the checks with the spec's texts (§5 Orders: 'Invalid amount', 'Invalid
 * price', 'Please fill all required fields'), and the request carrying only what changed.
 */

export type ModifyField = 'price' | 'stopPrice' | 'quantity';

export type ModifyFormValues = Record<ModifyField, string>;

/** i18n keys of the form's messages. */
export type ModifyMessageKey =
  | 'errors.invalidAmount'
  | 'errors.invalidPrice'
  | 'validation.fillAllRequiredFields'
  | 'history.modify.nothingChanged';

export interface ModifyProblem {
  /** null: the form as a whole. */
  field: ModifyField | null;
  messageKey: ModifyMessageKey;
}

/** The engine's rule: a limit price for these types, a trigger price for those (server trading service). */
const PRICED_TYPES: ReadonlySet<OrderType> = new Set(['limit', 'stop_limit', 'take_profit_limit', 'oco']);
const STOP_TYPES: ReadonlySet<OrderType> = new Set([
  'stop_loss',
  'stop_limit',
  'take_profit',
  'take_profit_limit',
  'oco',
]);

/** The fields an open order of this type can change; a market order has none (it never rests). */
export function modifiableFields(type: OrderType): ModifyField[] {
  if (type === 'market') return [];
  return [
    ...(PRICED_TYPES.has(type) ? (['price'] as const) : []),
    ...(STOP_TYPES.has(type) ? (['stopPrice'] as const) : []),
    'quantity',
  ];
}

export function canModify(order: Pick<Order, 'type' | 'quantity'>): boolean {
  return order.quantity !== null && modifiableFields(order.type).length > 0;
}

const trimmed = (value: string | null) => (value === null ? '' : stripText(value));

/** '0.0100' -> '0.01': the form starts from the order's values as a person would type them. */
function stripText(value: string): string {
  const parsed = parseDecimal(value, { maxScale: 36, maxIntegerDigits: 40 });
  return parsed.ok ? formatDecimal(stripTrailingZeros(parsed.value)) : value;
}

export function initialModifyValues(order: Order): ModifyFormValues {
  return {
    price: trimmed(order.price),
    stopPrice: trimmed(order.stop_price),
    quantity: trimmed(order.quantity),
  };
}

/** A positive plain decimal with at most `decimals` digits after the point, or null. */
function positiveDecimal(text: string, decimals: number | undefined) {
  const parsed = parseDecimal(text.trim(), { maxScale: decimals ?? 18 });
  return parsed.ok && isPositive(parsed.value) ? parsed.value : null;
}

function checkPrice(text: string, field: 'price' | 'stopPrice', pair: TradingPair | undefined): ModifyProblem | null {
  if (text.trim() === '') return { field, messageKey: 'validation.fillAllRequiredFields' };
  return positiveDecimal(text, pair?.price_precision) ? null : { field, messageKey: 'errors.invalidPrice' };
}

function checkQuantity(text: string, order: Order, pair: TradingPair | undefined): ModifyProblem | null {
  if (text.trim() === '') return { field: 'quantity', messageKey: 'validation.fillAllRequiredFields' };
  const quantity = positiveDecimal(text, pair?.quantity_precision);
  const invalid: ModifyProblem = { field: 'quantity', messageKey: 'errors.invalidAmount' };
  if (!quantity) return invalid;
  // The new total must stay above what has filled, and within the pair's trade size.
  const filled = parseDecimal(order.filled_quantity);
  if (filled.ok && lte(quantity, filled.value)) return invalid;
  const minimum = pair ? parseDecimal(pair.min_trade_amount) : null;
  if (minimum?.ok && isPositive(minimum.value) && compare(quantity, minimum.value) < 0) return invalid;
  const maximum = pair ? parseDecimal(pair.max_trade_amount) : null;
  if (maximum?.ok && isPositive(maximum.value) && gt(quantity, maximum.value)) return invalid;
  return null;
}

/** Whether a typed value says the same as the order's (so it is not sent). */
function sameValue(typed: string, current: string | null): boolean {
  if (current === null) return typed.trim() === '';
  const a = parseDecimal(typed.trim(), { maxScale: 36, maxIntegerDigits: 40 });
  const b = parseDecimal(current, { maxScale: 36, maxIntegerDigits: 40 });
  return a.ok && b.ok && compare(a.value, b.value) === 0;
}

const orderValueOf: Record<ModifyField, (order: Order) => string | null> = {
  price: (order) => order.price,
  stopPrice: (order) => order.stop_price,
  quantity: (order) => order.quantity,
};

/** The problems of the form, field ones first; none means it can be sent. */
export function validateModify(values: ModifyFormValues, order: Order, pair: TradingPair | undefined): ModifyProblem[] {
  const fields = modifiableFields(order.type);
  const problems: ModifyProblem[] = [];
  for (const field of fields) {
    const problem =
      field === 'quantity' ? checkQuantity(values.quantity, order, pair) : checkPrice(values[field], field, pair);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) return problems;
  const changed = fields.some((field) => !sameValue(values[field], orderValueOf[field](order)));
  return changed ? [] : [{ field: null, messageKey: 'history.modify.nothingChanged' }];
}

/** The modify call's body: only the fields that changed, as the typed decimal strings. */
export function toModifyRequest(values: ModifyFormValues, order: Order): ModifyOrderRequest {
  const request: ModifyOrderRequest = {};
  const fields = modifiableFields(order.type);
  const changed = (field: ModifyField) =>
    fields.includes(field) && !sameValue(values[field], orderValueOf[field](order));
  if (changed('price')) request.price = values.price.trim();
  if (changed('stopPrice')) request.stop_price = values.stopPrice.trim();
  if (changed('quantity')) request.quantity = values.quantity.trim();
  return request;
}
