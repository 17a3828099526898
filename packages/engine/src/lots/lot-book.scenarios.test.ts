import { decimal, toUnits } from '@platform/money';
import { describe, expect, it } from 'vitest';
import type { AcquisitionKind, DisposalKind, LotEvent, LotMethod, LotOptions, LotResult, RealisedRow } from './api.ts';
import { computeLots, LotBook } from './lot-book.ts';

/** Decimal text to units at a scale (exact; a test typo with too many decimals fails loudly). */
function units(text: string, scale: number): bigint {
  const converted = toUnits(decimal(text), scale);
  if (!converted.ok) throw new Error(`${text} has more than ${scale} decimals`);
  return converted.value;
}
const BTC_SCALE = 8;
const btc = (text: string): bigint => units(text, BTC_SCALE);
const usd = (text: string): bigint => units(text, 8);
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

const acquire = (id: string, day: number, amount: string, cost: string, kind: AcquisitionKind = 'buy'): LotEvent => ({
  type: 'acquisition',
  id,
  timeMs: T0 + day * DAY,
  kind,
  amount: btc(amount),
  costUsd: usd(cost),
});
const dispose = (
  id: string,
  day: number,
  amount: string,
  proceeds: string,
  fee = '0',
  kind: DisposalKind = 'sell',
): LotEvent => ({
  type: 'disposal',
  id,
  timeMs: T0 + day * DAY,
  kind,
  amount: btc(amount),
  proceedsUsd: usd(proceeds),
  feeUsd: usd(fee),
});

function run(events: LotEvent[], options: LotOptions = {}): LotResult {
  const result = computeLots({ asset: 'BTC', scale: BTC_SCALE, events }, options);
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  return result;
}

/** The fields a reader checks, as decimal-free units, one row per match. */
const brief = (row: RealisedRow) => ({
  lot: row.lotId,
  amount: row.amount,
  proceeds: row.proceedsUsd,
  cost: row.costUsd,
  fee: row.feeUsd,
  gain: row.gainUsd,
});

describe('FIFO, LIFO and HIFO: a partial disposal across lots', () => {
  // Three lots of 1 BTC at 100, 300 and 200 USD; then 1.5 BTC sold for 450 USD with a 3 USD fee.
  const events = [
    acquire('a', 1, '1', '100'),
    acquire('b', 2, '1', '300'),
    acquire('c', 3, '1', '200'),
    dispose('s', 4, '1.5', '450', '3'),
  ];
  const cases: {
    method: LotMethod;
    rows: ReturnType<typeof brief>[];
    open: [string, bigint, bigint][];
  }[] = [
    {
      method: 'fifo',
      rows: [
        { lot: 'a', amount: btc('1'), proceeds: usd('300'), cost: usd('100'), fee: usd('2'), gain: usd('198') },
        { lot: 'b', amount: btc('0.5'), proceeds: usd('150'), cost: usd('150'), fee: usd('1'), gain: usd('-1') },
      ],
      open: [
        ['b', btc('0.5'), usd('150')],
        ['c', btc('1'), usd('200')],
      ],
    },
    {
      method: 'lifo',
      rows: [
        { lot: 'c', amount: btc('1'), proceeds: usd('300'), cost: usd('200'), fee: usd('2'), gain: usd('98') },
        { lot: 'b', amount: btc('0.5'), proceeds: usd('150'), cost: usd('150'), fee: usd('1'), gain: usd('-1') },
      ],
      open: [
        ['a', btc('1'), usd('100')],
        ['b', btc('0.5'), usd('150')],
      ],
    },
    {
      method: 'hifo',
      rows: [
        { lot: 'b', amount: btc('1'), proceeds: usd('300'), cost: usd('300'), fee: usd('2'), gain: usd('-2') },
        { lot: 'c', amount: btc('0.5'), proceeds: usd('150'), cost: usd('100'), fee: usd('1'), gain: usd('49') },
      ],
      open: [
        ['a', btc('1'), usd('100')],
        ['c', btc('0.5'), usd('100')],
      ],
    },
  ];

  it.each(cases)('$method', ({ method, rows, open }) => {
    const result = run(events, { method });
    expect(result.method).toBe(method);
    expect(result.realised.map(brief)).toEqual(rows);
    expect(result.openLots.map((lot) => [lot.lotId, lot.remainingAmount, lot.remainingCostUsd])).toEqual(open);
    const totals = result.totals;
    expect(totals.realisedGainUsd).toBe(rows.reduce((sum, row) => sum + row.gain, 0n));
    expect(totals.realisedGainUsd).toBe(usd('450') - totals.consumedCostUsd - usd('3'));
    expect(totals.openAmount).toBe(btc('1.5'));
    expect(totals.openCostUsd + totals.consumedCostUsd).toBe(usd('600'));
  });

  it('defaults to FIFO', () => {
    expect(run(events).realised.map(brief)).toEqual(cases[0]!.rows);
  });

  it('keeps a partly consumed lot first in line under each method', () => {
    for (const method of ['fifo', 'lifo', 'hifo'] as const) {
      const result = run([...events, dispose('s2', 5, '0.25', '100')], { method });
      expect(result.realised.at(-1)!.lotId).toBe(cases.find((entry) => entry.method === method)!.rows[1]!.lot);
    }
  });

  it('rows carry both dates, the kinds and the disposal id', () => {
    const [first] = run(events).realised;
    expect(first).toMatchObject({
      disposalId: 's',
      disposalKind: 'sell',
      acquisitionKind: 'buy',
      acquiredTimeMs: T0 + DAY,
      soldTimeMs: T0 + 4 * DAY,
    });
  });
});

