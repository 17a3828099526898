import type { FuturesMarket, FuturesOrderType, PlaceFuturesOrderRequest } from '@platform/contracts';
import {
  type Amount,
  add,
  compare,
  div,
  floorToStep,
  formatDecimal,
  isPositive,
  mul,
  parseDecimal,
  stripTrailingZeros,
} from '@platform/money';
import { toAmount } from '../../../lib/format.ts';
import { stepDecimals } from '../futures-format.ts';

/**
 * The futures order form's rules as plain functions: which fields a type has, validation in the
 * spec's words, the request it sends, and the percent-of-available sizing. Exact throughout.
 */

export type Side = 'buy' | 'sell';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

export interface FuturesFormState {
  side: Side;
  type: FuturesOrderType;
  price: string;
  stopPrice: string;
  quantity: string;
  timeInForce: TimeInForce;
  postOnly: boolean;
  reduceOnly: boolean;
  tpsl: boolean;
  takeProfit: string;
  stopLoss: string;
}

export const initialFormState: FuturesFormState = {
  side: 'buy',
  type: 'limit',
  price: '',
  stopPrice: '',
  quantity: '',
  timeInForce: 'GTC',
  postOnly: false,
  reduceOnly: false,
  tpsl: false,
  takeProfit: '',
  stopLoss: '',
};

export const hasLimitPrice = (type: FuturesOrderType) =>
  type === 'limit' || type === 'stop_limit' || type === 'take_profit_limit';
export const hasStopPrice = (type: FuturesOrderType) => type !== 'market' && type !== 'limit';

export type FormError = 'required' | 'invalidQuantity' | 'invalidPrice';

function parsePositive(text: string, decimals: number): Amount | null {
  const parsed = parseDecimal(text.trim(), { maxScale: decimals });
  return parsed.ok && isPositive(parsed.value) ? parsed.value : null;
}

function quantityOk(text: string, market: FuturesMarket): boolean {
  const quantity = parsePositive(text, stepDecimals(market.lot_size));
  const min = toAmount(market.min_quantity);
  const max = toAmount(market.max_quantity);
  if (!quantity) return false;
  if (min && compare(quantity, min) < 0) return false;
  return !(max && isPositive(max) && compare(quantity, max) > 0);
}

function priceFields(state: FuturesFormState): string[] {
  const fields: string[] = [];
  if (hasLimitPrice(state.type)) fields.push(state.price);
  if (hasStopPrice(state.type)) fields.push(state.stopPrice);
  if (state.tpsl) fields.push(...[state.takeProfit, state.stopLoss].filter((text) => text.trim() !== ''));
  return fields;
}

/** The first thing wrong with the form, or null when it can be sent. */
export function validate(state: FuturesFormState, market: FuturesMarket): FormError | null {
  const required = [state.quantity, ...(hasLimitPrice(state.type) ? [state.price] : [])];
  if (hasStopPrice(state.type)) required.push(state.stopPrice);
  if (required.some((text) => text.trim() === '')) return 'required';
  if (!quantityOk(state.quantity, market)) return 'invalidQuantity';
  const tickDecimals = stepDecimals(market.tick_size);
  if (priceFields(state).some((text) => parsePositive(text, tickDecimals) === null)) return 'invalidPrice';
  return null;
}

/** The request of a valid form (null otherwise); the preview is asked with the same body. */
export function toOrderRequest(
  state: FuturesFormState,
  market: FuturesMarket,
  clientOrderId?: string,
): PlaceFuturesOrderRequest | null {
  if (validate(state, market) !== null) return null;
  const limit = hasLimitPrice(state.type);
  const request: PlaceFuturesOrderRequest = {
    market: market.id,
    side: state.side,
    type: state.type,
    quantity: state.quantity.trim(),
    ...(limit ? { price: state.price.trim(), time_in_force: state.timeInForce } : {}),
    ...(hasStopPrice(state.type) ? { stop_price: state.stopPrice.trim() } : {}),
    ...(limit && state.postOnly && state.timeInForce === 'GTC' ? { post_only: true } : {}),
    ...(state.reduceOnly ? { reduce_only: true } : {}),
    ...(clientOrderId ? { client_order_id: clientOrderId } : {}),
  };
  if (state.tpsl && state.takeProfit.trim()) request.take_profit_price = state.takeProfit.trim();
  if (state.tpsl && state.stopLoss.trim()) request.stop_loss_price = state.stopLoss.trim();
  return request;
}

/**
 * The size that `percent` of the available balance opens at `leverage`, its fee included:
 * margin + fee = notional / leverage + notional x taker rate, so
 * notional = available x percent x leverage / (1 + leverage x taker rate); floored to the lot.
 */
export function quantityForPercent(
  available: string,
  percent: number,
  leverage: number,
  price: string,
  market: Pick<FuturesMarket, 'lot_size' | 'taker_fee_rate'>,
): string | null {
  const balance = toAmount(available);
  const at = toAmount(price);
  const lot = toAmount(market.lot_size);
  const fee = toAmount(market.taker_fee_rate);
  if (!balance || !at || !lot || !fee || !isPositive(at) || !isPositive(lot) || percent <= 0) return null;
  const lev: Amount = { units: BigInt(leverage), scale: 0 };
  const share = div(mul(balance, { units: BigInt(percent), scale: 0 }), { units: 100n, scale: 0 }, 18, 'floor');
  const notional = div(mul(share, lev), add({ units: 1n, scale: 0 }, mul(lev, fee)), 18, 'floor');
  const quantity = floorToStep(div(notional, at, 18, 'floor'), lot);
  return isPositive(quantity) ? formatDecimal(stripTrailingZeros(quantity)) : null;
}
