import type { Database } from '../../db/database.ts';
import type { ConversionLimits } from './exposure.ts';
import type { MarketView } from './pricing.ts';

/**
 * What conversions need, in a file of its own so that the parts (order rules, quotes, replays)
 * take it without importing service.ts, which imports them.
 */
export interface ConversionDeps {
  db: Database;
  clock: () => Date;
  /** The markets and their reference prices (read-only; never the books). */
  markets: MarketView;
  /** The oldest reference quoted from, and the per-minute exposure limits. */
  limits: ConversionLimits;
  /** When expired quotes were last swept (ms on the server clock). */
  sweptAtMs?: number;
}
