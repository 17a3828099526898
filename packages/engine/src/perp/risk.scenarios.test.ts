import { describe, expect, it } from 'vitest';
import { FLAT, type OpenOrderIntent, type PerpPosition, type PerpSide, type PreTradeInput } from './api.ts';
import {
  bankruptcyPriceTicks,
  findLiquidatable,
  liquidatableAt,
  liquidationCloseLots,
  liquidationPriceTicks,
} from './liquidation.ts';
import { LiquidationIndex } from './liquidation-index.ts';
import { crossState, isolatedLiquidatable } from './margin.ts';
import { applyFill } from './position.ts';
import { preTradeCheck, reduceOnlyLimit } from './pretrade.ts';
import { BTC_SPEC, BTC_TIERS, btcLots, btcTicks, FINE_SPEC, USD } from './risk-fixtures.test-support.ts';

const position = (btc: number, entryUsd: number): PerpPosition => ({
  sizeLots: btcLots(btc),
  costTickLots: BigInt(btcLots(Math.abs(btc))) * BigInt(btcTicks(entryUsd)),
});

describe('applyFill: open, add, reduce, flip, close (one-way mode)', () => {
  // [name, start, side, lots, price, size after, cost after, realised, closed, opened]
  const rows: [string, PerpPosition, PerpSide, number, number, number, bigint, bigint, number, number][] = [
    ['open long', FLAT, 'buy', 10, 100, 10, 1_000n, 0n, 0, 10],
    ['open short', FLAT, 'sell', 10, 100, -10, 1_000n, 0n, 0, 10],
    ['add to a long', { sizeLots: 10, costTickLots: 1_000n }, 'buy', 5, 130, 15, 1_650n, 0n, 0, 5],
    ['add to a short', { sizeLots: -10, costTickLots: 1_000n }, 'sell', 5, 70, -15, 1_350n, 0n, 0, 5],
    ['reduce a long at a profit', { sizeLots: 10, costTickLots: 1_000n }, 'sell', 4, 120, 6, 600n, 80n, 4, 0],
    ['reduce a short at a loss', { sizeLots: -10, costTickLots: 1_000n }, 'buy', 4, 120, -6, 600n, -80n, 4, 0],
    // cost 1,001 over 3 lots: a long removes ceil(1,001 / 3) = 334, a short floor = 333
    ['reduce a long, share rounded up', { sizeLots: 3, costTickLots: 1_001n }, 'sell', 1, 400, 2, 667n, 66n, 1, 0],
    ['reduce a short, share rounded down', { sizeLots: -3, costTickLots: 1_001n }, 'buy', 1, 300, -2, 668n, 33n, 1, 0],
    ['close a long', { sizeLots: 3, costTickLots: 1_001n }, 'sell', 3, 300, 0, 0n, -101n, 3, 0],
    ['close a short', { sizeLots: -3, costTickLots: 1_001n }, 'buy', 3, 300, 0, 0n, 101n, 3, 0],
    ['flip a long into a short', { sizeLots: 10, costTickLots: 1_000n }, 'sell', 15, 90, -5, 450n, -100n, 10, 5],
    ['flip a short into a long', { sizeLots: -10, costTickLots: 1_000n }, 'buy', 12, 90, 2, 180n, 100n, 10, 2],
  ];
  it.each(rows)('%s', (_name, start, side, lots, price, size, cost, realised, closed, opened) => {
    const effect = applyFill(FINE_SPEC, start, side, lots, price);
    expect(effect.position).toEqual({ sizeLots: size, costTickLots: cost });
    expect(effect.realisedPnl).toBe(realised);
    expect(effect.closedLots).toBe(closed);
    expect(effect.openedLots).toBe(opened);
  });

  it('values realised P&L in money (BTC: 1 tick-lot = 10,000 units)', () => {
    const effect = applyFill(BTC_SPEC, position(2, 40_000), 'sell', btcLots(1), btcTicks(41_000));
    expect(effect.realisedPnl).toBe(1_000n * USD);
    expect(effect.position).toEqual(position(1, 40_000));
  });

  it('refuses a fill without lots or price', () => {
    expect(() => applyFill(FINE_SPEC, FLAT, 'buy', 0, 100)).toThrow();
    expect(() => applyFill(FINE_SPEC, FLAT, 'buy', 1, 0)).toThrow();
    expect(() => applyFill(FINE_SPEC, FLAT, 'buy', 1.5, 10)).toThrow();
  });
});

