/**
 * Property tests of the perp risk maths against an independent reference written here with exact
 * rationals in dollars (prices as decimals, an average entry price, Binance's progressive maintenance
 * margin slice by slice): not a copy of the integer code, which works in ticks, lots, a cost basis and
 * the cum deduction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PerpPosition, PerpSide, PerpSpec, ScanEntry } from './api.ts';
import { bankruptcyPriceTicks, findLiquidatable, liquidationPriceTicks } from './liquidation.ts';
import { LiquidationIndex } from './liquidation-index.ts';
import { crossState } from './margin.ts';
import { applyFill, unrealisedPnl } from './position.ts';
import { preTradeCheck } from './pretrade.ts';
import { BTC_BRACKETS, BTC_SPEC, BTC_TIERS, COARSE_LOT_SPEC, FINE_SPEC } from './risk-fixtures.test-support.ts';
import { tierFor } from './tiers.ts';
import { notionalMoney } from './units.ts';

// ---------- a tiny exact rational over bigint ----------
const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};
class Q {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d = 1n) {
    if (d === 0n) throw new Error('zero denominator');
    const sign = d < 0n ? -1n : 1n;
    const g = gcd(n, d) || 1n;
    this.n = (sign * n) / g;
    this.d = (sign * d) / g;
  }
  static of(n: number | bigint, d: number | bigint = 1): Q {
    return new Q(BigInt(n), BigInt(d));
  }
  add(o: Q): Q {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Q): Q {
    return new Q(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Q): Q {
    return new Q(this.n * o.n, this.d * o.d);
  }
  div(o: Q): Q {
    return new Q(this.n * o.d, this.d * o.n);
  }
  neg(): Q {
    return new Q(-this.n, this.d);
  }
  cmp(o: Q): number {
    const diff = this.n * o.d - o.n * this.d;
    return diff < 0n ? -1 : diff > 0n ? 1 : 0;
  }
  lte(o: Q): boolean {
    return this.cmp(o) <= 0;
  }
  min(o: Q): Q {
    return this.cmp(o) <= 0 ? this : o;
  }
  /** The smallest whole number >= this. */
  ceil(): bigint {
    const q = this.n / this.d;
    return this.n > 0n && this.n % this.d !== 0n ? q + 1n : q;
  }
}
const ZERO = Q.of(0);
const CENT_MICRO = 100_000_000n; // 10^8 money units per dollar

// ---------- the reference model, in dollars ----------
const price = (spec: PerpSpec, ticks: number | bigint): Q => Q.of(ticks, 10n ** BigInt(spec.priceDecimals));
const quantity = (spec: PerpSpec, lots: number | bigint): Q => Q.of(lots, 10n ** BigInt(spec.quantityDecimals));
const dollars = (money: bigint): Q => Q.of(money, CENT_MICRO);
const RATE_OF = (percent: number): Q => Q.of(Math.round(percent * 1_000_000), 100_000_000);
const REF_TIERS = BTC_BRACKETS.map(([cap, , mmr]) => ({ cap: Q.of(cap), rate: RATE_OF(mmr) }));

/** Maintenance margin as Binance's FAQ explains it: each slice of the notional at its own tier's rate, rounded up to 10^-8. */
function refMaintenance(notional: Q): Q {
  let total = ZERO;
  let floor = ZERO;
  for (const [index, tier] of REF_TIERS.entries()) {
    const top = index === REF_TIERS.length - 1 ? notional : notional.min(tier.cap);
    if (top.cmp(floor) > 0) total = total.add(top.sub(floor).mul(tier.rate));
    floor = tier.cap;
  }
  return Q.of(total.mul(Q.of(CENT_MICRO)).ceil(), CENT_MICRO);
}