describe('fees in the quote and in the base', () => {
  it('a buy fee paid in the quote is part of the cost; a sell fee in the quote is the fee', () => {
    // 1 BTC bought for 100 USD + 0.1 USD fee; sold for 150 USD with a 0.15 USD fee.
    const result = run([acquire('buy', 1, '1', '100.1'), dispose('sell', 2, '1', '150', '0.15')]);
    expect(result.realised.map(brief)).toEqual([
      { lot: 'buy', amount: btc('1'), proceeds: usd('150'), cost: usd('100.1'), fee: usd('0.15'), gain: usd('49.75') },
    ]);
  });

  it('a buy fee taken in the base: the lot is the net amount received at the whole cost', () => {
    // 1 BTC bought for 100 USD, 0.001 BTC fee withheld: 0.999 BTC received; then all of it sold at
    // 150 USD a BTC (149.85 USD) with a 0.15 USD fee in the quote.
    const result = run([acquire('buy', 1, '0.999', '100'), dispose('sell', 2, '0.999', '149.85', '0.15')]);
    expect(result.realised.map(brief)).toEqual([
      {
        lot: 'buy',
        amount: btc('0.999'),
        proceeds: usd('149.85'),
        cost: usd('100'),
        fee: usd('0.15'),
        gain: usd('49.7'),
      },
    ]);
  });

  it('a sell fee taken in the base is part of the disposal; grossed up or not, the gain is the same', () => {
    // 1 BTC at 100 USD; 0.5 BTC sold at 150 USD a BTC, 0.0005 BTC fee withheld from the base.
    const lot = acquire('buy', 1, '1', '100');
    const grossedUp = run([lot, dispose('sell', 2, '0.5005', '75.075', '0.075')]);
    const net = run([lot, dispose('sell', 2, '0.5005', '75', '0')]);
    expect(grossedUp.realised.map(brief)).toEqual([
      {
        lot: 'buy',
        amount: btc('0.5005'),
        proceeds: usd('75.075'),
        cost: usd('50.05'),
        fee: usd('0.075'),
        gain: usd('24.95'),
      },
    ]);
    expect(net.realised[0]!.gainUsd).toBe(usd('24.95'));
    expect(grossedUp.openLots[0]!.remainingAmount).toBe(btc('0.4995'));
  });

  it('a fee charged on its own in the asset is a disposal of kind fee with no gain but minus its cost', () => {
    // A withdrawal of 1 BTC with a 0.0005 BTC network fee (market 150 USD a BTC) as two events.
    const result = run([
      acquire('deposit', 1, '2', '200', 'deposit'),
      dispose('withdrawal', 2, '1', '150', '0', 'withdrawal'),
      dispose('network-fee', 2, '0.0005', '0.075', '0.075', 'fee'),
    ]);
    const fee = result.realised[1]!;
    expect(fee).toMatchObject({ disposalKind: 'fee', amount: btc('0.0005'), costUsd: usd('0.05') });
    expect(fee.gainUsd).toBe(-usd('0.05'));
    expect(result.totals.openAmount).toBe(btc('0.9995'));
  });
});

