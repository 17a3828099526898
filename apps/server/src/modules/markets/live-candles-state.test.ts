import { type Amount, decimal, formatDecimal } from '@platform/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { createLogger } from '../../logger.ts';
import type { DecimalCandle } from './candles.ts';
import { LiveCandles } from './live-candles.ts';

const MINUTE = 60_000;
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % (24 * 60 * MINUTE));

const text = (candle: DecimalCandle | undefined) =>
  candle && [candle.time, ...[candle.open, candle.high, candle.low, candle.close, candle.volume].map(normal)].join(' ');
const normal = (value: Amount) => formatDecimal(value, { trimZeros: true });

/** The written 1m candles of a pair, as text. */
async function written(db: Database, pairId: string): Promise<string[]> {
  const result = await db.query<Record<string, string> & { open_time: Date }>(
    `SELECT open_time, open::text, high::text, low::text, close::text, volume::text FROM candles
     WHERE pair_id = $1 AND interval = '1m' ORDER BY open_time`,
    [pairId],
  );
  return result.rows.map((row) =>
    [
      new Date(row.open_time).getTime(),
      ...['open', 'high', 'low', 'close', 'volume'].map((name) => normal(decimal(row[name]!))),
    ].join(' '),
  );
}

/** The live 1m windows of a pair, as text. */
function inMemory(live: LiveCandles, pairId: string): string[] {
  const series = live.get(pairId, '1m');
  return [...(series?.windows.values() ?? [])].sort((a, b) => a.time - b.time).map((candle) => text(candle)!);
}

/**
 * The live candles against the database itself: a flush that fails, and a load that meets
 * flushes and trades. After a flush, memory and the database hold the same candles.
 */
describe('live candles and the database', () => {
  let db: Database;
  let failNext = false;
  let now = T0 + 5_000;
  /** The database, with a transaction that fails when asked to (a lost connection). */
  let flaky: Database;
  const log = createLogger({ logLevel: 'silent', logPretty: false });

  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite' });
    await migrate(db);
    flaky = new Proxy(db, {
      get(target, property) {
        if (property === 'transaction' && failNext) {
          failNext = false;
          return () => Promise.reject(new Error('connection lost'));
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  });
  afterAll(async () => {
    await db.close();
  });

  it('keeps the trades of a failed write and writes them with the next ones, once', async () => {
    const live = new LiveCandles(flaky, log, () => new Date(now));
    await live.ensure(['AAA_USD'], '1m');
    live.record('AAA_USD', decimal('10'), decimal('1'), now);
    live.record('AAA_USD', decimal('12'), decimal('1'), now);
    failNext = true;
    await live.flush();
    expect(await written(db, 'AAA_USD')).toEqual([]);
    live.record('AAA_USD', decimal('9'), decimal('0.5'), now + 1_000);
    await live.flush();
    expect(await written(db, 'AAA_USD')).toEqual([`${T0} 10 12 9 9 2.5`]);
    expect(inMemory(live, 'AAA_USD')).toEqual(await written(db, 'AAA_USD'));
  });

  it('loads a series while flushes and trades run, and agrees with the database after', async () => {
    const live = new LiveCandles(flaky, log, () => new Date(now));
    now = T0 + 10 * MINUTE + 5_000;
    live.record('BBB_USD', decimal('100'), decimal('1'), now - MINUTE);
    live.record('BBB_USD', decimal('101'), decimal('1'), now);
    const flushing = live.flush();
    live.record('BBB_USD', decimal('99'), decimal('2'), now);
    const loading = live.ensure(['BBB_USD'], '1m');
    live.record('BBB_USD', decimal('103'), decimal('1'), now);
    const again = live.flush();
    live.record('BBB_USD', decimal('98'), decimal('1'), now);
    await Promise.all([flushing, loading, again]);
    live.record('BBB_USD', decimal('100.5'), decimal('0.25'), now + 1_000);
    const expected = [`${T0 + 9 * MINUTE} 100 100 100 100 1`, `${T0 + 10 * MINUTE} 101 103 98 100.5 5.25`];
    expect(inMemory(live, 'BBB_USD')).toEqual(expected);
    await live.flush();
    expect(await written(db, 'BBB_USD')).toEqual(expected);
    expect(inMemory(live, 'BBB_USD')).toEqual(expected);
  });

  it('retires windows to the database after a flush, and reloads when a trade lands before them', async () => {
    const live = new LiveCandles(db, log, () => new Date(now));
    now = T0 + 20 * MINUTE + 5_000;
    await live.ensure(['CCC_USD'], '1m');
    live.record('CCC_USD', decimal('5'), decimal('1'), now);
    now += 3 * MINUTE;
    await live.flush();
    const series = live.get('CCC_USD', '1m')!;
    expect(series.liveFrom).toBe(T0 + 22 * MINUTE);
    expect(series.windows.size).toBe(0);
    const generation = live.generation;
    live.record('CCC_USD', decimal('6'), decimal('1'), T0 + 20 * MINUTE + 30_000);
    expect(live.get('CCC_USD', '1m')).toBeUndefined();
    expect(live.generation).toBe(generation + 1);
    await live.flush();
    expect(await written(db, 'CCC_USD')).toEqual([`${T0 + 20 * MINUTE} 5 6 5 6 2`]);
  });
});
