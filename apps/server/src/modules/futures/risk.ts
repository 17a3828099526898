import type { FuturesAccount, FuturesPosition } from '@platform/contracts';
import { perp } from '@platform/engine';
import type { FuturesMarketSpec } from './markets.ts';
import type { FuturesState } from './state.ts';
import type { PositionState } from './types.ts';
import { moneyText, trimDecimal, unitsText } from './units.ts';

/** The mark of a market in ticks (never the last trade), or null when none is known yet. */
export type MarkOf = (marketId: string) => number | null;

/** A position's mark: the market's, or its own entry price when no mark is known (never the last trade). */
export function markFor(position: PositionState, markOf: MarkOf): number {
  const mark = markOf(position.marketId);
  if (mark !== null) return mark;
  const size = BigInt(Math.abs(position.sizeLots));
  return size === 0n ? 1 : Number(position.costTickLots / size);
}

export function riskOf(state: FuturesState, position: PositionState, markOf: MarkOf): perp.PositionRisk {
  const spec = state.markets.get(position.marketId)!;
  const setting = state.setting(position.accountId, position.marketId);
  return {
    spec,
    tiers: spec.tiers,
    position: { sizeLots: position.sizeLots, costTickLots: position.costTickLots },
    markTicks: markFor(position, markOf),
    mode: setting.mode,
    leverage: setting.leverage,
    isolatedMargin: setting.mode === 'isolated' ? position.isolatedMargin : 0n,
  };
}

const open = (p: PositionState) => p.sizeLots !== 0;

/** Σ margin reserved by the account's open orders. */
export function orderMarginOf(state: FuturesState, accountId: string): bigint {
  let total = 0n;
  for (const order of state.orders.ofAccount(accountId)) total += order.orderMargin;
  return total;
}

/** The cross account: wallet available, cross positions at mark, every open order's margin. */
export function crossOf(state: FuturesState, accountId: string, markOf: MarkOf): perp.CrossState {
  const positions = state
    .positionsOf(accountId)
    .filter((p) => open(p) && state.setting(accountId, p.marketId).mode === 'cross')
    .map((p) => riskOf(state, p, markOf));
  return perp.crossState({
    walletBalance: state.wallet(accountId).available,
    positions,
    orderMargin: orderMarginOf(state, accountId),
  });
}

/** What may leave the futures wallet now: available after every margin and order, never above the wallet. */
export function transferableOf(state: FuturesState, accountId: string, markOf: MarkOf): bigint {
  const cross = crossOf(state, accountId, markOf);
  const wallet = state.wallet(accountId).available;
  const free = cross.available < wallet ? cross.available : wallet;
  return free > 0n ? free : 0n;
}

/** The collateral the liquidation maths needs: isolated margin, or the cross wallet less the other positions' MM plus their P&L. */
export function collateralOf(state: FuturesState, position: PositionState, markOf: MarkOf): bigint {
  const setting = state.setting(position.accountId, position.marketId);
  if (setting.mode === 'isolated') return position.isolatedMargin;
  let collateral = state.wallet(position.accountId).available;
  for (const other of state.positionsOf(position.accountId)) {
    if (other === position || !open(other) || state.setting(other.accountId, other.marketId).mode !== 'cross') continue;
    const metrics = perp.positionMetrics(riskOf(state, other, markOf));
    collateral += metrics.unrealisedPnl - metrics.maintenanceMargin;
  }
  return collateral;
}