interface RefPosition {
  /** Signed base quantity. */
  qty: Q;
  /** Average entry price (exact). */
  entry: Q;
}
const REF_FLAT: RefPosition = { qty: ZERO, entry: ZERO };
const refFromCode = (spec: PerpSpec, position: PerpPosition): RefPosition =>
  position.sizeLots === 0
    ? REF_FLAT
    : {
        qty: quantity(spec, position.sizeLots),
        entry: price(spec, position.costTickLots)
          .div(Q.of(Math.abs(position.sizeLots)))
          .mul(Q.of(1)),
      };
const refUpnl = (position: RefPosition, mark: Q): Q => position.qty.mul(mark.sub(position.entry));
const refNotional = (position: RefPosition, mark: Q): Q =>
  (position.qty.cmp(ZERO) < 0 ? position.qty.neg() : position.qty).mul(mark);
const refLiquidatable = (position: RefPosition, collateral: Q, mark: Q): boolean =>
  position.qty.cmp(ZERO) !== 0 &&
  collateral.add(refUpnl(position, mark)).lte(refMaintenance(refNotional(position, mark)));

/** A fill on an average-entry position: returns the new position and the realised P&L. */
function refFill(position: RefPosition, buy: boolean, qty: Q, at: Q): { position: RefPosition; realised: Q } {
  const signed = buy ? qty : qty.neg();
  const held = position.qty;
  if (held.cmp(ZERO) === 0 || held.cmp(ZERO) === signed.cmp(ZERO)) {
    const total = held.add(signed);
    const entry = held.mul(position.entry).add(signed.mul(at)).div(total);
    return { position: { qty: total, entry }, realised: ZERO };
  }
  const absHeld = held.cmp(ZERO) < 0 ? held.neg() : held;
  const closed = qty.min(absHeld);
  const realised = (held.cmp(ZERO) > 0 ? closed : closed.neg()).mul(at.sub(position.entry));
  const rest = held.add(signed);
  if (rest.cmp(ZERO) === 0) return { position: REF_FLAT, realised };
  if (rest.cmp(ZERO) === held.cmp(ZERO)) return { position: { qty: rest, entry: position.entry }, realised };
  return { position: { qty: rest, entry: at }, realised };
}

// ---------- generators ----------
const SPECS: readonly PerpSpec[] = [BTC_SPEC, FINE_SPEC, COARSE_LOT_SPEC];
/** Ticks and lots scaled per spec so that notionals run from cents to far beyond the last tier. */
const specArbitrary = fc.constantFrom(...SPECS);
const priceTicksFor = (spec: PerpSpec) =>
  spec === COARSE_LOT_SPEC
    ? fc.integer({ min: 1_000, max: 500_000 })
    : fc.integer({ min: 100 * 10 ** spec.priceDecimals, max: 100_000 * 10 ** spec.priceDecimals });
const lotsFor = (spec: PerpSpec) =>
  fc.oneof(
    fc.integer({ min: 1, max: 10 ** spec.quantityDecimals }),
    fc.integer({ min: 1, max: 100 * 10 ** spec.quantityDecimals }),
    fc.integer({ min: 1, max: Math.min(2 ** 40, 20_000 * 10 ** spec.quantityDecimals) }),
  );

/** A position with an entry that is not a whole tick (cost = lots x ticks + a remainder below lots). */
const positionFor = (spec: PerpSpec) =>
  fc.record({ lots: lotsFor(spec), ticks: priceTicksFor(spec), extra: fc.nat(), long: fc.boolean() }).map(
    ({ lots, ticks, extra, long }): PerpPosition => ({
      sizeLots: long ? lots : -lots,
      costTickLots: BigInt(lots) * BigInt(ticks) + BigInt(extra % lots),
    }),
  );

/** Collateral in money as a fraction of the position's entry notional, from deep loss to over-collateralised. */
function collateralFor(spec: PerpSpec, position: PerpPosition, permille: number): bigint {
  const units = 10n ** BigInt(8 - spec.priceDecimals - spec.quantityDecimals);
  return (position.costTickLots * units * BigInt(permille)) / 1000n;
}

