import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Fraction, frac } from '../perp/fraction.test-support.ts';
import type { LotEvent, LotMethod, LotResult } from './api.ts';
import { computeLots, LotBook } from './lot-book.ts';

/**
 * The reference: lots in a plain array, the next lot found by a linear scan with the method's rule
 * written out (FIFO: the earliest; LIFO: the latest; HIFO: the highest cost per unit as an exact
 * fraction, ties to the earliest), and every share computed with exact fractions. It shares no code
 * with the book (no heap, no float estimate, no cumulativeShare).
 */
interface ReferenceLot {
  id: string;
  sequence: number;
  amount: bigint;
  cost: bigint;
  remaining: bigint;
}
interface ReferenceMatch {
  disposalId: string;
  lotId: string | null;
  amount: bigint;
}

function nextLot(lots: ReferenceLot[], method: LotMethod): ReferenceLot | undefined {
  const open = lots.filter((lot) => lot.remaining > 0n);
  if (method === 'fifo') return open[0];
  if (method === 'lifo') return open.at(-1);
  let best: ReferenceLot | undefined;
  for (const lot of open) {
    if (best === undefined || frac(lot.cost, lot.amount).cmp(frac(best.cost, best.amount)) > 0) best = lot;
  }
  return best;
}

function referenceMatches(events: readonly LotEvent[], method: LotMethod): ReferenceMatch[] {
  const lots: ReferenceLot[] = [];
  const matches: ReferenceMatch[] = [];
  events.forEach((event, sequence) => {
    if (event.type === 'acquisition') {
      lots.push({ id: event.id, sequence, amount: event.amount, cost: event.costUsd, remaining: event.amount });
      return;
    }
    let wanted = event.amount;
    while (wanted > 0n) {
      const lot = nextLot(lots, method);
      if (lot === undefined) {
        matches.push({ disposalId: event.id, lotId: null, amount: wanted });
        break;
      }
      const take = wanted < lot.remaining ? wanted : lot.remaining;
      lot.remaining -= take;
      wanted -= take;
      matches.push({ disposalId: event.id, lotId: lot.id, amount: take });
    }
  });
  return matches;
}

const amountArbitrary = fc.oneof(
  fc.bigInt({ min: 1n, max: 12n }),
  fc.bigInt({ min: 1n, max: 1_000_000n }),
  fc.bigInt({ min: 1n, max: 10n ** 24n }),
);
const valueArbitrary = fc.oneof(
  fc.bigInt({ min: 0n, max: 40n }),
  fc.bigInt({ min: 0n, max: 10n ** 10n }),
  fc.bigInt({ min: 0n, max: 10n ** 30n }),
);
const stepArbitrary = fc.oneof(
  fc.record({
    in: fc.constant(true),
    amount: amountArbitrary,
    cost: valueArbitrary,
    // A whole price per unit from a short list half the time, so that HIFO meets exact ties often.
    unitPrice: fc.option(fc.bigInt({ min: 0n, max: 3n }), { freq: 2 }),
    gapMs: fc.nat({ max: 3 }),
  }),
  fc.record({
    in: fc.constant(false),
    perMille: fc.integer({ min: 1, max: 1_000 }),
    proceeds: valueArbitrary,
    fee: valueArbitrary,
    gapMs: fc.nat({ max: 3 }),
  }),
);

/** A history that never disposes of more than is held; closedOut adds a last disposal of everything. */
const historyArbitrary = (closedOut: boolean) =>
  fc.array(stepArbitrary, { maxLength: 40 }).map((steps) => {
    const events: LotEvent[] = [];
    let held = 0n;
    let timeMs = 1_700_000_000_000;
    steps.forEach((step, index) => {
      timeMs += step.gapMs;
      const id = `e${index}`;
      if (step.in) {
        const costUsd = step.unitPrice === null ? step.cost : step.amount * step.unitPrice;
        events.push({ type: 'acquisition', id, timeMs, kind: 'buy', amount: step.amount, costUsd });
        held += step.amount;
      } else if (held > 0n) {
        const share = (held * BigInt(step.perMille)) / 1_000n;
        const amount = share > 0n ? share : 1n;
        events.push({
          type: 'disposal',
          id,
          timeMs,
          kind: 'sell',
          amount,
          proceedsUsd: step.proceeds,
          feeUsd: step.fee,
        });
        held -= amount;
      }
    });
    if (closedOut && held > 0n) {
      events.push({ type: 'disposal', id: 'last', timeMs, kind: 'sell', amount: held, proceedsUsd: 777n, feeUsd: 3n });
    }
    return events;
  });