export function accountView(state: FuturesState, accountId: string, markOf: MarkOf): FuturesAccount {
  const wallet = state.wallet(accountId);
  const cross = crossOf(state, accountId, markOf);
  let isolatedPnl = 0n;
  for (const p of state.positionsOf(accountId)) {
    if (open(p) && state.setting(accountId, p.marketId).mode === 'isolated') {
      isolatedPnl += perp.positionMetrics(riskOf(state, p, markOf)).unrealisedPnl;
    }
  }
  const unrealised = cross.unrealisedPnl + isolatedPnl;
  const walletBalance = wallet.available + wallet.locked;
  const available = cross.available > 0n ? cross.available : 0n;
  return {
    currency: 'USD',
    wallet_balance: moneyText(walletBalance),
    unrealised_pnl: moneyText(unrealised),
    margin_balance: moneyText(walletBalance + unrealised),
    cross_initial_margin: moneyText(cross.initialMargin),
    cross_maintenance_margin: moneyText(cross.maintenanceMargin),
    isolated_margin: moneyText(wallet.locked),
    order_margin: moneyText(orderMarginOf(state, accountId)),
    available_balance: moneyText(available),
    transferable: moneyText(transferableOf(state, accountId, markOf)),
    margin_ratio: perp.marginRatioDecimal(cross.maintenanceMargin, cross.marginBalance),
  };
}

const priceOrNull = (spec: FuturesMarketSpec, ticks: number | null) =>
  ticks === null ? null : unitsText(ticks, spec.priceDecimals);

export function positionView(
  state: FuturesState,
  position: PositionState,
  markOf: MarkOf,
  adlRank = 0,
): FuturesPosition {
  const spec = state.markets.get(position.marketId)!;
  const risk = riskOf(state, position, markOf);
  const metrics = perp.positionMetrics(risk);
  const collateral = collateralOf(state, position, markOf);
  const marginBalance = (risk.mode === 'isolated' ? position.isolatedMargin : collateral) + metrics.unrealisedPnl;
  const entryNotional = perp.tickLotsToMoney(spec, position.costTickLots);
  const liquidation = perp.liquidationPriceTicks({ spec, tiers: spec.tiers, position: risk.position, collateral });
  const bankruptcy = perp.bankruptcyPriceTicks(spec, risk.position, collateral);
  return {
    market: position.marketId,
    side: position.sizeLots >= 0 ? 'long' : 'short',
    size: unitsText(Math.abs(position.sizeLots), spec.quantityDecimals),
    entry_price: trimDecimal(perp.entryPriceDecimal(spec, risk.position, 2) ?? '0'),
    mark_price: unitsText(risk.markTicks, spec.priceDecimals),
    liquidation_price: priceOrNull(spec, liquidation),
    bankruptcy_price: priceOrNull(spec, bankruptcy),
    margin_mode: risk.mode,
    leverage: risk.leverage,
    notional: moneyText(metrics.notional),
    margin: moneyText(risk.mode === 'isolated' ? position.isolatedMargin : metrics.initialMargin),
    maintenance_margin: moneyText(metrics.maintenanceMargin),
    margin_ratio: perp.marginRatioDecimal(metrics.maintenanceMargin, marginBalance),
    unrealised_pnl: moneyText(metrics.unrealisedPnl),
    roe: perp.roeDecimal(metrics.unrealisedPnl, entryNotional, risk.leverage),
    realised_pnl: moneyText(position.realisedPnl),
    adl_rank: adlRank,
    take_profit_price: priceOrNull(spec, position.takeProfitTicks),
    stop_loss_price: priceOrNull(spec, position.stopLossTicks),
    updated_at: position.updatedAt.toISOString(),
  };
}

/**
 * The collateral the bankruptcy price is computed on: isolated margin; cross wallet plus the
 * other cross positions' losses (not their profits: a close at that price must leave the wallet
 * itself at zero or above, so that it never needs the fund).
 */
export function bankruptcyCollateral(state: FuturesState, position: PositionState, markOf: MarkOf): bigint {
  if (state.setting(position.accountId, position.marketId).mode === 'isolated') return position.isolatedMargin;
  let others = 0n;
  for (const other of state.positionsOf(position.accountId)) {
    if (other === position || other.sizeLots === 0) continue;
    if (state.setting(other.accountId, other.marketId).mode !== 'cross') continue;
    others += perp.positionMetrics(riskOf(state, other, markOf)).unrealisedPnl;
  }
  return state.wallet(position.accountId).available + (others < 0n ? others : 0n);
}
