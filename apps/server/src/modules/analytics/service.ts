import { type Analytics, type AnalyticsQuery, REFERENCE_PRICES_USD } from '@platform/contracts';
import type { lots } from '@platform/engine';
import { type Amount, add, compare, isNegative, mul, negate, sub } from '@platform/money';
import type { PeriodFill, PeriodIncome } from '../futures/index.ts';
import type { PeriodTrade } from '../trading/index.ts';
import { type ClosedTrade, signedAmount, Totals, tradeFigures, usdText, utcDate, ZERO_USD } from './figures.ts';
import { type Period, resolvePeriod } from './period.ts';
import type { Snapshot } from './twr.ts';
import { timeWeightedReturn } from './twr.ts';

/** What analytics reads, each from the module that owns it (docs/analytics.md "Sources"). */
export type AnalyticsDeps = {
  spotTrades(accountId: string, fromMs: number, toMs: number): Promise<PeriodTrade[]>;
  futuresFills(accountId: string, fromMs: number, toMs: number): Promise<PeriodFill[]>;
  futuresIncome(accountId: string, type: string, fromMs: number, toMs: number): Promise<PeriodIncome[]>;
  lots(accountId: string, method: lots.LotMethod): Promise<lots.LotResult[]>;
  /** The recorded USD price of a currency at a past moment (the price sources' candles), or null. */
  usdPriceAt(currency: string, timeMs: number): Promise<string | null>;
  snapshots(accountId: string, fromMs: number, toMs: number): Promise<{ base: Snapshot | null; rows: Snapshot[] }>;
  clock: () => Date;
};

/** The lot engine's USD unit: 10^-8 USD. */
const LOT_USD_SCALE = 8;
/** Disposals that are trades; a transfer out or withdrawal realises nothing (docs/portfolio.md). */
const TRADE_DISPOSALS = new Set<string>(['sell', 'conversion_out']);
const USD = 'USD';

