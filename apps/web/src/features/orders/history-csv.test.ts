import { describe, expect, it, vi } from 'vitest';
import {
  buildCsv,
  csvField,
  csvFileName,
  fetchAllRows,
  ORDER_CSV_COLUMNS,
  ordersCsv,
  TRADE_CSV_COLUMNS,
  tradesCsv,
} from './history-csv.ts';
import { makeOrder, makeTrade } from './orders-test-fixtures.ts';

describe('csvField (RFC 4180)', () => {
  it('leaves plain fields alone', () => {
    expect(csvField('BTC/USD')).toBe('BTC/USD');
    expect(csvField('0.00000001')).toBe('0.00000001');
    expect(csvField('')).toBe('');
  });

  it('quotes fields with a comma, a quote, a line break or outer spaces, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded')).toBe('" padded"');
  });
});

describe('buildCsv', () => {
  it('writes the header, then the rows, each ended by CRLF', () => {
    expect(
      buildCsv(
        ['Time', 'Price, USD'],
        [
          ['x', '1'],
          ['y', '"2"'],
        ],
      ),
    ).toBe('Time,"Price, USD"\r\nx,1\r\ny,"""2"""\r\n');
  });
});

describe('ordersCsv', () => {
  const label = (column: string) => `L:${column}`;

  it('has a header of the column labels and the decimals exactly as sent', () => {
    const order = makeOrder({
      id: '00000000-0000-4000-8000-00000000abcd',
      price: '60000.10000000',
      quantity: '0.00000001',
      filled_quantity: '0.00000000',
      total: '123456789012345678.123456789012345678',
      fee: '0.000000000000000001',
      created_at: '2026-11-24T10:00:00.000Z',
    });
    const [header, row, end] = ordersCsv([order], label).split('\r\n');
    expect(header).toBe(ORDER_CSV_COLUMNS.map(label).join(','));
    expect(row).toBe(
      [
        '2026-11-24T10:00:00.000Z',
        '00000000-0000-4000-8000-00000000abcd',
        'BTC/USD',
        'buy',
        'limit',
        '60000.10000000',
        '',
        '0.00000001',
        '0.00000000',
        '',
        '123456789012345678.123456789012345678',
        '0.000000000000000001',
        'USD',
        'pending',
      ].join(','),
    );
    expect(end).toBe('');
  });

  it('writes times as ISO instants in UTC, whatever offset the server used', () => {
    const csv = ordersCsv([makeOrder({ created_at: '2026-11-24T12:00:00+02:00' })], label);
    expect(csv.split('\r\n')[1]?.startsWith('2026-11-24T10:00:00.000Z,')).toBe(true);
  });

  it('quotes a label that needs it', () => {
    const csv = ordersCsv([], (column) => (column === 'price' ? 'Price, quote' : column));
    expect(csv).toContain(',"Price, quote",');
  });
});

describe('tradesCsv', () => {
  it('writes each trade with its unix-ms time as ISO', () => {
    const trade = makeTrade({
      id: '77',
      order_id: '00000000-0000-4000-8000-0000000000ff',
      side: 'sell',
      role: 'maker',
      price: '61000.5',
      quantity: '0.25',
      total: '15250.125',
      fee: '15.250125',
      timestamp: Date.UTC(2026, 10, 24, 9, 30, 0, 5),
    });
    const lines = tradesCsv([trade], (column) => column).split('\r\n');
    expect(lines[0]).toBe(TRADE_CSV_COLUMNS.join(','));
    expect(lines[1]).toBe(
      '2026-11-24T09:30:00.005Z,77,00000000-0000-4000-8000-0000000000ff,BTC/USD,sell,maker,61000.5,0.25,15250.125,15.250125,USD',
    );
  });
});

describe('fetchAllRows', () => {
  const pages = (total: number) =>
    vi.fn(async (page: number, limit: number) => {
      const start = (page - 1) * limit;
      const rows = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, at) => `r${start + at}`);
      return { rows, total };
    });

  it('reads page after page until all rows are in', async () => {
    const fetchPage = pages(1200);
    const result = await fetchAllRows(fetchPage, (row) => row, { pageSize: 500, cap: 5000 });
    expect(result.rows).toHaveLength(1200);
    expect(result.truncated).toBe(false);
    expect(fetchPage.mock.calls).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
    ]);
  });

  it('stops at the cap and says so', async () => {
    const fetchPage = pages(12_000);
    const result = await fetchAllRows(fetchPage, (row) => row, { pageSize: 500, cap: 5000 });
    expect(result.rows).toHaveLength(5000);
    expect(result.rows.at(-1)).toBe('r4999');
    expect(result.truncated).toBe(true);
    expect(fetchPage).toHaveBeenCalledTimes(10);
  });

  it('makes one call for an exact single page, and none more', async () => {
    const fetchPage = pages(500);
    await fetchAllRows(fetchPage, (row) => row, { pageSize: 500 });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('drops a row repeated because a new one pushed the list down between two pages', async () => {
    const fetchPage = vi
      .fn()
      .mockResolvedValueOnce({ rows: ['c', 'b'], total: 3 })
      .mockResolvedValueOnce({ rows: ['b', 'a'], total: 4 });
    const result = await fetchAllRows(fetchPage, (row: string) => row, { pageSize: 2 });
    expect(result.rows).toEqual(['c', 'b', 'a']);
  });
});

describe('csvFileName', () => {
  it('is dated by the local calendar', () => {
    expect(csvFileName('orders', new Date(2026, 10, 24, 23, 59))).toBe('meridian-orders-2026-11-24.csv');
    expect(csvFileName('trades', new Date(2027, 0, 2))).toBe('meridian-trades-2027-01-02.csv');
  });
});
