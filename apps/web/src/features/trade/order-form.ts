import type { OrderSide, PlaceOrderRequest, TradingPair } from '@platform/contracts';
import {
  type Amount,
  add,
  applyPercent,
  compare,
  decimal,
  div,
  formatDecimal,
  gt,
  isPositive,
  lt,
  max,
  mul,
  parseDecimal,
} from '@platform/money';
import { toAmount } from '../../lib/format.ts';

/**
 * The spot order form of spec §2.6 and §5 (Orders) as plain data, testable without React: the
 * values as typed, the rules (`validate`), the request (`toPlaceOrderRequest`), the preview
 * (`summary`) and the percent-of-balance amounts. Amounts and prices stay decimal strings and
 * @platform/money amounts throughout; no JavaScript number ever holds one.
 */

/** The engine types the form offers, in the order of its tabs. */
export const ORDER_FORM_TYPES = ['limit', 'market', 'stop_limit', 'stop_loss', 'oco'] as const;
export type OrderFormType = (typeof ORDER_FORM_TYPES)[number];

/** Every input of the form; which ones a type uses is `orderFields`. */
export const ORDER_FORM_FIELDS = ['price', 'stopPrice', 'stopLimitPrice', 'amount', 'quoteAmount'] as const;
export type OrderFormField = (typeof ORDER_FORM_FIELDS)[number];
export type OrderFormValues = Readonly<Record<OrderFormField, string>>;

/** A market buy may be sized by the base quantity or by the quote amount to spend. */
export type AmountMode = 'base' | 'quote';

export interface OrderFormState {
  side: OrderSide;
  type: OrderFormType;
  values: OrderFormValues;
  amountMode: AmountMode;
  /**
   * Names this order for the server (placement is idempotent per id): the same id travels again on
   * a double click or a retry of the same values, so the order is placed once. A new one is drawn
   * when the order was placed or refused, and on any edit, since the server answers a reused id
   * with different parameters with a conflict.
   */
  clientOrderId: string;
  /** Set by the first submit: from then on the form shows its problems. */
  submitAttempted: boolean;
}

export type OrderFormAction =
  | { type: 'side'; side: OrderSide }
  | { type: 'orderType'; orderType: OrderFormType }
  | { type: 'edit'; field: OrderFormField; value: string }
  | { type: 'amountMode'; mode: AmountMode }
  /** A price picked in the order book or the trades. */
  | { type: 'priceClicked'; price: string }
  | { type: 'submitAttempted' }
  /** The server accepted the order: start the next one. */
  | { type: 'placed' }
  /** The server refused the order for good (not a lost answer): a retry is a new order. */
  | { type: 'refused' }
  /** Another market: its prices and sizes mean nothing here. */
  | { type: 'pairChanged' };

/** The spec's texts (§5 Orders), as i18n keys. */
export const ORDER_MESSAGES = {
  fillRequired: 'validation.fillAllRequiredFields',
  invalidAmount: 'errors.invalidAmount',
  invalidPrice: 'errors.invalidPrice',
} as const;
export type OrderMessageKey = (typeof ORDER_MESSAGES)[keyof typeof ORDER_MESSAGES];

export interface OrderFormError {
  field: OrderFormField;
  messageKey: OrderMessageKey;
}

