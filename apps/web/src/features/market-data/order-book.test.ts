import { decimal, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { OrderBookState } from './order-book.ts';
import { bookSpread, depthFraction, groupingStep, groupingSteps, groupLevels } from './order-book-grouping.ts';

type Side = ReadonlyArray<readonly [string, string]>;

function snapshot(sequence: number, bids: Side, asks: Side) {
  return { sequence, bids, asks, timestamp: 1_000 };
}

function delta(prev_sequence: number, sequence: number, bids: Side, asks: Side) {
  return { prev_sequence, sequence, bids, asks, timestamp: 2_000 };
}

const prices = (book: OrderBookState, side: 'bid' | 'ask') => book.levels(side).map((level) => level.price);
const quantities = (book: OrderBookState, side: 'bid' | 'ask') => book.levels(side).map((level) => level.quantity);

describe('OrderBookState: snapshot then deltas (docs/trading.md)', () => {
  it('holds a snapshot sorted best first, comparing prices as decimals, not as text', () => {
    const book = new OrderBookState();
    expect(
      book.replace(
        snapshot(
          10,
          [
            ['9.5', '1'],
            ['10.25', '2'],
            ['100', '3'],
          ],
          [
            ['101', '1'],
            ['1000', '1'],
            ['200.5', '1'],
          ],
        ),
      ),
    ).toBe(true);
    expect(prices(book, 'bid')).toEqual(['100', '10.25', '9.5']);
    expect(prices(book, 'ask')).toEqual(['101', '200.5', '1000']);
    expect(book.sequence).toBe(10);
  });

  it('applies a delta of new totals, removes a level at 0, and adds new ones in place', () => {
    const book = new OrderBookState();
    book.replace(
      snapshot(
        10,
        [
          ['100.00', '1.5'],
          ['99.00', '2'],
        ],
        [['101.00', '1']],
      ),
    );
    const result = book.applyDelta(
      delta(
        10,
        12,
        [
          ['100.00', '0'],
          ['99.50', '0.25'],
          ['99.00', '3.125'],
        ],
        [['100.50', '4']],
      ),
    );
    expect(result).toBe('applied');
    expect(book.sequence).toBe(12);
    expect(prices(book, 'bid')).toEqual(['99.50', '99.00']);
    expect(quantities(book, 'bid')).toEqual(['0.25', '3.125']);
    expect(prices(book, 'ask')).toEqual(['100.50', '101.00']);
  });

  it("treats '100.1' and '100.10' as one level", () => {
    const book = new OrderBookState();
    book.replace(snapshot(1, [['100.10', '1']], []));
    book.applyDelta(delta(1, 2, [['100.1', '0']], []));
    expect(book.levels('bid')).toEqual([]);
  });

  it('ignores a delta the picture already includes (stale)', () => {
    const book = new OrderBookState();
    book.replace(snapshot(20, [['100', '1']], []));
    expect(book.applyDelta(delta(15, 20, [['100', '0']], []))).toBe('stale');
    expect(prices(book, 'bid')).toEqual(['100']);
  });

  it('reports a gap when prev_sequence is not the last applied sequence', () => {
    const book = new OrderBookState();
    book.replace(snapshot(10, [['100', '1']], []));
    expect(book.applyDelta(delta(11, 12, [['100', '5']], []))).toBe('gap');
    expect(quantities(book, 'bid')).toEqual(['1']);
    expect(book.sequence).toBe(10);
  });

  it('applies a delta over an HTTP snapshot taken between its prev_sequence and its sequence', () => {
    // The market's sequence counts every command; the HTTP picture at 14 equals the book at 12.
    const book = new OrderBookState();
    book.replace(snapshot(14, [['100', '1']], []));
    expect(book.applyDelta(delta(12, 15, [['100', '2']], []))).toBe('applied');
    expect(book.sequence).toBe(15);
  });

  it('asks for a snapshot when a delta comes before any picture', () => {
    expect(new OrderBookState().applyDelta(delta(1, 2, [], []))).toBe('gap');
  });

  it('rejects an unreadable level without changing anything', () => {
    const book = new OrderBookState();
    book.replace(snapshot(1, [['100', '1']], []));
    expect(
      book.applyDelta(
        delta(
          1,
          2,
          [
            ['100', '0'],
            ['99', '-1'],
          ],
          [],
        ),
      ),
    ).toBe('invalid');
    expect(prices(book, 'bid')).toEqual(['100']);
    expect(book.replace(snapshot(3, [['1e5', '1']], []))).toBe(false);
    expect(book.sequence).toBe(1);
  });
});

describe('order book grouping (exact decimals)', () => {
  const book = new OrderBookState();
  book.replace(
    snapshot(
      1,
      [
        ['67202.73', '0.0059479'],
        ['67202.71', '0.1'],
        ['67199.99', '0.2'],
        ['67135.46', '0.0104089'],
        ['66990.00', '0.3'],
      ],
      [
        ['67202.74', '0.1'],
        ['67202.80', '0.2'],
        ['67210.01', '0.3'],
        ['67300.00', '0.0000001'],
      ],
    ),
  );
  const bids = book.levels('bid');
  const asks = book.levels('ask');
  const rows = (side: 'bid' | 'ask', step: string) =>
    groupLevels(side === 'bid' ? bids : asks, side, decimal(step), 10).map((row) => [
      row.price,
      formatDecimal(row.quantity),
      formatDecimal(row.total),
    ]);

  it('offers the tick and 10, 100 and 1000 ticks', () => {
    expect(groupingSteps(2).map((step) => formatDecimal(step))).toEqual(['0.01', '0.1', '1', '10']);
    expect(groupingSteps(0).map((step) => formatDecimal(step))).toEqual(['1', '10', '100', '1000']);
    expect(formatDecimal(groupingStep(8, 3))).toBe('0.00001');
  });

  it('at the tick keeps every level, with exact cumulative totals', () => {
    expect(rows('bid', '0.01')).toEqual([
      ['67202.73', '0.0059479', '0.0059479'],
      ['67202.71', '0.1', '0.1059479'],
      ['67199.99', '0.2', '0.3059479'],
      ['67135.46', '0.0104089', '0.3163568'],
      ['66990.00', '0.3', '0.6163568'],
    ]);
  });

  it('floors bids to 0.1, 1 and 10', () => {
    expect(rows('bid', '0.1')).toEqual([
      ['67202.7', '0.1059479', '0.1059479'],
      ['67199.9', '0.2', '0.3059479'],
      ['67135.4', '0.0104089', '0.3163568'],
      ['66990.0', '0.3', '0.6163568'],
    ]);
    expect(rows('bid', '1')).toEqual([
      ['67202', '0.1059479', '0.1059479'],
      ['67199', '0.2', '0.3059479'],
      ['67135', '0.0104089', '0.3163568'],
      ['66990', '0.3', '0.6163568'],
    ]);
    expect(rows('bid', '10')).toEqual([
      ['67200', '0.1059479', '0.1059479'],
      ['67190', '0.2', '0.3059479'],
      ['67130', '0.0104089', '0.3163568'],
      ['66990', '0.3', '0.6163568'],
    ]);
  });

  it('ceils asks, so a grouped ask never shows a better price than its orders', () => {
    expect(rows('ask', '0.1')).toEqual([
      ['67202.8', '0.3', '0.3'],
      ['67210.1', '0.3', '0.6'],
      ['67300.0', '0.0000001', '0.6000001'],
    ]);
    expect(rows('ask', '10')).toEqual([
      ['67210', '0.3', '0.3'],
      ['67220', '0.3', '0.6'],
      ['67300', '0.0000001', '0.6000001'],
    ]);
  });

  it('stops at the limit after completing the last group', () => {
    expect(groupLevels(bids, 'bid', decimal('10'), 2).map((row) => [row.price, formatDecimal(row.total)])).toEqual([
      ['67200', '0.1059479'],
      ['67190', '0.3059479'],
    ]);
  });

  it('sums totals without floating point error', () => {
    const tenths = new OrderBookState();
    tenths.replace(
      snapshot(
        1,
        [
          ['3', '0.1'],
          ['2', '0.2'],
        ],
        [],
      ),
    );
    const [, second] = groupLevels(tenths.levels('bid'), 'bid', decimal('1'), 5);
    expect(formatDecimal(second?.total ?? decimal('0'))).toBe('0.3');
  });

  it('computes the spread and its percentage of the mid exactly', () => {
    const spread = bookSpread(decimal('67202.73'), decimal('67337.27'));
    expect(spread && formatDecimal(spread.absolute)).toBe('134.54');
    // 134.54 / 67270 * 100 = 0.19999...
    expect(spread && formatDecimal(spread.percent)).toBe('0.200');
    expect(bookSpread(undefined, decimal('1'))).toBeNull();
  });

  it('turns totals into bar fractions only at the drawing edge', () => {
    expect(depthFraction(decimal('0.3'), decimal('0.6'))).toBe(0.5);
    expect(depthFraction(decimal('1'), decimal('0'))).toBe(0);
    expect(depthFraction(decimal('0.6'), decimal('0.6'))).toBe(1);
  });
});