describe('conversions, deposits and transfers', () => {
  it('a conversion is a disposal of one asset and a lot of the other at the same USD value', () => {
    const btcSide = run([
      acquire('dep', 1, '1', '30000', 'deposit'),
      dispose('conv', 5, '0.25', '10000', '5', 'conversion_out'),
    ]);
    const converted = btcSide.realised[0]!;
    expect(converted).toMatchObject({
      disposalKind: 'conversion_out',
      acquisitionKind: 'deposit',
      costUsd: usd('7500'),
    });
    expect(converted.gainUsd).toBe(usd('2495'));
    // The ETH side: the lot's cost is the value given up (the 5 USD fee is charged on the BTC side).
    const eth = computeLots(
      {
        asset: 'ETH',
        scale: 18,
        events: [
          {
            type: 'acquisition',
            id: 'conv',
            timeMs: T0,
            kind: 'conversion_in',
            amount: 4n * 10n ** 18n,
            costUsd: usd('10000'),
          },
          {
            type: 'disposal',
            id: 'sell',
            timeMs: T0 + DAY,
            kind: 'sell',
            amount: 10n ** 18n,
            proceedsUsd: usd('2600'),
            feeUsd: 0n,
          },
        ],
      },
      { method: 'fifo' },
    );
    expect(eth.ok && eth.realised[0]).toMatchObject({
      acquisitionKind: 'conversion_in',
      costUsd: usd('2500'),
      gainUsd: usd('100'),
    });
  });

  it('deposits at their credited value and transfers in at market value are lots like buys', () => {
    const result = run(
      [
        acquire('deposit', 1, '2', '60000', 'deposit'),
        acquire('gift', 2, '1', '35000', 'transfer_in'),
        dispose('send', 3, '0.5', '17000', '0', 'transfer_out'),
        dispose('out', 4, '1', '34000', '2', 'withdrawal'),
      ],
      { method: 'hifo' },
    );
    // HIFO: the transfer in (35,000 a BTC) goes before the deposit (30,000 a BTC).
    expect(result.realised.map((row) => [row.disposalKind, row.lotId, row.amount, row.costUsd])).toEqual([
      ['transfer_out', 'gift', btc('0.5'), usd('17500')],
      ['withdrawal', 'gift', btc('0.5'), usd('17500')],
      ['withdrawal', 'deposit', btc('0.5'), usd('15000')],
    ]);
    expect(result.openLots).toEqual([
      expect.objectContaining({
        lotId: 'deposit',
        kind: 'deposit',
        remainingAmount: btc('1.5'),
        remainingCostUsd: usd('45000'),
      }),
    ]);
  });
});

