import { type Candle, type CandleInterval, candleIntervalMs } from '@platform/contracts';
import { decimal, formatDecimal, toScale } from '@platform/money';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { fund, placeOrder } from '../trading/test-support.ts';
import { type CandlesQuery, candlesFromDatabase, lookupCandlePair, planCandles } from './candle-reads.ts';

type Body = { pair_id: string; interval: CandleInterval; candles: Candle[] };
type Precision = { price: number; quantity: number };

/** Candles read through HTTP, as the charts read them. */
async function read(server: TestServer, pairId: string, query: string, etag?: string) {
  const headers: Record<string, string> = etag ? { 'if-none-match': etag } : {};
  const response = await server.request<Body>('GET', `/v1/market/${pairId}/candles?${query}`, { headers });
  return { status: response.status, body: response.body, etag: response.headers.get('etag') ?? '' };
}

/** The same query computed from the database alone, after the candles in the making are written. */
async function fromDatabase(server: TestServer, pairId: string, query: CandlesQuery): Promise<Body> {
  await server.services.markets.feed.flush();
  const pair = lookupCandlePair(server.services.markets.catalogue, pairId);
  if (!pair.ok) throw new Error(pairId);
  const plan = planCandles(pair.value, query, server.clock.now.getTime());
  if (!plan.ok) throw new Error('bad query');
  return candlesFromDatabase(server.db, plan.value);
}

function parseQuery(text: string): CandlesQuery {
  const params = new URLSearchParams(text);
  const query: CandlesQuery = { limit: Number(params.get('limit') ?? 500) };
  const range = params.get('range');
  const interval = params.get('interval');
  if (range) query.range = range as CandlesQuery['range'];
  if (interval) query.interval = interval as CandleInterval;
  for (const name of ['from', 'to'] as const) {
    const value = params.get(name);
    if (value !== null) query[name] = Number(value);
  }
  return query;
}

/** Moves the clock one second past the next boundary of the interval, so a test runs inside one window. */
function toNextWindow(server: TestServer, interval: CandleInterval): number {
  const size = candleIntervalMs[interval];
  const now = server.clock.now.getTime();
  server.clock.advance(size - (now % size) + 1_000);
  return server.clock.now.getTime();
}

