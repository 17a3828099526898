import { COIN_TYPE_BY_SYMBOL, REFERENCE_PRICES_USD } from '@platform/contracts';
import { parseDecimal } from '@platform/money';
import { hashSeed, Random } from '../../adapters/prices/simulator.ts';
import type { PairSpec } from './pair-spec.ts';

/**
 * How the house bots treat a market: how tight and deep its makers quote and how busy its takers
 * are. Majors against a fiat-like quote trade like a real venue's top books (a spread of a couple of
 * ticks, busy tape); thin pairs and crosses against BTC or ETH quote wider and trade rarely.
 */
export interface MarketProfile {
  /** Half the spread, in millionths of the reference price (at least one tick). */
  halfSpreadPpm: number;
  /** Distance between the ladder's levels past the touch, in millionths of the first reference. */
  gridPpm: number;
  /** USD value of a level at the touch, in whole dollars; levels grow away from it. */
  levelUsd: number;
  /** Relative pace of the takers, 1 for the busiest markets. */
  activity: number;
}

const FIAT_QUOTES = new Set(['USD', 'USDT', 'USDC']);
const BUSIEST_BASES = new Set(['BTC', 'ETH']);

export function marketProfile(spec: Pick<PairSpec, 'base' | 'quote'>): MarketProfile {
  const type = COIN_TYPE_BY_SYMBOL[spec.base] ?? 'altcoin';
  if (!FIAT_QUOTES.has(spec.quote)) return { halfSpreadPpm: 100, gridPpm: 300, levelUsd: 600, activity: 0.02 };
  if (type === 'stable') return { halfSpreadPpm: 0, gridPpm: 20, levelUsd: 20_000, activity: 0.08 };
  if (type === 'major') {
    const busiest = BUSIEST_BASES.has(spec.base);
    return { halfSpreadPpm: 0, gridPpm: 30, levelUsd: busiest ? 5_000 : 2_500, activity: busiest ? 1 : 0.12 };
  }
  if (type === 'meme') return { halfSpreadPpm: 40, gridPpm: 150, levelUsd: 1_000, activity: 0.08 };
  return { halfSpreadPpm: 30, gridPpm: 100, levelUsd: 1_200, activity: 0.05 };
}

/** A coin's reference USD price in 1e-12 dollars, for sizing only (the embedded catalogue's). */
export function usdPicosOf(symbol: string): bigint | null {
  if (symbol === 'USD') return 10n ** 12n;
  const text = REFERENCE_PRICES_USD[symbol];
  if (text === undefined) return null;
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  if (!parsed.ok || parsed.value.units <= 0n) return null;
  return (parsed.value.units * 10n ** 12n) / 10n ** BigInt(parsed.value.scale);
}

/** Lots of the pair's base worth about `usd` whole dollars, within the pair's limits. */
export function lotsForUsd(spec: PairSpec, usd: number): number {
  const picos = usdPicosOf(spec.base);
  if (picos === null) return spec.minLots;
  const lots = Number((BigInt(Math.round(usd * 100)) * 10n ** 10n * 10n ** BigInt(spec.quantityPrecision)) / picos);
  return Math.min(spec.maxLots, Math.max(spec.minLots, lots));
}

export type LadderLevel = { side: 'buy' | 'sell'; priceTicks: number; lots: number };

/** Uniform in [0, 1) from a text: the same level always gets the same size. */
export const seededUnit = (text: string): number => new Random(hashSeed(text)).next();

/** The grid step of a market in ticks, from its first reference price. */
export function gridTicks(profile: MarketProfile, reference: number): number {
  return Math.max(1, Math.floor((reference * profile.gridPpm) / 1_000_000));
}

/** Half the spread in ticks at this reference price. */
export function halfSpreadTicks(profile: MarketProfile, reference: number): number {
  return Math.max(1, Math.floor((reference * profile.halfSpreadPpm) / 1_000_000));
}

/**
 * The maker's ladder around a reference price, `levels` a side. The touch follows the reference at
 * half the spread; every deeper level sits on a fixed grid of prices (`grid` ticks apart, at least
 * half a step past the touch), so when the reference moves less than a grid step only the touch
 * moves. A level's size is a pseudo-random draw from the seed, the pair, its side and its price
 * (0.35x to 1.65x of the touch value), growing by a quarter of the touch value per level away.
 */
export function buildLadder(
  spec: PairSpec,
  reference: number,
  options: { profile: MarketProfile; levels: number; grid: number; seed: string },
): LadderLevel[] {
  const { profile, levels, grid, seed } = options;
  const half = halfSpreadTicks(profile, reference);
  const gap = Math.ceil(grid / 2);
  const touchBid = reference - half;
  const touchAsk = reference + half;
  const size = (side: 'buy' | 'sell', priceTicks: number, index: number) => {
    const draw = seededUnit(`${seed}:${spec.id}:${side}:${priceTicks}`);
    return lotsForUsd(spec, profile.levelUsd * (1 + 0.25 * index) * (0.35 + 1.3 * draw));
  };
  const result: LadderLevel[] = [];
  const firstBid = Math.floor((touchBid - gap) / grid) * grid;
  const firstAsk = Math.ceil((touchAsk + gap) / grid) * grid;
  for (let index = 0; index < levels; index++) {
    const bid = index === 0 ? touchBid : firstBid - (index - 1) * grid;
    const ask = index === 0 ? touchAsk : firstAsk + (index - 1) * grid;
    if (bid > 0) result.push({ side: 'buy', priceTicks: bid, lots: size('buy', bid, index) });
    result.push({ side: 'sell', priceTicks: ask, lots: size('sell', ask, index) });
  }
  return result;
}

/**
 * A taker's next order on a market: the wait before it (exponential, so arrivals are a Poisson
 * process at `perMinute` a minute), its side (even odds) and its size (log-uniform from 2 % to
 * 150 % of the touch's value: mostly small tickets, now and then one that walks a few levels).
 */
export function nextTakerOrder(
  random: Random,
  perMinute: number,
  levelUsd: number,
): { waitMs: number; side: 'buy' | 'sell'; usd: number } {
  const waitMs = Math.max(1, Math.round((-Math.log(1 - random.next()) * 60_000) / perMinute));
  const side = random.next() < 0.5 ? 'buy' : 'sell';
  const usd = levelUsd * Math.exp(Math.log(0.02) + random.next() * Math.log(1.5 / 0.02));
  return { waitMs, side, usd };
}
