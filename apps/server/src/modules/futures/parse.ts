import type { PlaceFuturesOrderRequest } from '@platform/contracts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { isMarketLike } from './engine-orders.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { FuturesOrderState } from './types.ts';
import { parseUnits } from './units.ts';

/** Largest price any market takes, in ticks (far above any real one, exact in a double). */
const MAX_TICKS = 10n ** 15n;

export type ParsedOrder = Pick<
  FuturesOrderState,
  | 'marketId'
  | 'side'
  | 'type'
  | 'timeInForce'
  | 'postOnly'
  | 'reduceOnly'
  | 'closePosition'
  | 'priceTicks'
  | 'stopTicks'
  | 'takeProfitTicks'
  | 'stopLossTicks'
  | 'clientOrderId'
> & { quantityLots: number | null };

const invalid = (message: string) => fail('VALIDATION_ERROR', { message });

/** A price field as ticks: undefined when absent, null when malformed. */
export function priceTicksOf(
  spec: FuturesMarketSpec,
  value: string | number | undefined | null,
): number | null | undefined {
  if (value === undefined || value === null) return undefined;
  const units = parseUnits(value, spec.priceDecimals, MAX_TICKS);
  return units === null ? null : Number(units);
}

export function lotsOf(spec: FuturesMarketSpec, value: string | number | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const units = parseUnits(value, spec.quantityDecimals, BigInt(spec.maxLots));
  return units === null ? null : Number(units);
}

/** The request in ticks and lots, with every field the type needs and none it forbids. */
export function parseOrder(spec: FuturesMarketSpec, body: PlaceFuturesOrderRequest): Result<ParsedOrder> {
  const price = priceTicksOf(spec, body.price);
  const stop = priceTicksOf(spec, body.stop_price);
  const tp = priceTicksOf(spec, body.take_profit_price);
  const sl = priceTicksOf(spec, body.stop_loss_price);
  const quantity = lotsOf(spec, body.quantity);
  if (price === null || stop === null || tp === null || sl === null) {
    return invalid(`Prices must be positive with at most ${spec.priceDecimals} decimals`);
  }
  if (quantity === null) return invalid(`Quantity must be positive with at most ${spec.quantityDecimals} decimals`);
  const closePosition = body.close_position === true;
  if (closePosition && !isMarketLike(body.type))
    return invalid('close_position is for market and stop/take-profit market orders');
  if (!closePosition && quantity === undefined) return invalid('quantity is required');
  const needsPrice = body.type === 'limit' || body.type === 'stop_limit' || body.type === 'take_profit_limit';
  if (needsPrice !== (price !== undefined))
    return invalid(needsPrice ? 'price is required' : 'price is not used by this type');
  const needsStop = body.type !== 'market' && body.type !== 'limit';
  if (needsStop !== (stop !== undefined))
    return invalid(needsStop ? 'stop_price is required' : 'stop_price is not used by this type');
  if (body.post_only && body.type !== 'limit') return invalid('post_only is for limit orders');
  return ok({
    marketId: spec.id,
    side: body.side,
    type: body.type,
    timeInForce: body.time_in_force ?? (body.type === 'market' ? 'IOC' : 'GTC'),
    postOnly: body.post_only === true,
    reduceOnly: body.reduce_only === true || closePosition,
    closePosition,
    priceTicks: price ?? null,
    stopTicks: stop ?? null,
    takeProfitTicks: tp ?? null,
    stopLossTicks: sl ?? null,
    clientOrderId: body.client_order_id ?? null,
    quantityLots: closePosition ? null : (quantity ?? null),
  });
}
