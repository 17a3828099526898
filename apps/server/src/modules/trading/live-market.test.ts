import { decimal, formatDecimal } from '@platform/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { liveMarketView } from '../conversions/market-view.ts';
import { latestPriceUpdate } from '../markets/service.ts';
import { MARKET_MAKER_ACCOUNT_ID, MARKET_TAKER_ACCOUNT_ID } from './house-accounts.ts';

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type TradeRow = {
  price: string;
  quantity: string;
  executed_at: Date;
  maker_account_id: string;
  taker_account_id: string;
};
type CandleRow = { open: string; high: string; low: string; close: string; volume: string };

/**
 * A fresh install with the bots on: makers quote, simulated takers trade with them through the
 * order path, and the pair's price, 24 h volume and live candles come from those trades.
 */
describe('a live market on the embedded defaults', () => {
  let server: TestServer;
  const trades = async (fromIso = '1970-01-01') =>
    (
      await server.db.query<TradeRow>(
        `SELECT price::text, quantity::text, executed_at, maker_account_id, taker_account_id FROM trades
         WHERE pair_id = 'BTC_USD' AND executed_at >= $1 ORDER BY executed_at, sequence`,
        [fromIso],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      MARKET_MAKER_ENABLED: 'true',
      MARKET_TAKER_ENABLED: 'true',
      MARKET_MAKER_PAIRS: 'BTC_USD',
      MARKET_MAKER_REFRESH_MS: '300',
      MARKET_TAKER_TRADES_PER_MINUTE: '240',
    });
    await server.services.markets.history;
  });
  afterAll(async () => {
    await server.close();
  });

  it('prints trades between the house bots, and the last trade is the price everywhere', async () => {
    const printed = await eventually(trades, (rows) => rows.length >= 3);
    expect(printed[0]).toMatchObject({
      maker_account_id: MARKET_MAKER_ACCOUNT_ID,
      taker_account_id: MARKET_TAKER_ACCOUNT_ID,
    });
    const tape = (await server.request('GET', '/v1/market/BTC_USD/trades?limit=5')).body as { price: string }[];
    expect(tape.length).toBeGreaterThan(0);

    // A read between two identical looks at the tape sees the newest trade as the price.
    const stable = await eventually(
      async () => {
        const before = await trades();
        const ticker = (await server.request('GET', '/v1/ticker/BTC_USD')).body as { price: string };
        const statistics = (await server.request('GET', '/v1/market/BTC_USD/statistics')).body as {
          price: string;
          volume24h: string;
        };
        const after = await trades();
        return { before, after, ticker, statistics };
      },
      ({ before, after }) => before.length === after.length,
    );
    const last = stable.after.at(-1)!;
    expect(Number(stable.ticker.price)).toBe(Number(last.price));
    expect(Number(stable.statistics.price)).toBe(Number(last.price));
    // The 24 h volume is what traded on the book, nothing invented.
    const traded = stable.after.reduce((sum, row) => sum + Number(row.quantity), 0);
    expect(Number(stable.statistics.volume24h)).toBeCloseTo(traded, 8);
  });

  it('builds the live candles from the trades', async () => {
    // Move into minutes the generated history never covered, let a minute trade, then close it.
    server.clock.advance(120_000);
    const minuteStart = Math.floor(server.clock.now.getTime() / 60_000) * 60_000 + 60_000;
    server.clock.advance(minuteStart - server.clock.now.getTime());
    const fromIso = new Date(minuteStart).toISOString();
    await eventually(
      () => trades(fromIso),
      (rows) => rows.length >= 3,
    );
    server.clock.advance(60_000);
    const inMinute = async () =>
      (await trades(fromIso)).filter((row) => new Date(row.executed_at).getTime() < minuteStart + 60_000);
    const volume = (rows: TradeRow[]) => rows.reduce((sum, trade) => sum + Number(trade.quantity), 0);
    const { candle, rows } = await eventually(
      async () => {
        const result = await server.db.query<CandleRow>(
          `SELECT open::text, high::text, low::text, close::text, volume::text FROM candles
           WHERE pair_id = 'BTC_USD' AND interval = '1m' AND open_time = $1`,
          [fromIso],
        );
        return { candle: result.rows[0], rows: await inMinute() };
      },
      ({ candle, rows }) => candle !== undefined && Math.abs(Number(candle.volume) - volume(rows)) < 1e-9,
    );
    const prices = rows.map((row) => Number(row.price));
    expect(Number(candle!.open)).toBe(prices[0]);
    expect(Number(candle!.close)).toBe(prices.at(-1));
    expect(Number(candle!.high)).toBe(Math.max(...prices));
    expect(Number(candle!.low)).toBe(Math.min(...prices));
  });

  it("prices conversions from the sources' reference, never from the last trade a user could print", async () => {
    await eventually(trades, (rows) => rows.length >= 1);
    // The feed publishes the last trade as the pair's price; wait until it differs from the reference.
    const seen = await eventually(
      async () => {
        const { markets, trading } = server.services;
        const view = liveMarketView({ exchange: trading.exchange, referenceQuote: markets.referenceQuote }).reference(
          'BTC_USD',
        );
        const reference = markets.referenceQuote('BTC_USD');
        const published = latestPriceUpdate(server.context.pubsub, 'BTC_USD');
        return { view, reference, published };
      },
      ({ reference, published }) =>
        reference !== undefined && published !== undefined && reference.price !== published.price,
    );
    expect(formatDecimal(seen.view!.price)).toBe(formatDecimal(decimal(seen.reference!.price)));
    expect(formatDecimal(seen.view!.price)).not.toBe(formatDecimal(decimal(seen.published!.price)));
  });
});