/** crypto.randomUUID where it exists (secure contexts); random bytes otherwise. Matches CLIENT_ORDER_ID_PATTERN. */
export function newClientOrderId(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return `web-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

const EMPTY_VALUES: OrderFormValues = { price: '', stopPrice: '', stopLimitPrice: '', amount: '', quoteAmount: '' };

export function initialOrderFormState(
  side: OrderSide = 'buy',
  type: OrderFormType = 'limit',
  newId: () => string = newClientOrderId,
): OrderFormState {
  return { side, type, values: EMPTY_VALUES, amountMode: 'base', clientOrderId: newId(), submitAttempted: false };
}

/** The reducer, with the id source injected so that tests see fixed ids. */
export function createOrderFormReducer(newId: () => string = newClientOrderId) {
  const renewed = (state: OrderFormState, change: Partial<OrderFormState>): OrderFormState => ({
    ...state,
    ...change,
    clientOrderId: newId(),
  });
  return function orderFormReducer(state: OrderFormState, action: OrderFormAction): OrderFormState {
    switch (action.type) {
      case 'side':
        return state.side === action.side ? state : renewed(state, { side: action.side });
      case 'orderType':
        return state.type === action.orderType ? state : renewed(state, { type: action.orderType });
      case 'edit':
        if (state.values[action.field] === action.value) return state;
        return renewed(state, { values: { ...state.values, [action.field]: action.value } });
      case 'amountMode':
        return state.amountMode === action.mode ? state : renewed(state, { amountMode: action.mode });
      case 'priceClicked':
        return renewed(state, priceClickChange(state, action.price));
      case 'submitAttempted':
        return state.submitAttempted ? state : { ...state, submitAttempted: true };
      case 'placed':
        // The next order usually repeats the price; the size is typed afresh.
        return renewed(state, {
          values: { ...state.values, amount: '', quoteAmount: '' },
          submitAttempted: false,
        });
      case 'refused':
        return renewed(state, {});
      case 'pairChanged':
        return renewed(state, { values: EMPTY_VALUES, submitAttempted: false });
    }
  };
}

/**
 * A clicked price goes where a trader expects it: the limit price of a priced type, the trigger of
 * a stop market; a market order becomes a limit order at that price (a market has no price to set).
 */
function priceClickChange(state: OrderFormState, price: string): Partial<OrderFormState> {
  if (state.type === 'stop_loss') return { values: { ...state.values, stopPrice: price } };
  const type = state.type === 'market' ? 'limit' : state.type;
  return { type, values: { ...state.values, price } };
}

/** Whether the size is a quote amount: only a market buy offers that. */
export function effectiveAmountMode(state: Pick<OrderFormState, 'side' | 'type' | 'amountMode'>): AmountMode {
  return state.type === 'market' && state.side === 'buy' ? state.amountMode : 'base';
}

export interface OrderFieldSpec {
  field: OrderFormField;
  required: boolean;
}

/** The inputs a type shows, in screen order (which is also the order its problems are told). */
export function orderFields(state: Pick<OrderFormState, 'side' | 'type' | 'amountMode'>): OrderFieldSpec[] {
  const size: OrderFieldSpec = {
    field: effectiveAmountMode(state) === 'quote' ? 'quoteAmount' : 'amount',
    required: true,
  };
  switch (state.type) {
    case 'market':
      return [size];
    case 'limit':
      return [{ field: 'price', required: true }, size];
    case 'stop_limit':
      return [{ field: 'stopPrice', required: true }, { field: 'price', required: true }, size];
    case 'stop_loss':
      return [{ field: 'stopPrice', required: true }, size];
    case 'oco':
      return [
        { field: 'price', required: true },
        { field: 'stopPrice', required: true },
        { field: 'stopLimitPrice', required: false },
        size,
      ];
  }
}

type PairRules = Pick<
  TradingPair,
  'id' | 'price_precision' | 'quantity_precision' | 'min_trade_amount' | 'max_trade_amount' | 'maker_fee' | 'taker_fee'
>;

/** A positive decimal with at most `decimals` decimals, or null. Trailing zeros beyond it are fine. */
function positiveDecimal(text: string, decimals: number): Amount | null {
  const parsed = parseDecimal(text, { maxScale: decimals });
  return parsed.ok && isPositive(parsed.value) ? parsed.value : null;
}

/** A base quantity the pair accepts: positive, within its decimals, within its min and max. */
function validQuantity(text: string, pair: PairRules): Amount | null {
  const quantity = positiveDecimal(text, pair.quantity_precision);
  if (!quantity) return null;
  const min = toAmount(pair.min_trade_amount);
  const maxAmount = toAmount(pair.max_trade_amount);
  if (min && lt(quantity, min)) return null;
  if (maxAmount && gt(quantity, maxAmount)) return null;
  return quantity;
}

function fieldValue(field: OrderFormField, text: string, pair: PairRules): Amount | null {
  switch (field) {
    case 'amount':
      return validQuantity(text, pair);
    case 'quoteAmount':
      // Money to spend is counted in the quote's smallest price step (cents for USD).
      return positiveDecimal(text, pair.price_precision);
    default:
      return positiveDecimal(text, pair.price_precision);
  }
}

function problemKey(field: OrderFormField): OrderMessageKey {
  return field === 'amount' || field === 'quoteAmount' ? ORDER_MESSAGES.invalidAmount : ORDER_MESSAGES.invalidPrice;
}

/**
 * Every problem of the form, before anything is sent: the missing required fields first ('Please
 * fill all required fields'), then each filled field that is not acceptable ('Invalid amount',
 * 'Invalid price'), in screen order. Empty means the order may go.
 */
export function validate(state: OrderFormState, pair: PairRules): OrderFormError[] {
  const missing: OrderFormError[] = [];
  const invalid: OrderFormError[] = [];
  for (const { field, required } of orderFields(state)) {
    const text = state.values[field].trim();
    if (text === '') {
      if (required) missing.push({ field, messageKey: ORDER_MESSAGES.fillRequired });
      continue;
    }
    if (!fieldValue(field, text, pair)) invalid.push({ field, messageKey: problemKey(field) });
  }
  return [...missing, ...invalid];
}

const REQUEST_FIELD: Record<OrderFormField, keyof PlaceOrderRequest> = {
  price: 'price',
  stopPrice: 'stop_price',
  stopLimitPrice: 'stop_limit_price',
  amount: 'quantity',
  quoteAmount: 'quote_amount',
};

/**
 * The contract's request for a valid form, or null while it has problems. Only the fields of the
 * order's type travel (the server refuses a field its type does not use), as canonical decimal
 * strings, with the form's client order id.
 */
export function toPlaceOrderRequest(state: OrderFormState, pair: PairRules): PlaceOrderRequest | null {
  if (validate(state, pair).length > 0) return null;
  const request: PlaceOrderRequest = {
    trading_pair: pair.id,
    side: state.side,
    type: state.type,
    client_order_id: state.clientOrderId,
  };
  for (const { field } of orderFields(state)) {
    const text = state.values[field].trim();
    if (text === '') continue;
    const value = fieldValue(field, text, pair);
    if (value) Object.assign(request, { [REQUEST_FIELD[field]]: formatDecimal(value) });
  }
  return request;
}

export interface BalanceLike {
  currency: string;
  available: string;
}

export interface OrderSummary {
  /** What the order spends: the quote for a buy, the base for a sell. */
  spendCurrency: string;
  /** Available balance of `spendCurrency`; null when unknown (signed out, not loaded). */
  available: string | null;
  /** The price the preview uses, or null. */
  price: string | null;
  /** True when that price is a guess: the last price (market), or the trigger (stop market). */
  estimated: boolean;
  /** Base quantity (typed, or estimated from the quote amount of a market buy). */
  quantity: string | null;
  /** price x quantity, in the quote currency. */
  total: string | null;
  /** The taker fee on the total, in the quote currency. */
  fee: string | null;
  /** The taker fee rate in percent ('0.1' = 0.1 %). */
  feeRatePercent: string;
}

function typedPrice(state: OrderFormState, field: OrderFormField, pair: PairRules): Amount | null {
  const text = state.values[field].trim();
  return text === '' ? null : positiveDecimal(text, pair.price_precision);
}

/** The price an order of this type is expected to trade at, and whether that is only a guess. */
function previewPrice(
  state: OrderFormState,
  pair: PairRules,
  lastPrice: string | null,
): { price: Amount | null; estimated: boolean } {
  switch (state.type) {
    case 'market': {
      const last = toAmount(lastPrice);
      return { price: last && isPositive(last) ? last : null, estimated: true };
    }
    case 'stop_loss':
      return { price: typedPrice(state, 'stopPrice', pair), estimated: true };
    default:
      return { price: typedPrice(state, 'price', pair), estimated: false };
  }
}

export function availableOf(balances: readonly BalanceLike[] | null | undefined, currency: string): string | null {
  if (!balances) return null;
  const wanted = currency.toUpperCase();
  return balances.find((balance) => balance.currency.toUpperCase() === wanted)?.available ?? '0';
}

/** The preview under the form: what is spent, at what price, the total and the fee. */
export function summary(
  state: OrderFormState,
  pair: PairRules & Pick<TradingPair, 'base_currency' | 'quote_currency'>,
  balances: readonly BalanceLike[] | null | undefined,
  lastPrice: string | null = null,
): OrderSummary {
  const spendCurrency = state.side === 'buy' ? pair.quote_currency : pair.base_currency;
  const feeRate = toAmount(pair.taker_fee) ?? decimal('0');
  const { price, estimated } = previewPrice(state, pair, lastPrice);
  let quantity: Amount | null = null;
  let total: Amount | null = null;
  if (effectiveAmountMode(state) === 'quote') {
    total = typedAmount(state.values.quoteAmount, pair.price_precision);
    quantity = total && price ? div(total, price, pair.quantity_precision, 'down') : null;
  } else {
    quantity = typedAmount(state.values.amount, pair.quantity_precision);
    total = quantity && price ? mul(price, quantity) : null;
  }
  return {
    spendCurrency,
    available: availableOf(balances, spendCurrency),
    price: price ? formatDecimal(price) : null,
    estimated,
    quantity: quantity ? formatDecimal(quantity) : null,
    total: total ? formatDecimal(total) : null,
    // Exact: the fee rate's decimals plus two for the percent.
    fee: total ? formatDecimal(applyPercent(total, feeRate, total.scale + feeRate.scale + 2, 'up')) : null,
    feeRatePercent: formatDecimal(feeRate),
  };
}

function typedAmount(text: string, decimals: number): Amount | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : positiveDecimal(trimmed, decimals);
}

/** The marks of the percent-of-balance slider. */
export const PERCENT_MARKS = [25, 50, 75, 100] as const;

const HUNDRED = decimal('100');

/** The larger of the two fee rates: what the server holds with a buy, since it does not know which applies. */
function heldFeePercent(pair: PairRules): Amount {
  return max(toAmount(pair.maker_fee) ?? decimal('0'), toAmount(pair.taker_fee) ?? decimal('0'));
}

/**
 * The price a buy's funds are held at: its limit price; for an OCO the dearer leg (the stop leg's
 * limit, or its trigger); for a stop market its trigger; for a market order the last price.
 */
function holdPrice(state: OrderFormState, pair: PairRules, lastPrice: string | null): Amount | null {
  switch (state.type) {
    case 'market': {
      const last = toAmount(lastPrice);
      return last && isPositive(last) ? last : null;
    }
    case 'stop_loss':
      return typedPrice(state, 'stopPrice', pair);
    case 'oco': {
      const limit = typedPrice(state, 'price', pair);
      const stopLeg = typedPrice(state, 'stopLimitPrice', pair) ?? typedPrice(state, 'stopPrice', pair);
      return limit && stopLeg ? max(limit, stopLeg) : (limit ?? stopLeg);
    }
    default:
      return typedPrice(state, 'price', pair);
  }
}

/**
 * The size that uses `percent` of the available balance, or null when it cannot be known (no
 * balance, no price to buy at):
 * - a sell: available base x percent, floored to the pair's quantity step;
 * - a buy by quantity: available quote x percent / (price x (1 + fee)), floored to the quantity
 *   step; the fee is in because the server holds it with the order, so 100 % still fits;
 * - a market buy by quote amount: available quote x percent / (1 + fee), floored to the price step.
 */
export function amountForPercent(
  state: OrderFormState,
  pair: PairRules,
  available: string | null,
  lastPrice: string | null,
  percent: number,
): { field: 'amount' | 'quoteAmount'; value: string } | null {
  const balance = toAmount(available);
  if (!balance || !Number.isInteger(percent) || percent < 0 || percent > 100) return null;
  const share = mul(balance, decimal(String(percent)));
  if (state.side === 'sell') {
    return { field: 'amount', value: sized(div(share, HUNDRED, pair.quantity_precision, 'floor')) };
  }
  const withFee = add(HUNDRED, heldFeePercent(pair));
  if (effectiveAmountMode(state) === 'quote') {
    return { field: 'quoteAmount', value: sized(div(share, withFee, pair.price_precision, 'floor')) };
  }
  const price = holdPrice(state, pair, lastPrice);
  if (!price) return null;
  return { field: 'amount', value: sized(div(share, mul(price, withFee), pair.quantity_precision, 'floor')) };
}

/** A size as typed: no trailing zeros ('0.001', not '0.0010000'). */
function sized(value: Amount): string {
  return formatDecimal(value, { trimZeros: true });
}

/**
 * Where the slider stands for the size typed: the share of the balance it uses, 0 to 100, whole
 * percent rounded down. A number only because it positions a thumb on the screen.
 */
export function percentOfAvailable(
  state: OrderFormState,
  pair: PairRules,
  available: string | null,
  lastPrice: string | null,
): number {
  const balance = toAmount(available);
  if (!balance || !isPositive(balance)) return 0;
  let used: Amount | null;
  if (state.side === 'sell') {
    used = typedAmount(state.values.amount, pair.quantity_precision);
  } else {
    const withFee = add(HUNDRED, heldFeePercent(pair));
    if (effectiveAmountMode(state) === 'quote') {
      const quote = typedAmount(state.values.quoteAmount, pair.price_precision);
      used = quote ? div(mul(quote, withFee), HUNDRED, quote.scale + 4, 'up') : null;
    } else {
      const quantity = typedAmount(state.values.amount, pair.quantity_precision);
      const price = holdPrice(state, pair, lastPrice);
      used = quantity && price ? div(mul(mul(quantity, price), withFee), HUNDRED, 18, 'up') : null;
    }
  }
  if (!used) return 0;
  const percent = div(mul(used, HUNDRED), balance, 0, 'floor');
  if (compare(percent, HUNDRED) >= 0) return 100;
  return Number(percent.units);
}
