import type { FuturesMarket } from '@platform/contracts';
import type { Queryable } from '../../../db/database.ts';
import type { FuturesMarketSpec } from '../markets.ts';
import { moneyText, rateText, storedUnits, unitsText } from '../units.ts';
import type { FuturesRouteDeps } from './shared.ts';

type Stats = { volume: string; first: string | null };

async function stats24h(db: Queryable, marketId: string, now: Date): Promise<Stats> {
  const rows = await db.query<{ volume: string | null; first: string | null }>(
    `SELECT sum(quantity)::text AS volume,
      (SELECT price::text FROM futures_fills WHERE market_id = $1 AND role = 'taker' AND executed_at >= $2 ORDER BY executed_at, id LIMIT 1) AS first
     FROM futures_fills WHERE market_id = $1 AND role = 'taker' AND executed_at >= $2`,
    [marketId, new Date(now.getTime() - 86_400_000)],
  );
  return { volume: rows.rows[0]?.volume ?? '0', first: rows.rows[0]?.first ?? null };
}

/** Percentage change with 2 decimals, exact (towards zero). */
function changePercent(first: string | null, lastTicks: number | null, decimals: number): string {
  if (first === null || lastTicks === null) return '0';
  const [whole, fraction = ''] = first.split('.');
  const firstTicks =
    BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
  if (firstTicks === 0n) return '0';
  return unitsText(((BigInt(lastTicks) - firstTicks) * 10_000n) / firstTicks, 2);
}

export async function marketView(
  deps: FuturesRouteDeps,
  db: Queryable,
  spec: FuturesMarketSpec,
  now: Date,
): Promise<FuturesMarket> {
  const marks = deps.uses.marks?.mark(spec.id) ?? null;
  const mark = deps.exchange.markOf(spec.id);
  const index = marks?.indexTicks ?? mark;
  const engine = deps.core.state.engine(spec.id);
  const last = engine.lastTradePrice();
  let openInterest = 0;
  for (const position of deps.core.state.positions.values()) {
    if (position.marketId === spec.id && position.sizeLots > 0) openInterest += position.sizeLots;
  }
  const stats = await stats24h(db, spec.id, now);
  const price = (ticks: number | null) => (ticks === null ? null : unitsText(ticks, spec.priceDecimals));
  return {
    id: spec.id,
    symbol: `${spec.base}USD-PERP`,
    base_currency: spec.base,
    quote_currency: 'USD',
    tick_size: unitsText(1, spec.priceDecimals),
    lot_size: unitsText(1, spec.quantityDecimals),
    min_quantity: unitsText(spec.minLots, spec.quantityDecimals),
    max_quantity: unitsText(spec.maxLots, spec.quantityDecimals),
    min_notional: '0',
    max_leverage: spec.maxLeverage,
    maker_fee_rate: rateText(spec.makerFee),
    taker_fee_rate: rateText(spec.takerFee),
    status: 'trading',
    mark_price: price(mark),
    index_price: price(index),
    last_price: price(last),
    funding_rate: rateText(marks?.fundingRate ?? 0n),
    funding_rate_cap: rateText(spec.fundingCap),
    funding_interval_ms: deps.exchange.fundingIntervalMs,
    next_funding_time: marks?.nextFundingTime ?? 0,
    open_interest: unitsText(openInterest, spec.quantityDecimals),
    volume_24h: unitsText(storedUnits(stats.volume, spec.quantityDecimals), spec.quantityDecimals),
    price_change_percent_24h: changePercent(stats.first, last, spec.priceDecimals),
  };
}

export const tierViews = (spec: FuturesMarketSpec) =>
  spec.tiers.map((tier) => ({
    tier: tier.tier,
    notional_floor: moneyText(tier.floor),
    notional_cap: moneyText(tier.cap),
    max_leverage: tier.maxLeverage,
    maintenance_margin_rate: rateText(tier.mmr),
    maintenance_amount: moneyText(tier.cum),
  }));
