import { COINS, TRADING_PAIRS } from '@platform/contracts';
import { decimal, toScale } from '@platform/money';
import {
  type CoinModel,
  coinModel,
  formatUnits,
  hashSeed,
  Random,
  type UnitCandle,
  walkBackward,
} from '../../adapters/prices/simulator.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { aggregateCandles, type DecimalCandle } from './candles.ts';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 86_400_000;
/** Hourly candles are generated for at most this many days; older history is daily only. */
const HOURLY_HISTORY_DAYS = 30;
/** Rows per INSERT: arrays of this length go through unnest, one statement per batch. */
const INSERT_BATCH_ROWS = 5_000;

/** Inserts the catalogue's coins and pairs that are not there yet (new entries appear on upgrade). */
export async function seedCatalogue(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO coins (code, name, symbol, network, type, category, description, is_enabled, sort_order)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::int[])
       ON CONFLICT (code) DO NOTHING`,
      [
        COINS.map((coin) => coin.code),
        COINS.map((coin) => coin.name),
        COINS.map((coin) => coin.symbol),
        COINS.map((coin) => coin.network),
        COINS.map((coin) => coin.type),
        COINS.map((coin) => coin.category),
        COINS.map((coin) => coin.description),
        COINS.map((coin) => coin.isEnabled),
        COINS.map((_, index) => index),
      ],
    );
    const pairs = TRADING_PAIRS;
    await tx.query(
      `INSERT INTO trading_pairs (id, base_currency, quote_currency, symbol, min_trade_amount, max_trade_amount,
         price_precision, quantity_precision, trading_fee, maker_fee, taker_fee, is_active, is_enabled_by_admin,
         supported_by_provider, sort_order)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::int[],
         $8::int[], $9::numeric[], $10::numeric[], $11::numeric[], $12::boolean[], $13::boolean[], $14::boolean[], $15::int[])
       ON CONFLICT DO NOTHING`,
      [
        pairs.map((pair) => pair.id),
        pairs.map((pair) => pair.base_currency),
        pairs.map((pair) => pair.quote_currency),
        pairs.map((pair) => pair.symbol),
        pairs.map((pair) => pair.min_trade_amount),
        pairs.map((pair) => pair.max_trade_amount),
        pairs.map((pair) => pair.price_precision),
        pairs.map((pair) => pair.quantity_precision),
        pairs.map((pair) => pair.trading_fee),
        pairs.map((pair) => pair.maker_fee),
        pairs.map((pair) => pair.taker_fee),
        pairs.map((pair) => pair.is_active),
        pairs.map((pair) => pair.is_enabled_by_admin),
        pairs.map((pair) => pair.supported_by_provider),
        pairs.map((_, index) => index),
      ],
    );
  });
}

export type HistoryOptions = { seed: string; nowMs: number; days: number; minuteHours: number };
export type CoinHistory = { '1m': UnitCandle[]; '1h': UnitCandle[]; '1d': UnitCandle[] };

const toDecimal = (model: CoinModel, candle: UnitCandle): DecimalCandle => ({
  time: candle.openTimeMs,
  open: { units: candle.open, scale: model.scale },
  high: { units: candle.high, scale: model.scale },
  low: { units: candle.low, scale: model.scale },
  close: { units: candle.close, scale: model.scale },
  volume: { units: candle.volume, scale: model.quantityScale },
});
const toUnits = (candle: DecimalCandle): UnitCandle => ({
  openTimeMs: candle.time,
  open: candle.open.units,
  high: candle.high.units,
  low: candle.low.units,
  close: candle.close.units,
  volume: candle.volume.units,
});

/**
 * A coin's USD history ending at endUnits now, deterministic for the seed. The finest series is
 * walked first (1m for the last minuteHours, from the top of an hour); each coarser series
 * aggregates the finer one where they overlap and walks further back from its first open, so the
 * three series agree wherever they cover the same time.
 */
export function generateCoinHistory(model: CoinModel, endUnits: bigint, options: HistoryOptions): CoinHistory {
  const random = new Random(hashSeed(`${options.seed}:${model.symbol}:history`));
  const currentMinute = Math.floor(options.nowMs / MS_PER_MINUTE) * MS_PER_MINUTE;
  const currentHour = Math.floor(options.nowMs / MS_PER_HOUR) * MS_PER_HOUR;
  const currentDay = Math.floor(options.nowMs / MS_PER_DAY) * MS_PER_DAY;
  if (options.days <= 0) return { '1m': [], '1h': [], '1d': [] };

  const minuteCount =
    options.minuteHours > 0
      ? (currentMinute - (currentHour - (options.minuteHours - 1) * MS_PER_HOUR)) / MS_PER_MINUTE + 1
      : 0;
  const minutes = walkBackward(model, {
    endUnits,
    count: minuteCount,
    stepMs: MS_PER_MINUTE,
    lastOpenTimeMs: currentMinute,
    random,
  });

  const hourlyDays = Math.min(options.days, HOURLY_HISTORY_DAYS);
  const firstHour = currentDay - (hourlyDays - 1) * MS_PER_DAY;
  const hoursFromMinutes = aggregateCandles(
    minutes.map((candle) => toDecimal(model, candle)),
    '1h',
  ).map(toUnits);
  const earliestHourFromMinutes = hoursFromMinutes[0]?.openTimeMs ?? currentHour + MS_PER_HOUR;
  const walkedHours = walkBackward(model, {
    endUnits: hoursFromMinutes[0]?.open ?? endUnits,
    count: Math.max(0, (earliestHourFromMinutes - firstHour) / MS_PER_HOUR),
    stepMs: MS_PER_HOUR,
    lastOpenTimeMs: earliestHourFromMinutes - MS_PER_HOUR,
    random,
  });
  // A walked candle closes where the next one opens; the last walked hour closes at the first
  // minute's open, so the series join without a gap in price.
  const hours = [...walkedHours, ...hoursFromMinutes];

  const daysFromHours = aggregateCandles(
    hours.map((candle) => toDecimal(model, candle)),
    '1d',
  ).map(toUnits);
  const earliestDayFromHours = daysFromHours[0]?.openTimeMs ?? currentDay + MS_PER_DAY;
  const firstDay = currentDay - (options.days - 1) * MS_PER_DAY;
  const walkedDays = walkBackward(model, {
    endUnits: daysFromHours[0]?.open ?? endUnits,
    count: Math.max(0, (earliestDayFromHours - firstDay) / MS_PER_DAY),
    stepMs: MS_PER_DAY,
    lastOpenTimeMs: earliestDayFromHours - MS_PER_DAY,
    random,
  });
  return { '1m': minutes, '1h': hours, '1d': [...walkedDays, ...daysFromHours] };
}

/** USD pair ids (BASE_USD) that have no daily candles yet: their history is still to generate. */
async function symbolsWithoutHistory(db: Queryable, symbols: readonly string[]): Promise<string[]> {
  const result = await db.query<{ pair_id: string }>(
    `SELECT DISTINCT pair_id FROM candles WHERE interval = '1d' AND pair_id = ANY($1::text[])`,
    [symbols.map((symbol) => `${symbol}_USD`)],
  );
  const done = new Set(result.rows.map((row) => row.pair_id));
  return symbols.filter((symbol) => !done.has(`${symbol}_USD`));
}

type CandleRow = [
  pairId: string,
  interval: string,
  openTime: string,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
];

export async function insertCandleRows(
  db: Queryable,
  rows: readonly CandleRow[],
  onConflict = 'DO NOTHING',
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
    const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
    const column = (index: number) => batch.map((row) => row[index]);
    await db.query(
      `INSERT INTO candles (pair_id, interval, open_time, open, high, low, close, volume)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[])
       ON CONFLICT (pair_id, interval, open_time) ${onConflict}`,
      [0, 1, 2, 3, 4, 5, 6, 7].map(column),
    );
  }
}

/**
 * Generates the USD history of every coin that has none yet, ending at its current USD price.
 * Only the USD pairs are stored; other quotes are derived on read (see service.ts).
 */
export async function seedHistory(
  db: Database,
  endPricesUsd: ReadonlyMap<string, string>,
  options: HistoryOptions,
  shouldStop: () => boolean = () => false,
): Promise<number> {
  const missing = await symbolsWithoutHistory(db, [...endPricesUsd.keys()]);
  let inserted = 0;
  for (const symbol of missing) {
    // Each coin commits on its own, so a shutdown midway leaves whole coins and the rest is
    // generated on the next start.
    if (shouldStop()) break;
    const price = endPricesUsd.get(symbol);
    if (price === undefined) continue;
    const model = coinModel(symbol);
    const endUnits = toScale(decimal(price), model.scale, 'half_even').units;
    const history = generateCoinHistory(model, endUnits, options);
    const rows: CandleRow[] = [];
    for (const interval of ['1m', '1h', '1d'] as const) {
      for (const candle of history[interval]) {
        rows.push([
          `${symbol}_USD`,
          interval,
          new Date(candle.openTimeMs).toISOString(),
          formatUnits(candle.open, model.scale),
          formatUnits(candle.high, model.scale),
          formatUnits(candle.low, model.scale),
          formatUnits(candle.close, model.scale),
          formatUnits(candle.volume, model.quantityScale),
        ]);
      }
    }
    await db.transaction((tx) => insertCandleRows(tx, rows));
    inserted += rows.length;
  }
  return inserted;
}
