import { lots } from '@platform/engine';
import { type Amount, formatDecimal, toScale } from '@platform/money';
import { LOT_ASSET_SCALE } from './ledger-lots.ts';
import type { AssetLots } from './lot-cache.ts';
import { percentOf, type UsdPrice } from './valuation.ts';

/** A holding's cost basis figures on the summary (contracts portfolioHoldingSchema). */
export type HoldingCost = {
  average_cost: string | null;
  cost_basis: string | null;
  unrealised_pnl: string | null;
  unrealised_pnl_percent: string | null;
};

const NO_COST: HoldingCost = {
  average_cost: null,
  cost_basis: null,
  unrealised_pnl: null,
  unrealised_pnl_percent: null,
};
const usd = (units: bigint): Amount => ({ units, scale: lots.USD_DECIMALS });
const text = (units: bigint) => formatDecimal(usd(units), { trimZeros: true });

/**
 * The open lots of one holding valued at its live price with the engine's own functions
 * (valueOpenLots, averageCostUsd), so every figure equals GET /v1/portfolio/lots' totals: the
 * price is taken to 10^-8 USD (down), the value rounded down. USD has no lots (the numeraire).
 */
export function holdingCost(asset: string, assetLots: AssetLots | undefined, price: UsdPrice | undefined): HoldingCost {
  if (asset === 'USD' || assetLots === undefined) return NO_COST;
  const average = lots.averageCostUsd(assetLots.openLots, LOT_ASSET_SCALE);
  if (average === null) return NO_COST;
  const cost = assetLots.totals.openCostUsd;
  const result: HoldingCost = { ...NO_COST, average_cost: text(average), cost_basis: text(cost) };
  if (price === undefined) return result;
  const priceUnits = toScale(price.price, lots.USD_DECIMALS, 'down').units;
  const unrealised = lots.valueOpenLots(assetLots.openLots, LOT_ASSET_SCALE, priceUnits).unrealisedUsd;
  const percent = percentOf(usd(unrealised), usd(cost));
  return {
    ...result,
    unrealised_pnl: text(unrealised),
    unrealised_pnl_percent: percent && formatDecimal(percent, { trimZeros: true }),
  };
}