describe('bankruptcy prices of futures-maths.md §4', () => {
  it('Example A: 38,000 = 40,000 x (1 - 1/20); Example B: 44,000; L = 1: short 2 x EP, long null', () => {
    expect(bankruptcyPriceTicks(BTC_SPEC, position(2, 40_000), 4_000n * USD)).toBe(btcTicks(38_000));
    expect(bankruptcyPriceTicks(BTC_SPEC, position(-1.2, 40_000), 4_800n * USD)).toBe(btcTicks(44_000));
    expect(bankruptcyPriceTicks(BTC_SPEC, position(-1, 40_000), 40_000n * USD)).toBe(btcTicks(80_000));
    expect(bankruptcyPriceTicks(BTC_SPEC, position(1, 40_000), 40_000n * USD)).toBeNull();
    expect(bankruptcyPriceTicks(BTC_SPEC, FLAT, 0n)).toBeNull();
  });

  it('rounds a long up and a short down to the tick', () => {
    // 3 lots, cost 1,000 tick-lots, collateral 1 -> long (1,000 - 1) / 3 = 333 exactly; collateral 2 -> 332.67 -> 333
    expect(bankruptcyPriceTicks(FINE_SPEC, { sizeLots: 3, costTickLots: 1_000n }, 2n)).toBe(333);
    expect(bankruptcyPriceTicks(FINE_SPEC, { sizeLots: -3, costTickLots: 1_000n }, 2n)).toBe(334);
  });
});

describe('liquidation exactly at the maintenance line', () => {
  const cases: [string, PerpPosition, bigint][] = [
    ['isolated long (Example A)', position(2, 40_000), 4_000n * USD],
    ['isolated short across a tier (Example B)', position(-1.2, 40_000), 4_800n * USD],
    ['large long across tiers', position(150, 40_000), 400_000n * USD],
    ['large short across tiers', position(-150, 40_000), 400_000n * USD],
  ];
  it.each(cases)('%s: liquidatable at LP, not one tick before', (_name, held, collateral) => {
    const lp = liquidationPriceTicks({ spec: BTC_SPEC, tiers: BTC_TIERS, position: held, collateral })!;
    const safe = held.sizeLots > 0 ? lp + 1 : lp - 1;
    expect(liquidatableAt(BTC_SPEC, BTC_TIERS, held, collateral, lp)).toBe(true);
    expect(liquidatableAt(BTC_SPEC, BTC_TIERS, held, collateral, safe)).toBe(false);
    const risk = { spec: BTC_SPEC, tiers: BTC_TIERS, position: held, mode: 'isolated' as const, leverage: 10 };
    expect(isolatedLiquidatable({ ...risk, markTicks: lp, isolatedMargin: collateral })).toBe(true);
    expect(isolatedLiquidatable({ ...risk, markTicks: safe, isolatedMargin: collateral })).toBe(false);
  });

  it('cross: Example C liquidates the account at LP with the other position fixed, not one tick above', () => {
    // The other position: a 1 BTC short in another market entered at 30,000, marked 30,200 (UPNL -200).
    const other = { sizeLots: -1_000, costTickLots: 300_000_000n };
    const base = { spec: BTC_SPEC, tiers: BTC_TIERS, mode: 'cross' as const, leverage: 20, isolatedMargin: 0n };
    const otherRisk = { ...base, position: other, markTicks: 302_000 };
    const otherMm = crossState({ walletBalance: 0n, positions: [otherRisk], orderMargin: 0n }).maintenanceMargin;
    const collateral = 10_000n * USD - otherMm - 200n * USD;
    const lp = liquidationPriceTicks({ spec: BTC_SPEC, tiers: BTC_TIERS, position: position(1, 60_000), collateral })!;
    const at = (mark: number) =>
      crossState({
        walletBalance: 10_000n * USD,
        positions: [otherRisk, { ...base, position: position(1, 60_000), markTicks: mark }],
        orderMargin: 0n,
      }).liquidatable;
    expect(at(lp)).toBe(true);
    expect(at(lp + 1)).toBe(false);
  });
});

describe('partial liquidation by tier (§7)', () => {
  // 100 BTC long at 50,000 marked 50,000: N = 5,000,000 (tier 4), MM 78,700.
  const held = position(100, 50_000);
  const mark = btcTicks(50_000);
  it.each([
    ['to the tier-3 cap: 5,000,000 -> 3,000,000 (40 %)', 50_000n, btcLots(40)],
    ['to the tier-2 cap when tier 3 is not safe', 20_000n, btcLots(95)],
    ['to the tier-1 cap when tier 2 is not safe', 1_000n, btcLots(99)],
    ['all of it when even tier 1 is not safe', 100n, btcLots(100)],
  ])('%s', (_name, equityUsd, lots) => {
    expect(liquidationCloseLots(BTC_SPEC, BTC_TIERS, held, equityUsd * USD, mark)).toBe(lots);
  });

  it('closes everything in the first tier', () => {
    expect(liquidationCloseLots(BTC_SPEC, BTC_TIERS, position(0.5, 50_000), 10n * USD, mark)).toBe(btcLots(0.5));
    expect(liquidationCloseLots(BTC_SPEC, BTC_TIERS, FLAT, 10n * USD, mark)).toBe(0);
  });
});