const methodArbitrary = fc.constantFrom<LotMethod>('fifo', 'lifo', 'hifo');

function compute(events: LotEvent[], method: LotMethod): LotResult {
  const result = computeLots({ asset: 'X', scale: 8, events }, { method });
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  return result;
}

const sum = (values: readonly bigint[]): bigint => values.reduce((total, value) => total + value, 0n);
const disposals = (events: readonly LotEvent[]) =>
  events.flatMap((event) => (event.type === 'disposal' ? [event] : []));
const acquisitions = (events: readonly LotEvent[]) =>
  events.flatMap((event) => (event.type === 'acquisition' ? [event] : []));

/** |integer - exact| < 1. */
const withinOneUnit = (value: bigint, exact: Fraction): boolean => frac(value).sub(exact).abs().cmp(frac(1n)) < 0;

describe('computeLots (properties)', () => {
  it("consumes lots in each method's order, as the reference does", () => {
    fc.assert(
      fc.property(historyArbitrary(false), methodArbitrary, (events, method) => {
        const rows = compute(events, method).realised;
        expect(rows.map(({ disposalId, lotId, amount }) => ({ disposalId, lotId, amount }))).toEqual(
          referenceMatches(events, method),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('Σ gains = Σ proceeds - Σ cost of the consumed lots - Σ fees, exactly, and the totals agree', () => {
    fc.assert(
      fc.property(historyArbitrary(false), methodArbitrary, (events, method) => {
        const { realised, totals } = compute(events, method);
        const sold = disposals(events);
        const consumedCost = sum(realised.map((row) => row.costUsd));
        const gains = sum(realised.map((row) => row.gainUsd));
        expect(gains).toBe(sum(sold.map((event) => event.proceedsUsd)) - consumedCost - sum(sold.map((e) => e.feeUsd)));
        expect(totals.realisedGainUsd).toBe(gains);
        expect(totals.consumedCostUsd).toBe(consumedCost);
        expect(totals.uncoveredAmount).toBe(0n);
        for (const row of realised) expect(row.gainUsd).toBe(row.proceedsUsd - row.costUsd - row.feeUsd);
        const summary = computeLots({ asset: 'X', scale: 8, events }, { method, realisedRows: false });
        expect(summary.ok && summary.totals).toEqual(totals);
      }),
      { numRuns: 300 },
    );
  });

  it('a closed-out history: Σ gains = total proceeds - total costs - total fees, and nothing stays open', () => {
    fc.assert(
      fc.property(historyArbitrary(true), methodArbitrary, (events, method) => {
        const { realised, openLots, totals } = compute(events, method);
        const sold = disposals(events);
        const expected =
          sum(sold.map((event) => event.proceedsUsd)) -
          sum(acquisitions(events).map((event) => event.costUsd)) -
          sum(sold.map((event) => event.feeUsd));
        expect(sum(realised.map((row) => row.gainUsd))).toBe(expected);
        expect(openLots).toEqual([]);
        expect(totals).toMatchObject({ openAmount: 0n, openCostUsd: 0n, realisedGainUsd: expected });
      }),
      { numRuns: 300 },
    );
  });

  it("the parts of each lot add up to it, each part's cost is floor(C k / n) cumulatively (within a unit of exact)", () => {
    fc.assert(
      fc.property(historyArbitrary(false), methodArbitrary, (events, method) => {
        const { realised, openLots } = compute(events, method);
        const open = new Map(openLots.map((lot) => [lot.lotId, lot]));
        for (const lot of acquisitions(events)) {
          const parts = realised.filter((row) => row.lotId === lot.id);
          let consumed = 0n;
          for (const part of parts) {
            const before = frac(lot.costUsd * consumed, lot.amount).floor();
            consumed += part.amount;
            expect(part.costUsd).toBe(frac(lot.costUsd * consumed, lot.amount).floor() - before);
            expect(withinOneUnit(part.costUsd, frac(lot.costUsd * part.amount, lot.amount))).toBe(true);
          }
          const rest = open.get(lot.id);
          expect(consumed + (rest?.remainingAmount ?? 0n)).toBe(lot.amount);
          expect(sum(parts.map((part) => part.costUsd)) + (rest?.remainingCostUsd ?? 0n)).toBe(lot.costUsd);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the parts of each disposal add up to its amount, proceeds and fee, each within a unit of its exact share', () => {
    fc.assert(
      fc.property(historyArbitrary(false), methodArbitrary, (events, method) => {
        const { realised } = compute(events, method);
        for (const sale of disposals(events)) {
          const parts = realised.filter((row) => row.disposalId === sale.id);
          expect(sum(parts.map((part) => part.amount))).toBe(sale.amount);
          expect(sum(parts.map((part) => part.proceedsUsd))).toBe(sale.proceedsUsd);
          expect(sum(parts.map((part) => part.feeUsd))).toBe(sale.feeUsd);
          for (const part of parts) {
            expect(withinOneUnit(part.proceedsUsd, frac(sale.proceedsUsd * part.amount, sale.amount))).toBe(true);
            expect(withinOneUnit(part.feeUsd, frac(sale.feeUsd * part.amount, sale.amount))).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('after every event, no open lot is empty or negative and the totals match the open lots', () => {
    fc.assert(
      fc.property(historyArbitrary(false), methodArbitrary, (events, method) => {
        const book = LotBook.create({ method });
        if (!(book instanceof LotBook)) throw new Error('no book');
        for (const event of events) {
          expect(book.apply(event).ok).toBe(true);
          const open = book.openLots();
          for (const lot of open) {
            expect(lot.remainingAmount > 0n && lot.remainingAmount <= lot.amount).toBe(true);
            expect(lot.remainingCostUsd >= 0n && lot.remainingCostUsd <= lot.costUsd).toBe(true);
          }
          const totals = book.totals();
          expect(totals.openAmount).toBe(sum(open.map((lot) => lot.remainingAmount)));
          expect(totals.openCostUsd).toBe(sum(open.map((lot) => lot.remainingCostUsd)));
          expect(open.map((lot) => lot.sequence)).toEqual(open.map((lot) => lot.sequence).sort((a, b) => a - b));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("over-disposing histories: the uncovered part is one zero-cost row per disposal, and 'reject' refuses the first", () => {
    const anyDisposal = fc.record({
      in: fc.boolean(),
      amount: amountArbitrary,
      value: valueArbitrary,
      fee: valueArbitrary,
    });
    fc.assert(
      fc.property(fc.array(anyDisposal, { maxLength: 30 }), methodArbitrary, (steps, method) => {
        const events: LotEvent[] = steps.map((step, index) =>
          step.in
            ? {
                type: 'acquisition',
                id: `e${index}`,
                timeMs: index,
                kind: 'deposit',
                amount: step.amount,
                costUsd: step.value,
              }
            : {
                type: 'disposal',
                id: `e${index}`,
                timeMs: index,
                kind: 'withdrawal',
                amount: step.amount,
                proceedsUsd: step.value,
                feeUsd: step.fee,
              },
        );
        const { realised, totals } = compute(events, method);
        expect(realised.map(({ disposalId, lotId, amount }) => ({ disposalId, lotId, amount }))).toEqual(
          referenceMatches(events, method),
        );
        const uncovered = realised.filter((row) => row.lotId === null);
        for (const row of uncovered) expect(row).toMatchObject({ costUsd: 0n, acquiredTimeMs: null });
        expect(sum(uncovered.map((row) => row.amount))).toBe(totals.uncoveredAmount);
        expect(totals.openAmount + totals.disposedAmount - totals.uncoveredAmount).toBe(totals.acquiredAmount);
        const firstShort = uncovered[0];
        const rejected = computeLots({ asset: 'X', scale: 8, events }, { method, shortfall: 'reject' });
        if (firstShort === undefined) expect(rejected.ok).toBe(true);
        else {
          expect(rejected).toMatchObject({
            ok: false,
            reason: 'insufficient_lots',
            eventId: firstShort.disposalId,
            shortfallAmount: firstShort.amount,
          });
        }
      }),
      { numRuns: 200 },
    );
  });
});