describe('exact proration', () => {
  const tiny = (events: LotEvent[], options: LotOptions = {}) => {
    const result = computeLots({ asset: 'X', scale: 0, events }, options);
    if (!result.ok) throw new Error(result.message);
    return result;
  };
  const lot = (id: string, timeMs: number, amount: bigint, costUsd: bigint): LotEvent => ({
    type: 'acquisition',
    id,
    timeMs,
    kind: 'buy',
    amount,
    costUsd,
  });
  const sale = (id: string, timeMs: number, amount: bigint, proceedsUsd: bigint, feeUsd = 0n): LotEvent => ({
    type: 'disposal',
    id,
    timeMs,
    kind: 'sell',
    amount,
    proceedsUsd,
    feeUsd,
  });

  it("a lot's cost is floored for each part and the part that empties it takes the rest", () => {
    // 3 units costing 10: the first unit carries floor(10/3) = 3, the first two floor(20/3) = 6.
    const result = tiny([lot('a', 0, 3n, 10n), sale('s1', 1, 1n, 0n), sale('s2', 2, 1n, 0n), sale('s3', 3, 1n, 0n)]);
    expect(result.realised.map((row) => row.costUsd)).toEqual([3n, 3n, 4n]);
    expect(result.openLots).toEqual([]);
  });

  it('the split does not depend on how the disposals are cut (the first k units always carry floor(C k / n))', () => {
    const one = tiny([lot('a', 0, 7n, 100n), sale('s', 1, 5n, 0n)]);
    const two = tiny([lot('a', 0, 7n, 100n), sale('s1', 1, 2n, 0n), sale('s2', 1, 3n, 0n)]);
    expect(one.totals.consumedCostUsd).toBe(71n); // floor(500 / 7)
    expect(two.totals.consumedCostUsd).toBe(71n);
    expect(two.openLots[0]!.remainingCostUsd).toBe(29n);
  });

  it("a disposal's proceeds and fee are split over its lots by cumulative floor, adding up exactly", () => {
    const result = tiny([lot('a', 0, 1n, 0n), lot('b', 0, 1n, 0n), lot('c', 0, 1n, 0n), sale('s', 1, 3n, 10n, 2n)]);
    expect(result.realised.map((row) => [row.proceedsUsd, row.feeUsd])).toEqual([
      [3n, 0n],
      [3n, 1n],
      [4n, 1n],
    ]);
  });

  it('HIFO compares costs per unit exactly, also where floats cannot tell them apart', () => {
    const big = 10n ** 30n;
    // Cost per unit 10^18 + 10^-12 against 10^18: equal as doubles, different as fractions.
    const result = tiny([lot('low', 0, 10n ** 12n, big), lot('high', 1, 10n ** 12n, big + 1n), sale('s', 2, 1n, 0n)], {
      method: 'hifo',
    });
    expect(result.realised[0]!.lotId).toBe('high');
  });

  it('HIFO sees equal costs per unit as equal, also where their float estimates differ', () => {
    const odd = 2n ** 53n + 1n;
    // odd / 1 and 3 odd / 3 are equal; as doubles they come out as 2^53 and 2^53 + 2.
    expect(Number(odd) / 1).not.toBe(Number(3n * odd) / 3);
    const result = tiny([lot('first', 0, 1n, odd), lot('second', 1, 3n, 3n * odd), sale('s', 2, 1n, 0n)], {
      method: 'hifo',
    });
    expect(result.realised[0]!.lotId).toBe('first');
  });

  it('HIFO takes the earlier of two lots with the same cost per unit (then the earlier in the history)', () => {
    const sameTime = tiny([lot('x', 5, 2n, 20n), lot('y', 5, 1n, 10n), lot('z', 6, 3n, 30n), sale('s', 7, 6n, 0n)], {
      method: 'hifo',
    });
    expect(sameTime.realised.map((row) => row.lotId)).toEqual(['x', 'y', 'z']);
  });
});

