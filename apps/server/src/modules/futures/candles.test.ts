import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { futuresTrader, order, setIndex, type Trader } from './test-support.ts';

/** Sessions outlive the hour the test moves the clock on by. */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', ACCESS_TOKEN_TTL_SECONDS: '86400' };
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const PATH = '/v1/futures/markets/BTC_USD_PERP/candles';

type Candle = { time: number; open: string; high: string; low: string; close: string; volume: string };

/**
 * Moves the server's clock to `offsetMs` past the next midnight UTC and returns it: the test's two
 * hours then share one 4 h and one 1 d candle whenever it runs.
 */
function toNextDay(server: TestServer, offsetMs: number): number {
  const now = server.clock.now.getTime();
  const day = Math.floor(now / DAY) * DAY + DAY;
  server.clock.advance(day + offsetMs - now);
  return day;
}

/** A resting limit by `maker`, then a crossing limit by `taker` at the same price: one trade. */
async function trade(
  server: TestServer,
  maker: Trader,
  taker: Trader,
  side: 'buy' | 'sell',
  price: string,
  qty: string,
) {
  const rest = await order(server, maker, {
    side: side === 'buy' ? 'sell' : 'buy',
    type: 'limit',
    price,
    quantity: qty,
  });
  expect(rest.status).toBe(201);
  const cross = await order(server, taker, { side, type: 'limit', price, quantity: qty });
  expect(cross.body.status).toBe('filled');
}

async function candles(server: TestServer, query: string): Promise<Candle[]> {
  const response = await server.request('GET', `${PATH}?${query}`);
  expect(response.status, query).toBe(200);
  return response.body.candles as Candle[];
}

