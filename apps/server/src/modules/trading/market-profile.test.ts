import { TRADING_PAIRS } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { Random } from '../../adapters/prices/simulator.ts';
import { buildLadder, gridTicks, marketProfile, nextTakerOrder } from './market-profile.ts';
import { type PairSpec, pairSpecFromRow } from './pair-spec.ts';

const spec = (id: string): PairSpec => {
  const seed = TRADING_PAIRS.find((pair) => pair.id === id);
  if (!seed) throw new Error(`no pair ${id}`);
  return pairSpecFromRow({ ...seed, created_at: new Date(), updated_at: new Date() } as never);
};

const ladderOf = (id: string, reference: number, seed = 'meridian', levels = 20) => {
  const pair = spec(id);
  const profile = marketProfile(pair);
  const grid = gridTicks(profile, reference);
  return buildLadder(pair, reference, { profile, levels, grid, seed });
};

describe('market maker ladder', () => {
  const reference = 6_725_000; // BTC_USD 67,250.00 in cents
  const ladder = ladderOf('BTC_USD', reference);
  const bids = ladder.filter((level) => level.side === 'buy');
  const asks = ladder.filter((level) => level.side === 'sell');

  it('quotes the asked number of levels a side, a couple of ticks wide on a major, never crossed', () => {
    expect(bids).toHaveLength(20);
    expect(asks).toHaveLength(20);
    expect(asks[0]!.priceTicks - bids[0]!.priceTicks).toBeLessThanOrEqual(4);
    expect(bids[0]!.priceTicks).toBeLessThan(reference);
    expect(asks[0]!.priceTicks).toBeGreaterThan(reference);
    for (let index = 1; index < 20; index++) {
      expect(bids[index]!.priceTicks).toBeLessThan(bids[index - 1]!.priceTicks);
      expect(asks[index]!.priceTicks).toBeGreaterThan(asks[index - 1]!.priceTicks);
    }
  });

  it('quotes thin pairs wider than majors', () => {
    const thin = ladderOf('ETH_BTC', 5_130_000);
    const thinBids = thin.filter((level) => level.side === 'buy');
    const thinAsks = thin.filter((level) => level.side === 'sell');
    const thinSpread = (thinAsks[0]!.priceTicks - thinBids[0]!.priceTicks) / 5_130_000;
    const majorSpread = (asks[0]!.priceTicks - bids[0]!.priceTicks) / reference;
    expect(thinSpread).toBeGreaterThan(majorSpread * 10);
  });

  it('varies sizes, growing away from the touch, the same for the same seed and different for another', () => {
    const sizes = bids.map((level) => level.lots);
    expect(new Set(sizes).size).toBeGreaterThan(15);
    const near = sizes.slice(0, 5).reduce((sum, lots) => sum + lots, 0);
    const far = sizes.slice(15).reduce((sum, lots) => sum + lots, 0);
    expect(far).toBeGreaterThan(near);
    expect(ladderOf('BTC_USD', reference)).toEqual(ladder);
    expect(ladderOf('BTC_USD', reference, 'another seed').map((level) => level.lots)).not.toEqual(
      ladder.map((level) => level.lots),
    );
  });

  it('moves only the touch when the reference moves less than a grid step', () => {
    const grid = gridTicks(marketProfile(spec('BTC_USD')), reference);
    expect(grid).toBeGreaterThan(10);
    const moved = ladderOf('BTC_USD', reference + 3);
    const before = new Set(ladder.map((level) => `${level.side}:${level.priceTicks}`));
    const changed = moved.filter((level) => !before.has(`${level.side}:${level.priceTicks}`));
    expect(changed.map((level) => level.side).sort()).toEqual(['buy', 'sell']);
    expect(changed.every((level) => Math.abs(level.priceTicks - reference) <= 5)).toBe(true);
  });
});

describe('simulated takers', () => {
  const draws = (seed: number, count: number) => {
    const random = new Random(seed);
    return Array.from({ length: count }, () => nextTakerOrder(random, 12, 5_000));
  };

  it('draw the same arrivals, sides and sizes from the same seed', () => {
    expect(draws(42, 50)).toEqual(draws(42, 50));
    expect(draws(43, 50)).not.toEqual(draws(42, 50));
  });

  it('arrive at the asked pace on average, on both sides, in varied sizes', () => {
    const orders = draws(7, 4_000);
    const meanWait = orders.reduce((sum, order) => sum + order.waitMs, 0) / orders.length;
    expect(meanWait).toBeGreaterThan(4_500); // 12 a minute: 5 s on average
    expect(meanWait).toBeLessThan(5_500);
    const buys = orders.filter((order) => order.side === 'buy').length;
    expect(buys / orders.length).toBeGreaterThan(0.45);
    expect(buys / orders.length).toBeLessThan(0.55);
    const sizes = orders.map((order) => order.usd);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7_500);
    expect(new Set(sizes.map((usd) => Math.round(usd))).size).toBeGreaterThan(1_000);
  });

  it('trade the busiest markets more often than thin ones', () => {
    expect(marketProfile(spec('BTC_USD')).activity).toBeGreaterThan(marketProfile(spec('SOL_USD')).activity);
    expect(marketProfile(spec('SOL_USD')).activity).toBeGreaterThan(marketProfile(spec('ETH_BTC')).activity);
  });
});
