import { perp } from '@platform/engine';
import type { DecideContext } from './context.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { newOrder } from './orders.ts';
import { type MarkOf, markFor, riskOf } from './risk.ts';
import { settleFill } from './settle.ts';
import type { FuturesState } from './state.ts';
import { type FuturesOrderState, futuresKey, type PositionState } from './types.ts';

type Totals = { pnl: bigint; maintenance: bigint };

/** Σ unrealised P&L and Σ maintenance of every account's cross positions, in one pass over the state. */
function crossTotals(state: FuturesState, markOf: MarkOf): Map<string, Totals> {
  const totals = new Map<string, Totals>();
  for (const position of state.positions.values()) {
    if (position.sizeLots === 0) continue;
    if (state.setting(position.accountId, position.marketId).mode !== 'cross') continue;
    const metrics = perp.positionMetrics(riskOf(state, position, markOf));
    const total = totals.get(position.accountId) ?? { pnl: 0n, maintenance: 0n };
    total.pnl += metrics.unrealisedPnl;
    total.maintenance += metrics.maintenanceMargin;
    totals.set(position.accountId, total);
  }
  return totals;
}

/**
 * The ADL collateral of a position (never below zero: the ranking needs it so): its isolated
 * margin, or the cross wallet plus the other cross positions' P&L less their maintenance (what
 * collateralOf gives, from totals taken once instead of a pass per position).
 */
function adlCollateral(state: FuturesState, position: PositionState, markOf: MarkOf, totals: Map<string, Totals>) {
  let collateral = position.isolatedMargin;
  if (state.setting(position.accountId, position.marketId).mode === 'cross') {
    const own = perp.positionMetrics(riskOf(state, position, markOf));
    const total = totals.get(position.accountId) ?? { pnl: 0n, maintenance: 0n };
    const wallet = state.wallets.get(position.accountId)?.available ?? 0n;
    collateral = wallet + (total.pnl - own.unrealisedPnl) - (total.maintenance - own.maintenanceMargin);
  }
  return collateral > 0n ? collateral : 0n;
}

/**
 * The auto-deleveraging queue of one side of a market (perp.adlQueue: BitMEX's ranking, profit %
 * x effective leverage, winners first), with each position's light 1-5. `side` 1: the longs, -1:
 * the shorts. `except` leaves an account out (the one being liquidated).
 */
export function adlQueueOf(
  state: FuturesState,
  marketId: string,
  side: 1 | -1,
  markOf: MarkOf,
  except?: string,
): { position: PositionState; rank: number }[] {
  const spec = state.markets.get(marketId)!;
  const positions = [...state.positions.values()].filter(
    (p) => p.marketId === marketId && Math.sign(p.sizeLots) === side && p.accountId !== except,
  );
  if (positions.length === 0) return [];
  const byId = new Map(positions.map((p) => [p.accountId, p]));
  const mark = markFor(positions[0]!, markOf);
  const totals = crossTotals(state, markOf);
  const queue = perp.adlQueue(
    spec,
    mark,
    positions.map((p) => ({
      id: p.accountId,
      position: { sizeLots: p.sizeLots, costTickLots: p.costTickLots },
      collateral: adlCollateral(state, p, markOf, totals),
    })),
  );
  return queue.map((entry) => ({ position: byId.get(entry.id)!, rank: entry.rank }));
}

/** Every open position's ADL light in one market (account id -> 1..5), both sides. */
export function adlRanks(state: FuturesState, marketId: string, markOf: MarkOf): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const side of [1, -1] as const) {
    for (const { position, rank } of adlQueueOf(state, marketId, side, markOf)) ranks.set(position.accountId, rank);
  }
  return ranks;
}

/** One ADL close: `lots` of the liquidated position against one counterparty, at `priceTicks`. */
export type AdlClose = { counterparty: string; lots: number; priceTicks: number };

/** A filled ADL order (origin 'adl', reduce-only, no fee): the record of one side of an internal trade. */
function adlOrder(ctx: DecideContext, position: PositionState, lots: number, priceTicks: number): FuturesOrderState {
  const order = newOrder(
    ctx,
    position.accountId,
    {
      order: {
        marketId: position.marketId,
        side: position.sizeLots > 0 ? 'sell' : 'buy',
        type: 'limit',
        timeInForce: 'IOC',
        postOnly: false,
        reduceOnly: true,
        closePosition: false,
        priceTicks,
        stopTicks: null,
        takeProfitTicks: null,
        stopLossTicks: null,
        clientOrderId: null,
        quantityLots: lots,
      },
      orderMargin: 0n,
    },
    'adl',
  );
  order.sequence = ctx.nextSequence();
  return order;
}

/** Settles one side of an ADL trade; its realised P&L is booked as income `adl`. */
function settleSide(ctx: DecideContext, spec: FuturesMarketSpec, order: FuturesOrderState, tradeId: string): void {
  settleFill(ctx.state, ctx.batch, {
    tradeId,
    order,
    role: 'maker',
    priceTicks: order.priceTicks!,
    lots: order.quantityLots,
    now: ctx.now,
  });
  const reference = `${spec.id}:${tradeId}:maker`;
  for (const income of ctx.batch.income) {
    if (income.reference === reference && income.type === 'realised_pnl') income.type = 'adl';
  }
  ctx.moved.add(futuresKey(order.accountId, spec.id));
}

/**
 * Auto-deleveraging: closes `lots` of the liquidated position against the opposite positions in
 * ADL order, at the bankruptcy price, as internal trades between the two accounts (no book, no
 * fee). Each counterparty gives up at most its whole position. Returns the closes made.
 */
export function deleverage(
  ctx: DecideContext,
  liquidated: PositionState,
  lots: number,
  bankruptcyTicks: number,
  markOf: MarkOf,
): AdlClose[] {
  const spec = ctx.state.markets.get(liquidated.marketId)!;
  const side = liquidated.sizeLots > 0 ? -1 : 1;
  const closes: AdlClose[] = [];
  let remaining = Math.min(lots, Math.abs(liquidated.sizeLots));
  for (const { position } of adlQueueOf(ctx.state, spec.id, side, markOf, liquidated.accountId)) {
    if (remaining === 0) break;
    const take = Math.min(remaining, Math.abs(position.sizeLots));
    const mine = adlOrder(ctx, liquidated, take, bankruptcyTicks);
    const theirs = adlOrder(ctx, position, take, bankruptcyTicks);
    const tradeId = `adl-${mine.sequence}`;
    settleSide(ctx, spec, mine, `${tradeId}-a`);
    settleSide(ctx, spec, theirs, `${tradeId}-b`);
    closes.push({ counterparty: position.accountId, lots: take, priceTicks: bankruptcyTicks });
    ctx.batch.positionReasons.set(futuresKey(position.accountId, spec.id), 'adl');
    remaining -= take;
  }
  return closes;
}
