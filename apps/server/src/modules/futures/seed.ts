import type { Queryable } from '../../db/database.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { moneyText, rateText, unitsText } from './units.ts';
import { insertRows } from './writer.ts';

/** Upserts the markets defined in code (futures_markets), so every row the others reference exists. */
export async function seedMarkets(db: Queryable, specs: readonly FuturesMarketSpec[]): Promise<void> {
  const rows = specs.map((spec) => [
    spec.id,
    spec.base,
    spec.priceDecimals,
    spec.quantityDecimals,
    unitsText(spec.minLots, spec.quantityDecimals),
    unitsText(spec.maxLots, spec.quantityDecimals),
    spec.maxLeverage,
    rateText(spec.fundingCap),
    JSON.stringify(
      spec.tiers.map((tier) => ({
        tier: tier.tier,
        floor: moneyText(tier.floor),
        cap: moneyText(tier.cap),
        max_leverage: tier.maxLeverage,
        mmr: rateText(tier.mmr),
        cum: moneyText(tier.cum),
      })),
    ),
    spec.sortOrder,
  ]);
  const columns = [
    'id',
    'base_currency',
    'price_decimals',
    'quantity_decimals',
    'min_quantity',
    'max_quantity',
    'max_leverage',
    'funding_rate_cap',
    'tiers',
    'sort_order',
  ];
  const update = columns
    .slice(1)
    .map((column) => `${column} = EXCLUDED.${column}`)
    .join(', ');
  await insertRows(
    db,
    'futures_markets',
    columns,
    rows,
    `ON CONFLICT (id) DO UPDATE SET ${update}, updated_at = now()`,
  );
}
