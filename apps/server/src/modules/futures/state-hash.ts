import { createHash } from 'node:crypto';
import type { FuturesState } from './state.ts';
import { DEFAULT_LEVERAGE, DEFAULT_MARGIN_MODE, type FuturesOrderState, type PositionState } from './types.ts';

/**
 * The futures exchange's state as canonical lines, sorted: everything that decides what the next
 * command does. Two states with the same lines decide alike (a restart from the rows, a replay of
 * the journal). Left out: what a state creates on a mere read (an empty position, a default
 * setting, an empty wallet) and the engines' internal sequence counters; books are compared in
 * priority order.
 */
export function futuresStateLines(state: FuturesState): string[] {
  const lines: string[] = [`insurance|${state.insuranceFund}`];
  for (const [accountId, wallet] of state.wallets) {
    if (wallet.available !== 0n || wallet.locked !== 0n)
      lines.push(`wallet|${accountId}|${wallet.available}|${wallet.locked}`);
  }
  for (const position of state.positions.values()) if (!emptyPosition(position)) lines.push(positionLine(position));
  for (const setting of state.settings.values()) {
    if (setting.leverage === DEFAULT_LEVERAGE && setting.mode === DEFAULT_MARGIN_MODE) continue;
    lines.push(`setting|${setting.accountId}|${setting.marketId}|${setting.leverage}|${setting.mode}`);
  }
  for (const order of state.orders.values()) lines.push(orderLine(order));
  lines.sort();
  for (const [marketId, engine] of state.engines) lines.push(...bookLines(marketId, engine.snapshot()));
  return lines;
}

/** SHA-256 of the lines, hex. */
export function futuresStateHash(state: FuturesState): string {
  return createHash('sha256').update(futuresStateLines(state).join('\n')).digest('hex');
}

const emptyPosition = (p: PositionState) =>
  p.sizeLots === 0 &&
  p.costTickLots === 0n &&
  p.isolatedMargin === 0n &&
  p.realisedPnl === 0n &&
  p.takeProfitTicks === null &&
  p.stopLossTicks === null;

const positionLine = (p: PositionState) =>
  [
    'position',
    p.accountId,
    p.marketId,
    p.sizeLots,
    p.costTickLots,
    p.isolatedMargin,
    p.realisedPnl,
    p.takeProfitTicks,
    p.stopLossTicks,
  ].join('|');

const orderLine = (o: FuturesOrderState) =>
  [
    'order',
    o.id,
    o.accountId,
    o.marketId,
    JSON.stringify(o.clientOrderId),
    o.side,
    o.type,
    o.timeInForce,
    o.postOnly,
    o.reduceOnly,
    o.closePosition,
    o.origin,
    o.priceTicks,
    o.stopTicks,
    o.quantityLots,
    o.filledLots,
    o.filledCost,
    o.fee,
    o.realisedPnl,
    o.orderMargin,
    o.takeProfitTicks,
    o.stopLossTicks,
    o.status,
    o.triggered,
    o.createdAt.getTime(),
  ].join('|');

type Snapshot = ReturnType<FuturesState['engine']>['snapshot'] extends () => infer S ? S : never;

/** A market's book in priority order, its waiting stops and its last trade price. */
function bookLines(marketId: string, snapshot: Snapshot): string[] {
  const resting = (side: string, orders: Snapshot['book']['bids']) =>
    orders.map(
      (o, index) => `book|${marketId}|${side}|${index}|${o.orderId}|${o.accountId}|${o.priceTicks}|${o.remainingLots}`,
    );
  return [
    ...resting('bid', snapshot.book.bids),
    ...resting('ask', snapshot.book.asks),
    `waiting|${marketId}|${snapshot.waitingOrderIds.join(',')}`,
    `last|${marketId}|${snapshot.book.lastTradePriceTicks ?? '-'}`,
  ];
}
