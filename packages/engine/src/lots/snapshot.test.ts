import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LotEvent, LotMethod, RealisedRow } from './api.ts';
import { LotBook } from './lot-book.ts';
import { type LotBookSnapshot, parseUnitsText, unitsText } from './snapshot.ts';

const methods: LotMethod[] = ['fifo', 'lifo', 'hifo'];

/** Histories with equal costs per unit (HIFO ties), partial disposals, uncovered ones, equal times. */
const historyArbitrary = fc
  .array(
    fc.record({
      in: fc.boolean(),
      amount: fc.oneof(fc.bigInt({ min: 1n, max: 20n }), fc.bigInt({ min: 1n, max: 10n ** 24n })),
      value: fc.oneof(fc.bigInt({ min: 0n, max: 40n }), fc.bigInt({ min: 0n, max: 10n ** 20n })),
      fee: fc.bigInt({ min: 0n, max: 1_000n }),
      kind: fc.constantFrom('buy', 'deposit', 'other', 'transfer_in', 'conversion_in'),
      gapMs: fc.nat({ max: 3 }),
    }),
    { maxLength: 60 },
  )
  .map((steps) => {
    let timeMs = 1_700_000_000_000;
    return steps.map((step, index): LotEvent => {
      timeMs += step.gapMs;
      const id = `e${index}`;
      if (step.in) {
        const kind = step.kind as 'buy';
        return { type: 'acquisition', id, timeMs, kind, amount: step.amount, costUsd: step.value };
      }
      return {
        type: 'disposal',
        id,
        timeMs,
        kind: 'sell',
        amount: step.amount,
        proceedsUsd: step.value,
        feeUsd: step.fee,
      };
    });
  });

function book(method: LotMethod): LotBook {
  const created = LotBook.create({ method });
  if (!(created instanceof LotBook)) throw new Error(created.message);
  return created;
}

function applyAll(target: LotBook, events: readonly LotEvent[]): RealisedRow[] {
  const rows: RealisedRow[] = [];
  for (const event of events) {
    const error = target.applyInto(event, rows);
    if (error) throw new Error(error.message);
  }
  return rows;
}

/** Through JSON, as a checkpoint stores it. */
const viaJson = (snapshot: LotBookSnapshot): unknown => JSON.parse(JSON.stringify(snapshot));

