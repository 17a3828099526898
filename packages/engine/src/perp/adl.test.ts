import { describe, expect, it } from 'vitest';
import { adlQueue } from './adl.ts';
import type { AdlCandidate } from './api.ts';

// Tick 1 USD, lot 1 BTC: one tick x lot is 1 USD = 10^8 money units.
const WHOLE = { priceDecimals: 0, quantityDecimals: 0 };
const usd = (dollars: number): bigint => BigInt(dollars) * 100_000_000n;

/** A position of sizeLots at an entry price, backed by collateral dollars (isolated: BP = entry -/+ collateral / size). */
const candidate = (id: string, sizeLots: number, entryTicks: number, collateralUsd: number): AdlCandidate => ({
  id,
  position: { sizeLots, costTickLots: BigInt(Math.abs(sizeLots) * entryTicks) },
  collateral: usd(collateralUsd),
});

describe('adlQueue', () => {
  it("orders futures-maths.md §8's longs Y (0.7933), X (0.55), Z (-0.00758) at mark 55,000", () => {
    // X: entry 50,000, BP 45,000 -> collateral 5,000; Y: entry 52,000, BP 51,000 -> 1,000; Z: entry 60,000, BP 50,000 -> 10,000.
    const queue = adlQueue(WHOLE, 55_000, [
      candidate('X', 1, 50_000, 5_000),
      candidate('Y', 1, 52_000, 1_000),
      candidate('Z', 1, 60_000, 10_000),
    ]);
    expect(queue).toEqual([
      { id: 'Y', rank: 5 },
      { id: 'X', rank: 4 },
      { id: 'Z', rank: 2 },
    ]);
  });

  it('orders the mirrored shorts the same way', () => {
    // Shorts at mark 55,000 with entries mirrored around it: X' 60,000 (BP 65,000), Y' 58,000 (BP 59,000), Z' 50,000 (BP 60,000).
    const queue = adlQueue(WHOLE, 55_000, [
      candidate('Z', -1, 50_000, 10_000),
      candidate('X', -1, 60_000, 5_000),
      candidate('Y', -1, 58_000, 1_000),
    ]);
    expect(queue.map((entry) => entry.id)).toEqual(['Y', 'X', 'Z']);
  });

  it('puts more leverage first among winners of equal profit and nearer zero among losers', () => {
    const winners = adlQueue(WHOLE, 110, [candidate('low', 10, 100, 500), candidate('high', 10, 100, 50)]);
    expect(winners.map((entry) => entry.id)).toEqual(['high', 'low']);
    const losers = adlQueue(WHOLE, 90, [candidate('low', 10, 100, 500), candidate('high', 10, 100, 150)]);
    expect(losers.map((entry) => entry.id)).toEqual(['high', 'low']);
  });

  it('ranks flat P&L between winners and losers, and an underwater loser first among losers', () => {
    const queue = adlQueue(WHOLE, 100, [
      candidate('loser', 1, 101, 50),
      candidate('underwater', 1, 200, 10),
      candidate('flat', 1, 100, 10),
      candidate('winner', 1, 99, 10),
    ]);
    expect(queue.map((entry) => entry.id)).toEqual(['winner', 'flat', 'underwater', 'loser']);
  });

  it('breaks exact ties by id, comparing the scores as fractions', () => {
    // Same P&L % and leverage at different sizes: 2 x the position and 2 x the collateral.
    const queue = adlQueue(WHOLE, 110, [
      candidate('b', 2, 100, 40),
      candidate('c', 1, 100, 21),
      candidate('a', 1, 100, 20),
    ]);
    expect(queue.map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
  });

  it('shows 5 to 1 lights by fifths of the queue', () => {
    const ten = Array.from({ length: 10 }, (_, index) => candidate(`p${index}`, 1, 100 - index, 10));
    expect(adlQueue(WHOLE, 100, ten).map((entry) => entry.rank)).toEqual([5, 5, 4, 4, 3, 3, 2, 2, 1, 1]);
    const five = ten.slice(0, 5);
    expect(adlQueue(WHOLE, 100, five).map((entry) => entry.rank)).toEqual([5, 4, 3, 2, 1]);
    expect(adlQueue(WHOLE, 100, ten.slice(0, 1))).toEqual([{ id: 'p0', rank: 5 }]);
    expect(adlQueue(WHOLE, 100, [])).toEqual([]);
  });

  it('refuses mixed sides, flat positions and negative collateral', () => {
    expect(() => adlQueue(WHOLE, 100, [candidate('a', 1, 100, 1), candidate('b', -1, 100, 1)])).toThrow(RangeError);
    expect(() => adlQueue(WHOLE, 100, [candidate('a', 0, 100, 1)])).toThrow(RangeError);
    expect(() => adlQueue(WHOLE, 100, [candidate('a', 1, 100, -1)])).toThrow(RangeError);
  });
});