describe('liquidation scan', () => {
  it('finds exactly the entries under maintenance, with the linear scan and the index', () => {
    const entries = [
      { id: 1, ...position(2, 40_000), collateral: 4_000n * USD }, // LP 38,165.8
      { id: 2, ...position(-1.2, 40_000), collateral: 4_800n * USD }, // LP 43,822.6
      { id: 3, ...position(1, 100), collateral: 100n * USD }, // never
      { id: 4, ...FLAT, collateral: 0n },
    ];
    const index = new LiquidationIndex(BTC_SPEC, BTC_TIERS);
    for (const entry of entries) index.upsert(entry);
    for (const [usdMark, ids] of [
      [38_165.8, [1]],
      [38_165.9, []],
      [43_822.5, []],
      [43_822.6, [2]],
      [40_000, []],
    ] as const) {
      expect(findLiquidatable(BTC_SPEC, BTC_TIERS, btcTicks(usdMark), entries)).toEqual(ids);
      expect(index.findLiquidatable(btcTicks(usdMark))).toEqual(ids);
    }
    expect(index.size).toBe(3);
    expect(index.liquidationPrice(1)).toBe(381_658);
    expect(index.liquidationPrice(3)).toBeNull();
    index.upsert({ id: 1, ...position(2, 40_000), collateral: 5_000n * USD }); // more margin: LP falls
    expect(index.findLiquidatable(btcTicks(38_165.8))).toEqual([]);
    index.remove(2);
    expect(index.findLiquidatable(btcTicks(50_000))).toEqual([]);
    expect(index.size).toBe(2);
  });
});

describe('LiquidationIndex under many updates (pending list merges, removed entries skipped)', () => {
  it('matches the linear scan after thousands of upserts, replacements and removals', () => {
    let seed = 7;
    const next = (range: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % range;
    };
    const entries = new Map<number, { id: number; sizeLots: number; costTickLots: bigint; collateral: bigint }>();
    const index = new LiquidationIndex(BTC_SPEC, BTC_TIERS);
    for (let step = 0; step < 6_000; step++) {
      const id = next(2_500);
      if (next(10) === 0) {
        index.remove(id);
        entries.delete(id);
        continue;
      }
      const lots = 1 + next(3_000);
      const sizeLots = next(2) === 0 ? lots : -lots;
      const entry = {
        id,
        sizeLots,
        costTickLots: BigInt(lots) * BigInt(380_000 + next(40_000)),
        collateral: BigInt(next(20_000)) * USD,
      };
      index.upsert(entry);
      entries.set(id, entry);
    }
    expect(index.size).toBe(entries.size);
    const all = [...entries.values()].sort((a, b) => a.id - b.id);
    for (const mark of [340_000, 370_000, 400_000, 430_000, 460_000]) {
      const expected = findLiquidatable(BTC_SPEC, BTC_TIERS, mark, all);
      expect(expected.length).toBeGreaterThan(0);
      expect(index.findLiquidatable(mark).sort((a, b) => a - b)).toEqual(expected);
    }
  });
});