describe('a disposal larger than the open lots', () => {
  const events = [acquire('a', 1, '1', '100'), dispose('s', 2, '1.5', '300', '3')];

  it("'uncovered' (default): the rest is a row with no lot and a zero cost basis", () => {
    const result = run(events);
    expect(result.realised.map(brief)).toEqual([
      { lot: 'a', amount: btc('1'), proceeds: usd('200'), cost: usd('100'), fee: usd('2'), gain: usd('98') },
      { lot: null, amount: btc('0.5'), proceeds: usd('100'), cost: 0n, fee: usd('1'), gain: usd('99') },
    ]);
    expect(result.realised[1]).toMatchObject({ acquiredTimeMs: null, acquisitionKind: null });
    expect(result.totals).toMatchObject({ uncoveredAmount: btc('0.5'), openAmount: 0n, disposedAmount: btc('1.5') });
  });

  it("'uncovered' with nothing open at all", () => {
    expect(run([dispose('s', 1, '1', '10')]).realised.map(brief)).toEqual([
      { lot: null, amount: btc('1'), proceeds: usd('10'), cost: 0n, fee: 0n, gain: usd('10') },
    ]);
  });

  it("'reject': a named error with the shortfall, and the book is left as it was", () => {
    expect(computeLots({ asset: 'BTC', scale: 8, events }, { shortfall: 'reject' })).toMatchObject({
      ok: false,
      reason: 'insufficient_lots',
      eventId: 's',
      eventIndex: 1,
      shortfallAmount: btc('0.5'),
    });
    const book = LotBook.create({ shortfall: 'reject' });
    if (!(book instanceof LotBook)) throw new Error('no book');
    expect(book.apply(events[0]!).ok).toBe(true);
    expect(book.apply(events[1]!).ok).toBe(false);
    expect(book.openLots()[0]!.remainingAmount).toBe(btc('1'));
    const retried = book.apply(dispose('s', 2, '1', '200'));
    expect(retried.ok && retried.rows.map(brief)).toEqual([
      { lot: 'a', amount: btc('1'), proceeds: usd('200'), cost: usd('100'), fee: 0n, gain: usd('100') },
    ]);
  });
});

describe('bad input gets a named error', () => {
  const good = acquire('a', 1, '1', '100');
  const cases: { name: string; events: unknown[]; reason: string; eventId?: string }[] = [
    { name: 'time going back', events: [good, acquire('b', 0, '1', '1')], reason: 'events_out_of_order', eventId: 'b' },
    { name: 'a duplicate id', events: [good, dispose('a', 2, '1', '1')], reason: 'duplicate_event_id', eventId: 'a' },
    { name: 'a zero amount', events: [{ ...good, amount: 0n }], reason: 'invalid_amount' },
    { name: 'a negative amount', events: [{ ...good, amount: -1n }], reason: 'invalid_amount' },
    { name: 'a number amount', events: [{ ...good, amount: 1 }], reason: 'invalid_amount' },
    { name: 'an amount past 38 digits', events: [{ ...good, amount: 10n ** 38n }], reason: 'invalid_amount' },
    { name: 'a negative cost', events: [{ ...good, costUsd: -1n }], reason: 'invalid_value' },
    { name: 'a negative fee', events: [good, { ...dispose('s', 2, '1', '1'), feeUsd: -1n }], reason: 'invalid_value' },
    {
      name: 'a missing proceeds',
      events: [good, { ...dispose('s', 2, '1', '1'), proceedsUsd: undefined }],
      reason: 'invalid_value',
    },
    { name: 'an unknown kind', events: [{ ...good, kind: 'sell' }], reason: 'invalid_event' },
    { name: 'an unknown type', events: [{ ...good, type: 'gift' }], reason: 'invalid_event' },
    { name: 'an empty id', events: [{ ...good, id: '' }], reason: 'invalid_event' },
    { name: 'an id too long', events: [{ ...good, id: 'x'.repeat(201) }], reason: 'invalid_event' },
    { name: 'a fractional time', events: [{ ...good, timeMs: 1.5 }], reason: 'invalid_time' },
    { name: 'a time before 1970', events: [{ ...good, timeMs: -1 }], reason: 'invalid_time' },
    { name: 'a time after 9999', events: [{ ...good, timeMs: 253_402_300_800_000 }], reason: 'invalid_time' },
  ];

  it.each(cases)('$name', ({ events, reason, eventId }) => {
    const result = computeLots({ asset: 'BTC', scale: 8, events: events as LotEvent[] });
    expect(result).toMatchObject({ ok: false, reason });
    if (eventId) expect(result).toMatchObject({ eventId });
  });

  it('a bad scale or method', () => {
    expect(computeLots({ asset: 'BTC', scale: 19, events: [] })).toMatchObject({ ok: false, reason: 'invalid_scale' });
    expect(computeLots({ asset: 'BTC', scale: 1.5, events: [] })).toMatchObject({ ok: false, reason: 'invalid_scale' });
    const method = 'average' as LotMethod;
    expect(computeLots({ asset: 'BTC', scale: 8, events: [] }, { method })).toMatchObject({ reason: 'unknown_method' });
    const shortfall = 'ignore' as 'reject';
    expect(computeLots({ asset: 'BTC', scale: 8, events: [] }, { shortfall })).toMatchObject({
      reason: 'unknown_shortfall_policy',
    });
  });

  it('an empty history is fine', () => {
    expect(run([])).toMatchObject({ realised: [], openLots: [], totals: { openAmount: 0n, realisedGainUsd: 0n } });
  });
});