describe('LotBook snapshot and restore', () => {
  it('restore(snapshot at k) + the rest = one pass: open lots, totals, rows, and the snapshot itself', () => {
    fc.assert(
      fc.property(historyArbitrary, fc.nat(), fc.constantFrom(...methods), (events, cutSeed, method) => {
        const cut = events.length === 0 ? 0 : cutSeed % (events.length + 1);
        const whole = book(method);
        const rows = applyAll(whole, events);
        const first = book(method);
        const firstRows = applyAll(first, events.slice(0, cut));
        const restored = LotBook.restore(viaJson(first.snapshot()));
        if (!(restored instanceof LotBook)) throw new Error(restored.message);
        const restRows = applyAll(restored, events.slice(cut));
        expect([...firstRows, ...restRows]).toEqual(rows);
        expect(restored.openLots()).toEqual(whole.openLots());
        expect(restored.totals()).toEqual(whole.totals());
        expect(restored.snapshot()).toEqual(whole.snapshot());
      }),
      { numRuns: 600 },
    );
  });

  it('any cut into several pages through snapshots gives the books of one pass', () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.constantFrom(...methods),
        (events, cuts, method) => {
          const whole = book(method);
          applyAll(whole, events);
          const points = [...new Set(cuts.map((cut) => cut % (events.length + 1)))].sort((a, b) => a - b);
          let current = book(method);
          let from = 0;
          for (const point of [...points, events.length]) {
            applyAll(current, events.slice(from, point));
            from = point;
            const next = LotBook.restore(viaJson(current.snapshot()));
            if (!(next instanceof LotBook)) throw new Error(next.message);
            current = next;
          }
          expect(current.openLots()).toEqual(whole.openLots());
          expect(current.totals()).toEqual(whole.totals());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses anything that is not a snapshot of this version, and never throws on garbage', () => {
    const source = book('hifo');
    applyAll(source, [
      { type: 'acquisition', id: 'a', timeMs: 1, kind: 'buy', amount: 3n, costUsd: 10n },
      { type: 'acquisition', id: 'b', timeMs: 2, kind: 'deposit', amount: 5n, costUsd: 7n },
      { type: 'disposal', id: 'c', timeMs: 3, kind: 'sell', amount: 1n, proceedsUsd: 4n, feeUsd: 0n },
    ]);
    const good = viaJson(source.snapshot()) as LotBookSnapshot;
    expect(LotBook.restore(good)).toBeInstanceOf(LotBook);
    const variants: [string, (s: LotBookSnapshot) => void][] = [
      ['another version', (s) => (s.version = 0)],
      ['unknown method', (s) => ((s as { method: string }).method = 'lofi')],
      ['a sum changed', (s) => (s.sums[0] = '9')],
      ['a lot amount changed', (s) => (s.lots.amounts[1] = '6')],
      ['a consumed cost that the rounding never gives', (s) => (s.lots.consumed[0]![2] = '1')],
      ['a lot id twice', (s) => (s.lots.ids[1] = 'a')],
      ['columns of different lengths', (s) => s.lots.timesMs.pop()],
      ['a lot after the last event', (s) => (s.lots.sequences[1] = 5)],
      ['a negative amount', (s) => (s.lots.amounts[0] = '-3')],
      ['an unknown kind', (s) => (s.lots.kinds = 'bx')],
      ['a NUL byte in a number', (s) => (s.sums[1] = '1\u00000')],
    ];
    for (const [name, change] of variants) {
      const copy = structuredClone(good);
      change(copy);
      const result = LotBook.restore(copy);
      expect(result, name).not.toBeInstanceOf(LotBook);
      expect((result as { reason: string }).reason, name).toBe('invalid_snapshot');
    }
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(LotBook.restore(value)).not.toBeInstanceOf(LotBook);
      }),
    );
  });

  it('a restored book refuses the id of an open lot again, and its later events keep their sequences', () => {
    const source = book('fifo');
    applyAll(source, [{ type: 'acquisition', id: 'a', timeMs: 5, kind: 'buy', amount: 3n, costUsd: 10n }]);
    const restored = LotBook.restore(viaJson(source.snapshot())) as LotBook;
    const again = restored.apply({ type: 'acquisition', id: 'a', timeMs: 6, kind: 'buy', amount: 1n, costUsd: 1n });
    expect(again).toMatchObject({ ok: false, reason: 'duplicate_event_id' });
    const earlier = restored.apply({ type: 'acquisition', id: 'b', timeMs: 4, kind: 'buy', amount: 1n, costUsd: 1n });
    expect(earlier).toMatchObject({ ok: false, reason: 'events_out_of_order' });
    restored.apply({ type: 'acquisition', id: 'b', timeMs: 5, kind: 'buy', amount: 1n, costUsd: 1n });
    expect(restored.openLots().map((lot) => lot.sequence)).toEqual([0, 1]);
  });

  it('unit text: trailing zeros as an exponent, and back', () => {
    expect(unitsText(4_500_000_000_000_000n)).toBe('45e14');
    expect(unitsText(100n)).toBe('100');
    expect(unitsText(0n)).toBe('0');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 38n - 1n }), (units) => {
        expect(parseUnitsText(unitsText(units))).toBe(units);
      }),
    );
    for (const bad of ['01', '1e0', '-1', '1.5', '', ' 1', '1e', `1${'0'.repeat(38)}`, '1e38', 12]) {
      expect(parseUnitsText(bad), String(bad)).toBeNull();
    }
  });
});
