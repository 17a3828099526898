import type { FuturesOrderType } from '@platform/contracts';
import type { MarketOrderType, PlaceOrderCommand } from '@platform/engine';
import type { FuturesOrderState } from './types.ts';

/** The spot engine's order type for a futures order type (the perp books reuse the spot matching). */
export function engineOrderType(type: FuturesOrderType): MarketOrderType {
  switch (type) {
    case 'market':
      return 'market';
    case 'limit':
      return 'limit';
    case 'stop_market':
      return 'stop_loss';
    case 'stop_limit':
      return 'stop_limit';
    case 'take_profit_market':
      return 'take_profit';
    case 'take_profit_limit':
      return 'take_profit_limit';
  }
}

/** Types that trade at market once they trade (no limit price). */
export const isMarketLike = (type: FuturesOrderType) =>
  type === 'market' || type === 'stop_market' || type === 'take_profit_market';

/** The engine's place command of a new order; the reference price (for the band) is the mark. */
export function placeCommand(
  order: FuturesOrderState,
  sequence: number,
  referenceTicks: number | null,
  now: Date,
): PlaceOrderCommand {
  const waits = order.type !== 'market' && order.type !== 'limit';
  // A market order with a price (its protection: the bankruptcy bound or the open-loss cap,
  // price-guards.ts) trades as an IOC (or FOK) limit at that price.
  const protectedMarket = order.type === 'market' && order.priceTicks !== null;
  return {
    kind: 'place',
    sequence,
    timestampMs: now.getTime(),
    orderId: order.id,
    accountId: order.accountId,
    side: order.side,
    type: protectedMarket ? 'limit' : engineOrderType(order.type),
    quantityLots: order.quantityLots,
    quoteAmount: null,
    priceTicks: order.priceTicks,
    stopPriceTicks: order.stopTicks,
    stopLimitPriceTicks: null,
    timeInForce: waits ? 'GTC' : order.type === 'market' && order.timeInForce === 'GTC' ? 'IOC' : order.timeInForce,
    postOnly: order.postOnly,
    selfTradePrevention: null,
    referencePriceTicks: referenceTicks,
  };
}