describe('LotBook (streaming)', () => {
  it('a refused event leaves the book as it was, its id included', () => {
    const book = LotBook.create();
    if (!(book instanceof LotBook)) throw new Error('no book');
    expect(book.apply(acquire('a', 5, '1', '100')).ok).toBe(true);
    expect(book.apply(acquire('b', 4, '1', '100'))).toMatchObject({ ok: false, reason: 'events_out_of_order' });
    const badCost = { ...acquire('c', 6, '1', '100'), costUsd: -1n } as LotEvent;
    expect(book.apply(badCost)).toMatchObject({ reason: 'invalid_value' });
    expect(book.apply(acquire('b', 6, '1', '100')).ok).toBe(true);
    expect(book.apply(acquire('c', 6, '1', '100')).ok).toBe(true);
    expect(book.openLots().map((lot) => lot.lotId)).toEqual(['a', 'b', 'c']);
  });

  it('realisedRows: false gives no rows but the same open lots and totals', () => {
    const events = [acquire('a', 1, '1', '100'), acquire('b', 2, '2', '500'), dispose('s', 3, '2.5', '900', '4')];
    for (const method of ['fifo', 'lifo', 'hifo'] as const) {
      const full = run(events, { method });
      const summary = run(events, { method, realisedRows: false });
      expect(summary.realised).toEqual([]);
      expect(summary.openLots).toEqual(full.openLots);
      expect(summary.totals).toEqual(full.totals);
    }
  });

  it('gives the same rows, open lots and totals as computeLots, event by event', () => {
    const events = [
      acquire('a', 1, '1', '100'),
      acquire('b', 2, '2', '500'),
      dispose('s1', 3, '1.2', '300', '1'),
      acquire('c', 4, '0.3', '60'),
      dispose('s2', 5, '1.5', '400', '2'),
    ];
    for (const method of ['fifo', 'lifo', 'hifo'] as const) {
      const whole = run(events, { method });
      const book = LotBook.create({ method });
      if (!(book instanceof LotBook)) throw new Error('no book');
      const rows = events.flatMap((event) => {
        const applied = book.apply(event);
        return applied.ok ? [...applied.rows] : [];
      });
      expect(rows).toEqual(whole.realised);
      expect(book.openLots()).toEqual(whole.openLots);
      expect(book.totals()).toEqual(whole.totals);
    }
  });
});