describe('pre-trade check (docs/futures.md "Margin rules")', () => {
  const order = {
    side: 'buy' as const,
    lots: btcLots(1),
    priceTicks: btcTicks(40_000),
    reduceOnly: false,
    feeRate: 40_000n,
  };
  const input = (overrides: Partial<PreTradeInput>): PreTradeInput => ({
    spec: BTC_SPEC,
    tiers: BTC_TIERS,
    leverage: 20,
    mode: 'cross',
    position: FLAT,
    openOrders: [],
    order,
    available: 10_000n * USD,
    ...overrides,
  });

  it('reserves ceil(opening notional / leverage) + the taker fee of the whole order', () => {
    expect(preTradeCheck(input({}))).toEqual({
      ok: true,
      openingLots: 1_000,
      orderMargin: 2_000n * USD + 16n * USD,
      worstNotional: 40_000n * USD,
    });
    expect(preTradeCheck(input({ available: 2_016n * USD })).ok).toBe(true);
    expect(preTradeCheck(input({ available: 2_016n * USD - 1n }))).toEqual({
      ok: false,
      reason: 'insufficient_margin',
    });
  });

  it('rounds the fee and the margin up', () => {
    // FINE_SPEC: 1 lot at 1 tick = 1 unit; fee 0.04 % of 1 -> 1; margin 1/20 -> 1
    const fine = input({ spec: FINE_SPEC, order: { ...order, lots: 1, priceTicks: 1 }, available: 2n });
    expect(preTradeCheck(fine)).toMatchObject({ ok: true, orderMargin: 2n });
    expect(preTradeCheck({ ...fine, available: 1n })).toEqual({ ok: false, reason: 'insufficient_margin' });
  });

  it('counts only the lots beyond the position and the other closing orders as opening', () => {
    const held = position(-0.4, 40_000);
    expect(preTradeCheck(input({ position: held }))).toMatchObject({ ok: true, openingLots: 600 });
    const closing: OpenOrderIntent = { side: 'buy', remainingLots: 300, priceTicks: 390_000, reduceOnly: true };
    expect(preTradeCheck(input({ position: held, openOrders: [closing] }))).toMatchObject({ openingLots: 900 });
    // an order that only reduces is never refused for margin
    const small = { ...order, lots: 400 };
    expect(preTradeCheck(input({ position: held, order: small, available: 0n }))).toMatchObject({
      ok: true,
      openingLots: 0,
    });
  });

  it('refuses leverage above the tier maximum for the worst notional the orders could reach', () => {
    // 100x caps at 250,000: 6 BTC at 40,000 = 240,000 passes, 7 BTC = 280,000 does not
    const big = (btc: number) => ({ ...order, lots: btcLots(btc) });
    expect(preTradeCheck(input({ leverage: 100, order: big(6), available: 10n ** 20n })).ok).toBe(true);
    expect(preTradeCheck(input({ leverage: 100, order: big(7), available: 10n ** 20n }))).toEqual({
      ok: false,
      reason: 'leverage_too_high',
    });
    // an existing long of 5 BTC plus an open buy of 1 BTC leave no room for another 1 BTC at 100x
    const openBuy: OpenOrderIntent = { side: 'buy', remainingLots: 1_000, priceTicks: 400_000, reduceOnly: false };
    const crowded = input({
      leverage: 100,
      position: position(5, 40_000),
      openOrders: [openBuy],
      available: 10n ** 20n,
    });
    expect(preTradeCheck(crowded)).toEqual({ ok: false, reason: 'leverage_too_high' });
    // a sell that flips a 5 BTC long into a 7 BTC short is valued beyond zero only
    const flip = input({
      leverage: 100,
      position: position(5, 40_000),
      order: { ...big(12), side: 'sell' },
      available: 10n ** 20n,
    });
    expect(preTradeCheck(flip)).toMatchObject({ ok: false, reason: 'leverage_too_high' });
    expect(preTradeCheck({ ...flip, order: { ...big(11), side: 'sell' } })).toMatchObject({
      ok: true,
      worstNotional: 240_000n * USD,
    });
    expect(preTradeCheck(input({ leverage: 126 }))).toEqual({ ok: false, reason: 'leverage_too_high' });
    // a 7 BTC long (280,000 > the 100x cap) may still be reduced, but not grown
    const over = input({ leverage: 100, position: position(7, 40_000), available: 10n ** 20n });
    expect(preTradeCheck({ ...over, order: { ...big(1), side: 'sell' } })).toMatchObject({ ok: true, openingLots: 0 });
    expect(preTradeCheck({ ...over, order: { ...big(1), side: 'sell', reduceOnly: true } })).toMatchObject({
      ok: true,
    });
    expect(preTradeCheck({ ...over, order: { ...big(0.001), side: 'buy' } })).toEqual({
      ok: false,
      reason: 'leverage_too_high',
    });
  });

  it('lets reduce-only orders only reduce, counting the other reduce-only orders', () => {
    const held = position(1, 40_000);
    const sell = { ...order, side: 'sell' as const, reduceOnly: true };
    const other: OpenOrderIntent = { side: 'sell', remainingLots: 600, priceTicks: 410_000, reduceOnly: true };
    expect(reduceOnlyLimit(held, [other], 'sell')).toBe(400);
    expect(reduceOnlyLimit(held, [other], 'buy')).toBe(0);
    expect(reduceOnlyLimit(FLAT, [], 'sell')).toBe(0);
    expect(preTradeCheck(input({ position: held, order: { ...sell, lots: 400 }, openOrders: [other] }))).toMatchObject({
      ok: true,
      openingLots: 0,
    });
    expect(preTradeCheck(input({ position: held, order: { ...sell, lots: 401 }, openOrders: [other] }))).toEqual({
      ok: false,
      reason: 'reduce_only_would_increase',
    });
    expect(preTradeCheck(input({ position: held, order: { ...order, reduceOnly: true } }))).toEqual({
      ok: false,
      reason: 'reduce_only_would_increase',
    });
  });
});