describe('the reference agrees with the cum table', () => {
  it('progressive maintenance equals N x MMR - cum at a few notionals', () => {
    expect(refMaintenance(Q.of(5_000_000)).cmp(Q.of(78_700))).toBe(0);
    expect(refMaintenance(Q.of(84_000)).cmp(Q.of(370))).toBe(0);
  });
});

describe('(c) liquidation price consistent with the maintenance rule', () => {
  const isolated = specArbitrary.chain((spec) =>
    fc.record({ spec: fc.constant(spec), position: positionFor(spec), permille: fc.integer({ min: -50, max: 1_200 }) }),
  );

  it('isolated: liquidatable at LP, not one tick on the safe side; null only when no price liquidates', () => {
    let crossed = 0;
    fc.assert(
      fc.property(isolated, ({ spec, position, permille }) => {
        const collateral = collateralFor(spec, position, permille);
        const lp = liquidationPriceTicks({ spec, tiers: BTC_TIERS, position, collateral });
        const ref = refFromCode(spec, position);
        const at = (ticks: number) => refLiquidatable(ref, dollars(collateral), price(spec, ticks));
        if (lp === null) {
          expect(position.sizeLots).toBeGreaterThan(0);
          expect(at(1)).toBe(false);
          return;
        }
        expect(at(lp)).toBe(true);
        const entryTier = tierFor(
          BTC_TIERS,
          notionalMoney(spec, Number(position.costTickLots / BigInt(Math.abs(position.sizeLots))), position.sizeLots),
        );
        if (
          lp < Number.MAX_SAFE_INTEGER &&
          tierFor(BTC_TIERS, notionalMoney(spec, lp, position.sizeLots)) !== entryTier
        )
          crossed++;
        if (position.sizeLots > 0 && lp < Number.MAX_SAFE_INTEGER) expect(at(lp + 1)).toBe(false);
        else if (lp > 1) expect(at(lp - 1)).toBe(false);
      }),
      { numRuns: 2_000 },
    );
    expect(crossed).toBeGreaterThan(50); // LPs in another tier than the entry's
  });

  it('cross: at LP the whole account is liquidatable with the other position held, one tick safer it is not', () => {
    const cross = specArbitrary.chain((spec) =>
      fc.record({
        spec: fc.constant(spec),
        position: positionFor(spec),
        other: positionFor(BTC_SPEC),
        otherMark: priceTicksFor(BTC_SPEC),
        permille: fc.integer({ min: 0, max: 1_500 }),
      }),
    );
    fc.assert(
      fc.property(cross, ({ spec, position, other, otherMark, permille }) => {
        const wallet = collateralFor(spec, position, permille) + collateralFor(BTC_SPEC, other, 100);
        const otherRef = refFromCode(BTC_SPEC, other);
        const otherMarkUsd = price(BTC_SPEC, otherMark);
        const otherMm = refMaintenance(refNotional(otherRef, otherMarkUsd));
        const otherPnl = refUpnl(otherRef, otherMarkUsd);
        // WB' = wallet - other MM + other P&L (computed by the reference, handed to the code as money)
        const collateralUsd = dollars(wallet).sub(otherMm).add(otherPnl);
        const collateral = collateralUsd.mul(Q.of(CENT_MICRO)).ceil();
        fc.pre(collateralUsd.mul(Q.of(CENT_MICRO)).d === 1n);
        const lp = liquidationPriceTicks({ spec, tiers: BTC_TIERS, position, collateral });
        const ref = refFromCode(spec, position);
        const refAt = (ticks: number) => {
          const mark = price(spec, ticks);
          const equity = dollars(wallet).add(otherPnl).add(refUpnl(ref, mark));
          return equity.lte(otherMm.add(refMaintenance(refNotional(ref, mark))));
        };
        const base = { tiers: BTC_TIERS, mode: 'cross' as const, leverage: 1, isolatedMargin: 0n };
        const codeAt = (ticks: number) =>
          crossState({
            walletBalance: wallet,
            positions: [
              { ...base, spec: BTC_SPEC, position: other, markTicks: otherMark },
              { ...base, spec, position, markTicks: ticks },
            ],
            orderMargin: 0n,
          }).liquidatable;
        if (lp === null) {
          expect(refAt(1)).toBe(false);
          return;
        }
        expect(refAt(lp)).toBe(true);
        expect(codeAt(lp)).toBe(true);
        const safe = position.sizeLots > 0 ? lp + 1 : lp - 1;
        // LP 1 (short) and MAX_SAFE_INTEGER (long): liquidatable at every price, no safe side
        if (safe >= 1 && lp < Number.MAX_SAFE_INTEGER) {
          expect(refAt(safe)).toBe(false);
          expect(codeAt(safe)).toBe(false);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('(d) bankruptcy price', () => {
  it('closing at BP leaves collateral + P&L >= 0, one tick worse < 0', () => {
    const cases = specArbitrary.chain((spec) =>
      fc.record({
        spec: fc.constant(spec),
        position: positionFor(spec),
        permille: fc.integer({ min: -20, max: 1_100 }),
      }),
    );
    fc.assert(
      fc.property(cases, ({ spec, position, permille }) => {
        const collateral = collateralFor(spec, position, permille);
        const bp = bankruptcyPriceTicks(spec, position, collateral);
        const ref = refFromCode(spec, position);
        const equityAt = (ticks: number) => dollars(collateral).add(refUpnl(ref, price(spec, ticks)));
        if (bp === null) {
          // long: solvent down to a price of 0; short: insolvent at every positive price
          if (position.sizeLots > 0) expect(equityAt(0).cmp(ZERO)).toBeGreaterThanOrEqual(0);
          else expect(equityAt(1).cmp(ZERO)).toBeLessThan(0);
          return;
        }
        expect(equityAt(bp).cmp(ZERO)).toBeGreaterThanOrEqual(0);
        const worse = position.sizeLots > 0 ? bp - 1 : bp + 1;
        if (worse >= 1) expect(equityAt(worse).cmp(ZERO)).toBeLessThan(0);
      }),
      { numRuns: 2_000 },
    );
  });
});

/** Money units of a reference amount, which must be whole (P&L of whole tick-lots always is). */
const units = (amount: Q): bigint => {
  const scaled = amount.mul(Q.of(CENT_MICRO));
  if (scaled.d !== 1n) throw new Error('not a whole money amount');
  return scaled.n;
};
const feeUnits = (qty: Q, at: Q, rate: bigint): Q =>
  Q.of(qty.mul(at).mul(Q.of(rate, CENT_MICRO)).mul(Q.of(CENT_MICRO)).ceil(), CENT_MICRO);

describe('(a) margin never negative after a fill the pre-trade check accepted', () => {
  const cases = specArbitrary.chain((spec) =>
    fc
      .record({
        spec: fc.constant(spec),
        mark: priceTicksFor(spec),
        leverage: fc.integer({ min: 1, max: 125 }),
        held: fc.option(positionFor(spec), { freq: 2 }),
        buy: fc.boolean(),
        lots: lotsFor(spec),
        walletPermille: fc.integer({ min: 0, max: 3_000 }),
        limitShift: fc.integer({ min: -1_000, max: 1_000 }),
        fillShift: fc.integer({ min: 0, max: 1_000 }),
        feeRate: fc.constantFrom(20_000n, 40_000n),
      })
      .map((c) => {
        // price protection: the limit within mark +/- mark / (2 x leverage); the fill no worse than the limit
        const band = Math.floor(c.mark / (2 * c.leverage));
        const limit = Math.max(1, c.mark + Math.trunc((band * c.limitShift) / 1_000));
        const slip = Math.trunc((band * c.fillShift) / 1_000);
        const fill = c.buy ? Math.max(1, limit - slip) : limit + slip;
        return { ...c, limit, fill };
      }),
  );

  it('cross: margin balance >= 0 and wallet + realised - fees >= 0 (reference), total P&L equal to the reference', () => {
    let accepted = 0;
    fc.assert(
      fc.property(cases, ({ spec, mark, leverage, held, buy, lots, walletPermille, limit, fill, feeRate }) => {
        const position = held ?? { sizeLots: 0, costTickLots: 0n };
        const scale = 10n ** BigInt(8 - spec.priceDecimals - spec.quantityDecimals);
        const wallet =
          ((BigInt(lots) * BigInt(mark) * scale + position.costTickLots * scale) * BigInt(walletPermille)) / 10_000n;
        const risk = {
          spec,
          tiers: BTC_TIERS,
          position,
          markTicks: mark,
          mode: 'cross' as const,
          leverage,
          isolatedMargin: 0n,
        };
        const state = crossState({ walletBalance: wallet, positions: [risk], orderMargin: 0n });
        fc.pre(state.available >= 0n);
        const side: PerpSide = buy ? 'buy' : 'sell';
        const order = { side, lots, priceTicks: limit, reduceOnly: false, feeRate };
        const check = preTradeCheck({
          spec,
          tiers: BTC_TIERS,
          leverage,
          mode: 'cross',
          position,
          openOrders: [],
          order,
          available: state.available,
        });
        if (!check.ok) return;
        accepted++;
        const markUsd = price(spec, mark);
        const ref = refFill(refFromCode(spec, position), buy, quantity(spec, lots), price(spec, fill));
        const fee = feeUnits(quantity(spec, lots), price(spec, fill), feeRate);
        const walletAfter = dollars(wallet).add(ref.realised).sub(fee);
        const marginBalance = walletAfter.add(refUpnl(ref.position, markUsd));
        expect(marginBalance.cmp(ZERO)).toBeGreaterThanOrEqual(0);
        expect(walletAfter.cmp(ZERO)).toBeGreaterThanOrEqual(0);
        const code = applyFill(spec, position, side, lots, fill);
        const codeTotal = code.realisedPnl + unrealisedPnl(spec, code.position, mark);
        expect(codeTotal).toBe(units(ref.realised.add(refUpnl(ref.position, markUsd))));
        expect(code.position.sizeLots).toBe(position.sizeLots + (buy ? lots : -lots));
      }),
      { numRuns: 3_000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });
});

describe('(b) P&L conserved between the two sides of every trade', () => {
  const trade = fc.record({
    buyer: fc.nat(4),
    seller: fc.nat(4),
    lots: fc.integer({ min: 1, max: 5_000 }),
    ticks: fc.integer({ min: 300_000, max: 500_000 }),
  });
  it('Σ realised P&L = Σ signed cost basis (money), Σ sizes = 0, each account equal to the reference at any mark', () => {
    fc.assert(
      fc.property(fc.array(trade, { minLength: 1, maxLength: 120 }), priceTicksFor(BTC_SPEC), (trades, mark) => {
        const positions: PerpPosition[] = Array.from({ length: 5 }, () => ({ sizeLots: 0, costTickLots: 0n }));
        const realised = Array.from({ length: 5 }, () => 0n);
        const refs: RefPosition[] = Array.from({ length: 5 }, () => REF_FLAT);
        const refRealised: Q[] = Array.from({ length: 5 }, () => ZERO);
        for (const { buyer, seller, lots, ticks } of trades) {
          if (buyer === seller) continue;
          for (const [account, side] of [
            [buyer, 'buy'],
            [seller, 'sell'],
          ] as const) {
            const effect = applyFill(BTC_SPEC, positions[account]!, side, lots, ticks);
            positions[account] = effect.position;
            realised[account]! += effect.realisedPnl;
            const ref = refFill(refs[account]!, side === 'buy', quantity(BTC_SPEC, lots), price(BTC_SPEC, ticks));
            refs[account] = ref.position;
            refRealised[account] = refRealised[account]!.add(ref.realised);
          }
        }
        const signedCost = positions.reduce((sum, p) => sum + (p.sizeLots < 0 ? -p.costTickLots : p.costTickLots), 0n);
        expect(realised.reduce((a, b) => a + b, 0n)).toBe(signedCost * 10_000n);
        expect(positions.reduce((sum, p) => sum + p.sizeLots, 0)).toBe(0);
        const refCost = refs.reduce((sum, p) => sum.add(p.qty.mul(p.entry)), ZERO);
        expect(refRealised.reduce((a, b) => a.add(b), ZERO).cmp(refCost)).toBe(0);
        const markUsd = price(BTC_SPEC, mark);
        for (let account = 0; account < 5; account++) {
          const code = realised[account]! + unrealisedPnl(BTC_SPEC, positions[account]!, mark);
          expect(code).toBe(units(refRealised[account]!.add(refUpnl(refs[account]!, markUsd))));
          expect(Q.of(positions[account]!.sizeLots, 1_000).cmp(refs[account]!.qty)).toBe(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('(e) liquidation scan and index agree with a brute force over the reference', () => {
  const population = fc.record({
    base: fc.integer({ min: 10_000, max: 1_000_000 }),
    rows: fc.array(
      fc.record({
        lots: fc.oneof(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 1, max: 2_000_000 })),
        entryShift: fc.integer({ min: -200, max: 200 }),
        long: fc.boolean(),
        permille: fc.integer({ min: -10, max: 300 }),
      }),
      { minLength: 1, maxLength: 120 },
    ),
    markShifts: fc.array(fc.integer({ min: -150, max: 150 }), { minLength: 1, maxLength: 4 }),
    removals: fc.array(fc.nat(119), { maxLength: 20 }),
  });

  it('same ids at every mark, through upsert, load and remove', () => {
    let found = 0;
    let spared = 0;
    fc.assert(
      fc.property(population, ({ base, rows, markShifts, removals }) => {
        const entries: ScanEntry[] = rows.map((row, id) => {
          const entry = Math.max(1, base + Math.trunc((base * row.entryShift) / 1_000));
          const position = {
            sizeLots: row.long ? row.lots : -row.lots,
            costTickLots: BigInt(row.lots) * BigInt(entry),
          };
          return { id, ...position, collateral: collateralFor(BTC_SPEC, position, row.permille) };
        });
        const upserted = new LiquidationIndex(BTC_SPEC, BTC_TIERS);
        for (const entry of entries) upserted.upsert(entry);
        const removed = new Set(removals.filter((id) => id < entries.length));
        for (const id of removed) upserted.remove(id);
        const live = entries.filter((entry) => !removed.has(entry.id));
        const loaded = new LiquidationIndex(BTC_SPEC, BTC_TIERS);
        loaded.load(live);
        const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
        for (const shift of markShifts) {
          const mark = Math.max(1, base + Math.trunc((base * shift) / 1_000));
          const markUsd = price(BTC_SPEC, mark);
          const brute = live
            .filter((entry) => refLiquidatable(refFromCode(BTC_SPEC, entry), dollars(entry.collateral), markUsd))
            .map((entry) => entry.id);
          found += brute.length;
          spared += live.length - brute.length;
          expect(findLiquidatable(BTC_SPEC, BTC_TIERS, mark, live)).toEqual(brute);
          expect(sorted(upserted.findLiquidatable(mark))).toEqual(brute);
          expect(sorted(loaded.findLiquidatable(mark))).toEqual(brute);
        }
      }),
      { numRuns: 300 },
    );
    expect(found).toBeGreaterThan(300); // typically 1,000-3,000 over the 300 runs
    expect(spared).toBeGreaterThan(1_000);
  });
});
