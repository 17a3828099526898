import { FUTURES_MAKER_FEE_RATE, FUTURES_TAKER_FEE_RATE } from '@platform/contracts';
import { perp } from '@platform/engine';

/**
 * The ten perpetuals, seeded at start (upserted into futures_markets). Units (docs/futures.md): a
 * price is ticks of 10^-priceDecimals USD, a size lots of 10^-quantityDecimals base; their sum is
 * at most 8, so a notional is an exact money amount. Risk tiers follow Binance's brackets
 * (maintenance rate half the tier's initial rate), with smaller notional caps for smaller coins.
 */
export interface FuturesMarketSpec extends perp.PerpSpec {
  id: string;
  base: string;
  /** The spot pair whose reference price is the index until a mark source answers. */
  indexPair: string;
  minLots: number;
  maxLots: number;
  maxLeverage: number;
  /** RATE_SCALE. */
  fundingCap: bigint;
  makerFee: bigint;
  takerFee: bigint;
  tiers: perp.RiskTier[];
  sortOrder: number;
}

const USD = perp.MONEY_SCALE;
/** 0.01 % in RATE_SCALE units. */
const BP = 10_000n;

/** Tier rows (cap in whole USD, max leverage, maintenance rate in basis points: 50 = 0.5 %). */
type Row = readonly [capUsd: number, maxLeverage: number, mmrBasisPoints: number];
/** Binance-like brackets of a 100x market, notional caps in USD. */
const MAJOR_ROWS: readonly Row[] = [
  [50_000, 100, 50],
  [250_000, 50, 100],
  [3_000_000, 20, 250],
  [20_000_000, 10, 500],
  [40_000_000, 5, 1000],
  [100_000_000, 4, 1250],
  [120_000_000, 3, 1500],
  [200_000_000, 2, 2500],
  [300_000_000, 1, 5000],
];

/** The rows of a market of this maximum leverage (caps are divided by the market's scale-down). */
function tierRows(maxLeverage: number): readonly Row[] {
  const rows = MAJOR_ROWS.slice(1);
  if (maxLeverage === 100) return [[50_000, 100, 50], ...rows];
  if (maxLeverage === 75) return [[25_000, 75, 65], ...rows];
  return rows;
}

function tiersOf(maxLeverage: number, scaleDown: number): perp.RiskTier[] {
  return perp.buildTiers(
    tierRows(maxLeverage).map(([cap, lev, mmr]) => ({
      cap: (BigInt(cap) * USD) / BigInt(scaleDown),
      maxLeverage: lev,
      mmr: BigInt(mmr) * BP,
    })),
  );
}

const feeRate = (text: string): bigint => {
  const rate = perp.decimalToRate(text);
  if (rate === null) throw new Error(`fee rate ${text} is not a rate`);
  return rate;
};
type Definition = [
  base: string,
  priceDecimals: number,
  quantityDecimals: number,
  maxLeverage: number,
  scaleDown: number,
];
const DEFINITIONS: readonly Definition[] = [
  ['BTC', 1, 3, 100, 1],
  ['ETH', 2, 3, 100, 1],
  ['SOL', 2, 2, 75, 5],
  ['BNB', 2, 2, 75, 5],
  ['XRP', 4, 1, 50, 10],
  ['DOGE', 5, 0, 50, 10],
  ['ADA', 4, 0, 50, 10],
  ['AVAX', 3, 1, 50, 10],
  ['LINK', 3, 2, 50, 10],
  ['TON', 4, 1, 50, 10],
];
/** Funding caps: 0.3 % for BTC and ETH, 0.75 % for the others (RATE_SCALE). */
const MAJOR_FUNDING_CAP = 300_000n;
const OTHER_FUNDING_CAP = 750_000n;
/** Largest single order, lots (the tiers cap the position's notional long before this). */
const MAX_ORDER_LOTS = 1_000_000_000;

/** Built lazily: the tier maths lives in the engine and is only called when the module starts. */
export function futuresMarketSpecs(): FuturesMarketSpec[] {
  return DEFINITIONS.map(([base, priceDecimals, quantityDecimals, maxLeverage, scaleDown], index) => ({
    id: `${base}_USD_PERP`,
    base,
    indexPair: `${base}_USD`,
    priceDecimals,
    quantityDecimals,
    minLots: 1,
    maxLots: MAX_ORDER_LOTS,
    maxLeverage,
    fundingCap: scaleDown === 1 ? MAJOR_FUNDING_CAP : OTHER_FUNDING_CAP,
    makerFee: feeRate(FUTURES_MAKER_FEE_RATE),
    takerFee: feeRate(FUTURES_TAKER_FEE_RATE),
    tiers: tiersOf(maxLeverage, scaleDown),
    sortOrder: index,
  }));
}