/** Spot closed trades of the period: each sell or conversion out, its lot rows summed (its gain). */
export function spotClosedTrades(results: readonly lots.LotResult[], period: Period): ClosedTrade[] {
  const byDisposal = new Map<string, ClosedTrade>();
  for (const result of results) {
    for (const row of result.realised) {
      if (!TRADE_DISPOSALS.has(row.disposalKind)) continue;
      if (row.soldTimeMs < period.fromMs || row.soldTimeMs >= period.toMs) continue;
      const key = `${result.asset}\u0000${row.disposalId}`;
      const gain: Amount = { units: row.gainUsd, scale: LOT_USD_SCALE };
      const known = byDisposal.get(key);
      if (known) known.pnl = add(known.pnl, gain);
      else byDisposal.set(key, { product: 'spot', asset: result.asset, timeMs: row.soldTimeMs, pnl: gain });
    }
  }
  return [...byDisposal.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/** USD per unit of a quote currency at a moment: 1 for USD, else the recorded price, the catalogue's, or 0. */
function quotePrices(deps: AnalyticsDeps) {
  const cache = new Map<string, Promise<Amount>>();
  return (currency: string, timeMs: number): Promise<Amount> => {
    if (currency === USD) return Promise.resolve({ units: 1n, scale: 0 });
    const key = `${currency}@${Math.floor(timeMs / 60_000)}`;
    let price = cache.get(key);
    if (price === undefined) {
      price = deps
        .usdPriceAt(currency, timeMs)
        .then((text) => signedAmount(text ?? REFERENCE_PRICES_USD[currency] ?? '0'));
      cache.set(key, price);
    }
    return price;
  };
}

type Flows = { volume: Amount; fees: Amount; byAsset: Totals; byDay: Totals };

async function addSpotFills(deps: AnalyticsDeps, trades: readonly PeriodTrade[], flows: Flows): Promise<void> {
  const price = quotePrices(deps);
  for (const trade of trades) {
    const usd = await price(trade.quoteCurrency, trade.executedAtMs);
    flows.volume = add(flows.volume, mul(signedAmount(trade.total), usd));
    flows.fees = add(flows.fees, mul(signedAmount(trade.fee), usd));
  }
}

/** Futures fills: notional in the volume, fees, and (realised P&L − fee) per market and day. */
function addFuturesFills(fills: readonly PeriodFill[], flows: Flows): ClosedTrade[] {
  const closed: ClosedTrade[] = [];
  for (const fill of fills) {
    const fee = signedAmount(fill.fee);
    const realised = signedAmount(fill.realisedPnl);
    const net = sub(realised, fee);
    flows.volume = add(flows.volume, mul(signedAmount(fill.price), signedAmount(fill.quantity)));
    flows.fees = add(flows.fees, fee);
    flows.byAsset.add(`futures\u0000${fill.market}`, net);
    flows.byDay.add(utcDate(fill.timeMs), net);
    if (realised.units !== 0n) closed.push({ product: 'futures', asset: fill.market, timeMs: fill.timeMs, pnl: net });
  }
  return closed;
}

/** Funding: paid (negative rows) and received (positive), and its P&L per market and day. */
function addFunding(rows: readonly PeriodIncome[], flows: Flows) {
  let paid = ZERO_USD;
  let received = ZERO_USD;
  for (const row of rows) {
    const amount = signedAmount(row.amount);
    if (isNegative(amount)) paid = add(paid, negate(amount));
    else received = add(received, amount);
    flows.byAsset.add(`futures\u0000${row.market ?? 'unknown'}`, amount);
    flows.byDay.add(utcDate(row.timeMs), amount);
  }
  return { paid, received };
}

/**
 * Liquidation fees (negative rows: the fee and the surplus a liquidation took for the fund) and
 * insurance clears (positive rows: the fund making a wallet good after a loss or funding beyond the
 * collateral) are P&L of their market and day, summed apart. ADL income is not read: an ADL close
 * is a fill whose realised P&L is already in futures_fills (the income row only relabels it).
 */
function addLiquidationIncome(fees: readonly PeriodIncome[], clears: readonly PeriodIncome[], flows: Flows) {
  let liquidationFees = ZERO_USD;
  let insuranceCleared = ZERO_USD;
  for (const row of [...fees, ...clears]) {
    const amount = signedAmount(row.amount);
    if (row.type === 'liquidation_fee') liquidationFees = sub(liquidationFees, amount);
    else insuranceCleared = add(insuranceCleared, amount);
    flows.byAsset.add(`futures\u0000${row.market ?? 'unknown'}`, amount);
    flows.byDay.add(utcDate(row.timeMs), amount);
  }
  return { liquidationFees, insuranceCleared };
}

/** GET /v1/analytics: every figure of the period (docs/analytics.md). */
export async function accountAnalytics(
  deps: AnalyticsDeps,
  accountId: string,
  query: AnalyticsQuery,
): Promise<Analytics> {
  const period = resolvePeriod(query, deps.clock());
  const [spot, fills, funding, liquidationFees, clears, lotResults, snapshots] = await Promise.all([
    deps.spotTrades(accountId, period.fromMs, period.toMs),
    deps.futuresFills(accountId, period.fromMs, period.toMs),
    deps.futuresIncome(accountId, 'funding', period.fromMs, period.toMs),
    deps.futuresIncome(accountId, 'liquidation_fee', period.fromMs, period.toMs),
    deps.futuresIncome(accountId, 'insurance_clear', period.fromMs, period.toMs),
    deps.lots(accountId, query.method),
    deps.snapshots(accountId, period.fromMs, period.toMs),
  ]);
  const flows: Flows = { volume: ZERO_USD, fees: ZERO_USD, byAsset: new Totals(), byDay: new Totals() };
  await addSpotFills(deps, spot, flows);
  const spotClosed = spotClosedTrades(lotResults, period);
  for (const trade of spotClosed) {
    flows.byAsset.add(`spot\u0000${trade.asset}`, trade.pnl);
    flows.byDay.add(utcDate(trade.timeMs), trade.pnl);
  }
  const closed = [...spotClosed, ...addFuturesFills(fills, flows)].sort((a, b) => a.timeMs - b.timeMs);
  const fundingTotals = addFunding(funding, flows);
  return assemble({
    period,
    query,
    flows,
    closed,
    funding: fundingTotals,
    liquidation: addLiquidationIncome(liquidationFees, clears, flows),
    trades: spot.length + fills.length,
    snapshots,
  });
}

function assemble(parts: {
  period: Period;
  query: AnalyticsQuery;
  flows: Flows;
  closed: ClosedTrade[];
  funding: { paid: Amount; received: Amount };
  liquidation: { liquidationFees: Amount; insuranceCleared: Amount };
  trades: number;
  snapshots: { base: Snapshot | null; rows: Snapshot[] };
}): Analytics {
  const { period, flows, closed } = parts;
  const realised = [...flows.byAsset.sums.values()].reduce(add, ZERO_USD);
  const perDay = new Map<string, number>();
  for (const trade of closed) perDay.set(utcDate(trade.timeMs), (perDay.get(utcDate(trade.timeMs)) ?? 0) + 1);
  const twr = timeWeightedReturn(parts.snapshots.base, parts.snapshots.rows);
  const figures = tradeFigures(closed);
  return {
    period: { from: period.from, to: period.to, days: period.days },
    method: parts.query.method,
    source: parts.query.source,
    volume: usdText(flows.volume),
    trades: parts.trades,
    ...figures,
    fees_paid: usdText(flows.fees),
    funding_paid: usdText(parts.funding.paid),
    funding_received: usdText(parts.funding.received),
    liquidation_fees: usdText(parts.liquidation.liquidationFees),
    insurance_cleared: usdText(parts.liquidation.insuranceCleared),
    realised_pnl: usdText(realised),
    pnl_by_asset: [...flows.byAsset.sums]
      .map(([key, pnl]) => {
        const [product, asset] = key.split('\u0000') as ['spot' | 'futures', string];
        return { product, asset, pnl };
      })
      .sort((a, b) => compare(b.pnl, a.pnl))
      .map((row) => ({ ...row, pnl: usdText(row.pnl) })),
    pnl_by_day: [...flows.byDay.sums]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, pnl]) => ({ date, pnl: usdText(pnl), closed_trades: perDay.get(date) ?? 0 })),
    time_weighted_return_percent: twr.twrPercent,
    max_drawdown_percent: twr.maxDrawdownPercent,
    equity: twr.points,
    by_source: [
      {
        source: 'manual',
        trades: parts.trades,
        closed_trades: closed.length,
        volume: usdText(flows.volume),
        realised_pnl: usdText(realised),
      },
    ],
  };
}