describeEachDatabase(
  'futures candles through HTTP',
  (server) => {
    let maker: Trader;
    let taker: Trader;
    let hour = 0;

    beforeAll(async () => {
      server().services.futures.workers.funding.stop();
      // Signed up after the clock moved to the next midnight, so their sessions hold for the test.
      hour = toNextDay(server(), 1_000);
      setIndex(server(), 'BTC', '50000');
      maker = await futuresTrader(server(), '100000');
      taker = await futuresTrader(server(), '100000');
    });

    it('answers an empty series for a perpetual that never traded, in the spot shape', async () => {
      const response = await server().request('GET', '/v1/futures/markets/eth_usd_perp/candles?interval=1m');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ pair_id: 'ETH_USD_PERP', interval: '1m', candles: [] });
      const byRange = await server().request('GET', '/v1/futures/markets/ETH_USD_PERP/candles');
      expect(byRange.body).toEqual({ pair_id: 'ETH_USD_PERP', interval: '1h', candles: [] });
    });

    it('builds exact OHLCV per interval from the taker side of each trade, in trade order', async () => {
      // Minute 0: 50000 x 0.1, 50010 x 0.2, then a seller takes a bid at 49990 x 0.05.
      await trade(server(), maker, taker, 'buy', '50000', '0.1');
      await trade(server(), maker, taker, 'buy', '50010', '0.2');
      await trade(server(), taker, maker, 'sell', '49990', '0.05');
      // Minute 2: one sell sweeps two bids in one command (one time): 50030 then 50020.
      server().clock.advance(2 * MINUTE);
      for (const price of ['50030', '50020']) {
        const bid = await order(server(), maker, { side: 'buy', type: 'limit', price, quantity: '0.1' });
        expect(bid.status).toBe(201);
      }
      const sweep = await order(server(), taker, { side: 'sell', type: 'limit', price: '50020', quantity: '0.2' });
      expect(sweep.body.status).toBe('filled');

      const minutes = await candles(server(), `interval=1m&from=${hour}&to=${hour + 5 * MINUTE}`);
      expect(minutes).toEqual([
        { time: hour, open: '50000', high: '50010', low: '49990', close: '49990', volume: '0.35' },
        { time: hour + 2 * MINUTE, open: '50030', high: '50030', low: '50020', close: '50020', volume: '0.2' },
      ]);
      const fiveMinutes = await candles(server(), `interval=5m&from=${hour}&to=${hour + 5 * MINUTE}`);
      expect(fiveMinutes).toEqual([
        { time: hour, open: '50000', high: '50030', low: '49990', close: '50020', volume: '0.55' },
      ]);
    });

    it('keeps an answer until a trade in its market commits, then shows the new trade', async () => {
      const query = `interval=1h&from=${hour}&to=${hour + 2 * HOUR}`;
      const before = await server().request('GET', `${PATH}?${query}`);
      expect(before.body.candles).toEqual([
        { time: hour, open: '50000', high: '50030', low: '49990', close: '50020', volume: '0.55' },
      ]);
      const again = await server().request('GET', `${PATH}?${query}`, {
        headers: { 'if-none-match': before.headers.get('etag') ?? '' },
      });
      expect(again.status).toBe(304);
      // The next hour, minute 1: an interval with no trade in between has no candle (as on spot).
      server().clock.advance(HOUR - MINUTE);
      await trade(server(), maker, taker, 'buy', '50100.5', '0.001');
      const after = await candles(server(), query);
      expect(after).toEqual([
        { time: hour, open: '50000', high: '50030', low: '49990', close: '50020', volume: '0.55' },
        { time: hour + HOUR, open: '50100.5', high: '50100.5', low: '50100.5', close: '50100.5', volume: '0.001' },
      ]);
      const minutes = await candles(server(), `interval=1m&from=${hour}&to=${hour + 2 * HOUR}`);
      expect(minutes.map((candle) => candle.time)).toEqual([hour, hour + 2 * MINUTE, hour + HOUR + MINUTE]);
    });

    it('limits to the newest candles, windows by from/to, and picks the interval of a range', async () => {
      const newest = await candles(server(), `interval=1m&limit=1&from=${hour}`);
      expect(newest).toEqual([
        {
          time: hour + HOUR + MINUTE,
          open: '50100.5',
          high: '50100.5',
          low: '50100.5',
          close: '50100.5',
          volume: '0.001',
        },
      ]);
      const window = await candles(server(), `interval=1m&from=${hour + MINUTE}&to=${hour + 3 * MINUTE}`);
      expect(window.map((candle) => candle.time)).toEqual([hour + 2 * MINUTE]);
      const range = await server().request('GET', `${PATH}?range=1d`);
      expect(range.body.interval).toBe('1d');
      expect(range.body.candles).toEqual([
        expect.objectContaining({ open: '50000', high: '50100.5', low: '49990', close: '50100.5', volume: '0.551' }),
      ]);
      // Without from, the last `limit` intervals up to now.
      expect((await candles(server(), 'interval=1m&limit=30')).map((candle) => candle.time)).toEqual([
        hour + HOUR + MINUTE,
      ]);
    });

    it('leaves ADL closes out: they are not trades on the book', async () => {
      const fill = await server().db.query<{ order_id: string; account_id: string }>(
        `SELECT order_id, account_id FROM futures_fills WHERE market_id = 'BTC_USD_PERP' LIMIT 1`,
      );
      const { order_id, account_id } = fill.rows[0]!;
      const at = new Date(hour + HOUR + MINUTE + 5_000).toISOString();
      for (const [id, role] of [
        ['BTC_USD_PERP:adl-999-a', 'taker'],
        ['BTC_USD_PERP:adl-999-b', 'maker'],
      ]) {
        await server().db.query(
          `INSERT INTO futures_fills (id, order_id, account_id, market_id, side, role, price, quantity, fee, realised_pnl, executed_at)
           VALUES ($1, $2, $3, 'BTC_USD_PERP', 'buy', $4, 1, 5, 0, 0, $5)`,
          [id, order_id, account_id, role, at],
        );
      }
      // A query no read has cached (the direct insert commits no futures batch).
      const minutes = await candles(server(), `interval=1m&limit=3&from=${hour}&to=${hour + 2 * HOUR}`);
      expect(minutes.at(-1)).toEqual({
        time: hour + HOUR + MINUTE,
        open: '50100.5',
        high: '50100.5',
        low: '50100.5',
        close: '50100.5',
        volume: '0.001',
      });
      await server().db.query(`DELETE FROM futures_fills WHERE id LIKE 'BTC_USD_PERP:adl-999-%'`);
    });

    it('refuses bad queries as the spot candles do, and unknown markets', async () => {
      for (const query of ['interval=2m', 'limit=0', 'limit=100000', 'range=7Y', 'from=200&to=100', 'from=abc']) {
        const response = await server().request('GET', `${PATH}?${query}`);
        expect(response.status, query).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
      for (const market of ['NOPE_USD_PERP', 'BTC_USD']) {
        const response = await server().request('GET', `/v1/futures/markets/${market}/candles?range=1d`);
        expect(response.status, market).toBe(404);
        expect(response.body.error.code).toBe('FUTURES_MARKET_NOT_FOUND');
      }
    });
  },
  ENVIRONMENT,
);
