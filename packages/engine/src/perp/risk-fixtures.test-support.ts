import type { PerpSpec, RiskTier } from './api.ts';
import { buildTiers } from './tiers.ts';

/** 1 USD in money units. */
export const USD = 100_000_000n;
/** A percentage as a rate: pct(0.4) = 0.4 % = 400_000n (RATE_SCALE 10^8). */
export const pct = (percent: number): bigint => BigInt(Math.round(percent * 1_000_000));

/** BTCUSDT's leverage brackets (Binance, 2023 snapshot, futures-maths.md §2): [cap USD, max leverage, MMR %]. */
export const BTC_BRACKETS: readonly [number, number, number][] = [
  [50_000, 125, 0.4],
  [250_000, 100, 0.5],
  [3_000_000, 50, 1],
  [20_000_000, 20, 2.5],
  [40_000_000, 10, 5],
  [100_000_000, 5, 10],
  [120_000_000, 4, 12.5],
  [200_000_000, 3, 15],
  [300_000_000, 2, 25],
  [500_000_000, 1, 50],
];

export const BTC_TIERS: RiskTier[] = buildTiers(
  BTC_BRACKETS.map(([cap, maxLeverage, mmr]) => ({ cap: BigInt(cap) * USD, maxLeverage, mmr: pct(mmr) })),
);

/** Tick 0.1 USD, lot 0.001 BTC: one tick x lot = 0.0001 USD = 10,000 money units (§11). */
export const BTC_SPEC: PerpSpec = { priceDecimals: 1, quantityDecimals: 3 };
/** Tick 0.01, lot 0.000001: one tick x lot is one money unit, so roundings show. */
export const FINE_SPEC: PerpSpec = { priceDecimals: 2, quantityDecimals: 6 };
/** Tick 0.00001, lot 1 (a DOGE-like market). */
export const COARSE_LOT_SPEC: PerpSpec = { priceDecimals: 5, quantityDecimals: 0 };

/** BTC price in ticks of 0.1. */
export const btcTicks = (usd: number): number => Math.round(usd * 10);
/** BTC quantity in lots of 0.001. */
export const btcLots = (btc: number): number => Math.round(btc * 1000);