/** Deterministic pseudo-random numbers (the scenario must replay the same on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describeEachDatabase('live candles', (server) => {
  const precisions = new Map<string, Precision>();
  const shown = (value: string, scale: number) => formatDecimal(toScale(decimal(value), scale, 'half_even'));
  const trade = (pairId: string, price: string, quantity: string, timeMs = server().clock.now.getTime()) =>
    server().services.markets.feed.recordTrade(pairId, decimal(price), decimal(quantity), timeMs);

  beforeAll(async () => {
    await server().services.markets.history;
    for (const id of ['BTC_USD', 'ETH_USD', 'ETH_BTC']) {
      const pair = (await server().request('GET', `/v1/trading-pairs/${id}`)).body;
      precisions.set(id, { price: pair.price_precision, quantity: pair.quantity_precision });
    }
  });

  it('shows a trade in the current candle on the next read, without waiting for a flush', async () => {
    const now = toNextWindow(server(), '1m');
    const { price, quantity } = precisions.get('BTC_USD')!;
    const before = (await read(server(), 'BTC_USD', 'interval=1m&limit=3')).body.candles;
    expect(before.at(-1)?.time ?? 0).toBeLessThan(now - (now % 60_000));
    trade('BTC_USD', '91000', '0.25');
    trade('BTC_USD', '89000', '0.5');
    trade('BTC_USD', '90000', '0.125');
    const after = (await read(server(), 'BTC_USD', 'interval=1m&limit=3')).body.candles;
    expect(after.at(-1)).toEqual({
      time: now - (now % 60_000),
      open: shown('91000', price),
      high: shown('91000', price),
      low: shown('89000', price),
      close: shown('90000', price),
      volume: shown('0.875', quantity),
    });
    expect(after.slice(0, -1)).toEqual(before.slice(-2));
  });

  it('shows a trade of the order path (engine, settlement) on the next read', async () => {
    const now = toNextWindow(server(), '1m');
    const [seller, buyer] = [await signUp(server()), await signUp(server())];
    const price = server().services.markets.referenceQuote('BTC_USD')!.price;
    await fund(server(), seller.session.account_id, 'BTC', '1');
    await fund(server(), buyer.session.account_id, 'USD', '200000');
    const order = { trading_pair: 'BTC_USD', type: 'limit', price, quantity: '0.01' };
    expect((await placeOrder(server(), seller.session.token, { ...order, side: 'sell' })).status).toBe(201);
    const bought = await placeOrder(server(), buyer.session.token, { ...order, side: 'buy' });
    expect(bought.body.status).toBe('filled');
    const candle = (await read(server(), 'BTC_USD', 'interval=1m&limit=1')).body.candles[0];
    const quantity = precisions.get('BTC_USD')!.quantity;
    expect(candle).toEqual({
      time: now - (now % 60_000),
      open: price,
      high: price,
      low: price,
      close: price,
      volume: shown('0.01', quantity),
    });
  });

  it('answers a poller 304 while nothing changed, and the new candle after a trade', async () => {
    toNextWindow(server(), '1m');
    const first = await read(server(), 'ETH_USD', 'interval=1m&limit=10');
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^".+"$/);
    const again = await read(server(), 'ETH_USD', 'interval=1m&limit=10', first.etag);
    expect(again.status).toBe(304);
    trade('ETH_USD', '3999', '2');
    const changed = await read(server(), 'ETH_USD', 'interval=1m&limit=10', first.etag);
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.body.candles.at(-1)?.close).toBe(shown('3999', precisions.get('ETH_USD')!.price));
    expect((await read(server(), 'ETH_USD', 'interval=1m&limit=10', changed.etag)).status).toBe(304);
  });

  it('keeps aggregated intervals and a cross pair right, live and once written', async () => {
    toNextWindow(server(), '1m');
    trade('BTC_USD', '95000', '1');
    trade('ETH_BTC', '0.0421', '3');
    trade('ETH_BTC', '0.0419', '1');
    for (const [pairId, close] of [
      ['BTC_USD', '95000'],
      ['ETH_BTC', '0.0419'],
    ] as const) {
      for (const query of ['interval=5m&limit=20', 'interval=4h&limit=20', 'interval=1w&limit=5', 'range=1d']) {
        const live = await read(server(), pairId, query);
        expect(live.status, `${pairId} ${query}`).toBe(200);
        expect(live.body.candles.at(-1)?.close, `${pairId} ${query}`).toBe(shown(close, precisions.get(pairId)!.price));
        expect(live.body, `${pairId} ${query}`).toEqual(await fromDatabase(server(), pairId, parseQuery(query)));
      }
    }
    const cross = (await read(server(), 'ETH_BTC', 'interval=1m&limit=5')).body.candles.at(-1);
    const scale = precisions.get('ETH_BTC')!.price;
    expect(cross).toMatchObject({
      open: shown('0.0421', scale),
      high: shown('0.0421', scale),
      low: shown('0.0419', scale),
    });
  });

  it('moves a candle from memory to the database at the window boundary, without a gap or a double', async () => {
    const start = toNextWindow(server(), '1m');
    const minute = start - (start % 60_000);
    trade('ETH_USD', '4100', '1');
    const query = 'interval=1m&limit=5';
    const inMemory = (await read(server(), 'ETH_USD', query)).body.candles;
    const candle = inMemory.find((one) => one.time === minute);
    expect(candle?.close).toBe(shown('4100', precisions.get('ETH_USD')!.price));
    const steps = ['previous window', 'two windows back, not written', 'written'];
    for (const [index, step] of steps.entries()) {
      if (step === 'written') await server().services.markets.feed.flush();
      else server().clock.advance(60_000);
      // A query seen before (its body kept) and one never seen (built from the parts at this step).
      const kept = (await read(server(), 'ETH_USD', query)).body.candles;
      const fresh = `interval=1m&from=${minute - 600_000}&limit=${10 + index}`;
      const candles = (await read(server(), 'ETH_USD', fresh)).body.candles;
      expect(kept, step).toEqual(candles.slice(-kept.length));
      expect(
        candles.filter((one) => one.time === minute),
        step,
      ).toEqual([candle]);
      const times = candles.map((one) => one.time);
      expect(times, step).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size, step).toBe(times.length);
    }
    const written = await server().db.query<{ close: string }>(
      `SELECT close::text FROM candles WHERE pair_id = 'ETH_USD' AND interval = '1m' AND open_time = $1`,
      [new Date(minute).toISOString()],
    );
    expect(written.rows).toHaveLength(1);
  });

  it('answers what the database gives once written, through trades, reads, flushes and boundaries', async () => {
    const next = random(15);
    const pairs = ['BTC_USD', 'ETH_USD', 'ETH_BTC'];
    const base: Record<string, number> = { BTC_USD: 90_000, ETH_USD: 4_000, ETH_BTC: 0.044 };
    const queries = [
      'interval=1m&limit=30',
      'interval=5m&limit=30',
      'interval=15m&limit=8',
      'interval=1h&limit=48',
      'interval=4h&limit=12',
      'interval=1d&limit=3',
      'interval=1w&limit=2',
      'range=1h',
      'range=1d',
    ];
    let checks = 0;
    for (let step = 0; step < 80; step++) {
      const roll = next();
      const pairId = pairs[Math.floor(next() * pairs.length)]!;
      if (roll < 0.45) {
        const price = (base[pairId]! * (0.97 + next() * 0.06)).toFixed(precisions.get(pairId)!.price);
        trade(pairId, price, (0.01 + next()).toFixed(3));
      } else if (roll < 0.6) {
        server().clock.advance(Math.floor(next() * 150_000));
      } else if (roll < 0.63) {
        server().clock.advance(3_600_000);
      } else if (roll < 0.7) {
        await server().services.markets.feed.flush();
      } else {
        const query = queries[Math.floor(next() * queries.length)]!;
        const cached = await read(server(), pairId, query);
        expect(cached.status).toBe(200);
        if (next() < 0.5) continue;
        expect(cached.body, `step ${step}: ${pairId} ${query}`).toEqual(
          await fromDatabase(server(), pairId, parseQuery(query)),
        );
        checks++;
      }
    }
    expect(checks).toBeGreaterThan(3);
  });

  it('keeps a range entirely in the past as it was written', async () => {
    const now = server().clock.now.getTime();
    const query = `interval=1h&from=${now - 30 * 3_600_000}&to=${now - 10 * 3_600_000}`;
    const first = await read(server(), 'BTC_USD', query);
    expect(first.body.candles.length).toBeGreaterThan(0);
    trade('BTC_USD', '88000', '1');
    const second = await read(server(), 'BTC_USD', query, first.etag);
    expect(second.status).toBe(304);
    expect(first.body).toEqual(await fromDatabase(server(), 'BTC_USD', parseQuery(query)));
  });
});
