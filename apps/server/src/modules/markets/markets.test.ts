import {
  COIN_SYMBOLS,
  COINS,
  candleSchema,
  marketStatisticsSchema,
  priceUpdateSchema,
  tradingPairSchema,
} from '@platform/contracts';
import { formatDecimal } from '@platform/money';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { existingPairIds, latestPriceUpdate } from './service.ts';

const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

describeEachDatabase(
  'markets',
  (server) => {
    beforeAll(async () => {
      // History is written after the server is up; wait until every coin has it.
      for (let attempt = 0; attempt < 300; attempt++) {
        const result = await server().db.query<{ count: bigint }>(
          `SELECT count(DISTINCT pair_id) AS count FROM candles WHERE interval = '1d'`,
        );
        if (Number(result.rows[0]?.count) >= COIN_SYMBOLS.length) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('market history was not written in time');
    });

    it('seeds the catalogue of about 60 coins and the pairs of the §3.5 rule', async () => {
      const coins = await server().db.query<{ count: bigint }>('SELECT count(*) AS count FROM coins');
      expect(Number(coins.rows[0]?.count)).toBe(COINS.length);
      expect(COINS.length).toBeGreaterThanOrEqual(55);
      const response = await server().request('GET', '/v1/trading-pairs');
      expect(response.status).toBe(200);
      const ids = new Set<string>(response.body.map((pair: { id: string }) => pair.id));
      for (const id of [
        'USDT_USD',
        'USDC_USD',
        'USDC_USDT',
        'ETH_BTC',
        'SOL_BTC',
        'SOL_ETH',
        'DOGE_USD',
        'DOGE_USDT',
      ]) {
        expect(ids.has(id), id).toBe(true);
      }
      for (const id of ['USDT_USDT', 'BTC_ETH', 'DOGE_BTC', 'PEPE_ETH', 'UNI_BTC', 'USDTTRC20_USD']) {
        expect(ids.has(id), id).toBe(false);
      }
      // One USDT market and one USDC market per quote, whatever the number of network variants.
      expect(
        response.body.filter(
          (pair: { base_currency: string; quote_currency: string }) =>
            pair.base_currency === 'USDT' && pair.quote_currency === 'USD',
        ),
      ).toHaveLength(1);
    });

    it('fills every field of every pair, with live prices from the feed', async () => {
      const response = await server().request('GET', '/v1/trading-pairs');
      for (const pair of response.body) {
        expect(tradingPairSchema.strict().safeParse(pair).success, pair.id).toBe(true);
        expect(pair.current_price, pair.id).toMatch(DECIMAL);
        expect(pair.volume_24h).toMatch(DECIMAL);
        expect(pair.change_24h).toMatch(DECIMAL);
        expect(pair.maker_fee).toBe('0.1');
        expect(pair.taker_fee).toBe('0.1');
        expect(pair.trading_fee).toBe('0.1');
        expect(pair.price_precision).toBeGreaterThanOrEqual(2);
      }
      const btc = response.body.find((pair: { id: string }) => pair.id === 'BTC_USD');
      expect(btc).toMatchObject({
        symbol: 'BTC/USD',
        supported_by_provider: true,
        price_precision: 2,
        is_active: true,
      });
      expect(response.body.find((pair: { id: string }) => pair.id === 'DOGE_USD').supported_by_provider).toBe(false);
    });

    it('offers the reference price with the reference track 24 h ago (what the portfolio values at)', () => {
      const markets = server().services.markets;
      // No await between the reads: the feed cannot move in between.
      const day = markets.referenceDayQuote('BTC_USD');
      const quote = markets.referenceQuote('BTC_USD');
      const stats = markets.feed.stats('BTC_USD');
      expect(quote).toBeDefined();
      expect(day).toEqual({ ...quote, open24h: formatDecimal(stats!.open24h) });
      expect(markets.referenceDayQuote('NOPE_USD')).toBeUndefined();
    });

    it('answers one pair, and 404 for an unknown one', async () => {
      expect((await server().request('GET', '/v1/trading-pairs/ETH_BTC')).body).toMatchObject({
        id: 'ETH_BTC',
        base_currency: 'ETH',
        quote_currency: 'BTC',
      });
      const missing = await server().request('GET', '/v1/trading-pairs/NOPE_USD');
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('Trading pair not found');
    });

    it('knows which pair ids exist', async () => {
      expect(await existingPairIds(server().db, ['BTC_USD', 'NOPE_USD', 'ETH_BTC', 'BTC_USD'])).toEqual(
        new Set(['BTC_USD', 'ETH_BTC']),
      );
      expect(await existingPairIds(server().db, [])).toEqual(new Set());
    });

    it('gives the ticker under BTC_USD, BTC-USD and BTC/USD, and 404 for unknown symbols', async () => {
      for (const symbol of ['BTC_USD', 'BTC-USD', 'BTC%2FUSD', 'btc_usd']) {
        const response = await server().request('GET', `/v1/ticker/${symbol}`);
        expect(response.status, symbol).toBe(200);
        expect(priceUpdateSchema.strict().parse(response.body).symbol).toBe('BTC/USD');
      }
      for (const symbol of ['NOPE_USD', 'BTCUSD', 'DOGE_BTC']) {
        const response = await server().request('GET', `/v1/ticker/${symbol}`);
        expect(response.status, symbol).toBe(404);
        expect(response.body.error.message).toBe('Trading pair not found');
      }
    });

    it('derives cross prices exactly from the USD prices', async () => {
      const eth = (await server().request('GET', '/v1/ticker/ETH_USD')).body;
      const btc = (await server().request('GET', '/v1/ticker/BTC_USD')).body;
      const ethBtc = (await server().request('GET', '/v1/ticker/ETH_BTC')).body;
      expect(ethBtc.price).toMatch(/^0\.\d{7}$/);
      // Same feed instant is not guaranteed between requests; the ratio is close, not necessarily equal.
      expect(Math.abs(Number(ethBtc.price) - Number(eth.price) / Number(btc.price))).toBeLessThan(0.001);
    });

    it('publishes retained price updates on price.{PAIR_ID}', async () => {
      const update = latestPriceUpdate(server().pubsub, 'SOL_USDT');
      expect(update && priceUpdateSchema.strict().parse(update).symbol).toBe('SOL/USDT');
    });

    it('gives 24 h statistics', async () => {
      const response = await server().request('GET', '/v1/market/ETH-USD/statistics');
      expect(response.status).toBe(200);
      const stats = marketStatisticsSchema.strict().parse(response.body);
      expect(stats).toMatchObject({ pair_id: 'ETH_USD', source: 'simulator' });
      expect(Number(stats.high24h)).toBeGreaterThanOrEqual(Number(stats.low24h));
      expect((await server().request('GET', '/v1/market/NOPE_USD/statistics')).status).toBe(404);
    });

    it('serves candles by range and by interval, for USD and derived pairs', async () => {
      for (const [symbol, query, interval] of [
        ['BTC_USD', 'range=1Y', '1d'],
        ['BTC_USD', 'range=15m', '15m'],
        ['ETH_BTC', 'range=1h', '1h'],
        ['SOL_USDT', 'interval=5m&limit=10', '5m'],
        ['BTC_USD', 'range=all', '1w'],
      ] as const) {
        const response = await server().request('GET', `/v1/market/${symbol}/candles?${query}`);
        expect(response.status, `${symbol} ${query}`).toBe(200);
        expect(response.body).toMatchObject({ pair_id: symbol, interval });
        expect(response.body.candles.length, `${symbol} ${query}`).toBeGreaterThan(0);
        let previous = -1;
        for (const candle of response.body.candles) {
          candleSchema.strict().parse(candle);
          expect(Number(candle.high)).toBeGreaterThanOrEqual(Math.max(Number(candle.open), Number(candle.close)));
          expect(Number(candle.low)).toBeLessThanOrEqual(Math.min(Number(candle.open), Number(candle.close)));
          expect(candle.time).toBeGreaterThan(previous);
          previous = candle.time;
        }
      }
      const limited = await server().request('GET', '/v1/market/BTC_USD/candles?interval=1m&limit=5');
      expect(limited.body.candles).toHaveLength(5);
    });

    it('refuses bad candle queries', async () => {
      for (const query of ['interval=2m', 'limit=0', 'limit=100000', 'range=7Y', 'from=200&to=100', 'from=abc']) {
        const response = await server().request('GET', `/v1/market/BTC_USD/candles?${query}`);
        expect(response.status, query).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
      expect((await server().request('GET', '/v1/market/NOPE_USD/candles?range=1d')).status).toBe(404);
    });

    it('reports the price sources on /health', async () => {
      const response = await server().request('GET', '/health');
      expect(response.body).toMatchObject({
        prices: 'simulator',
        price_sources: [{ name: 'simulator', ok: true, last_error: null }],
      });
    });

    describe('payment-provider facade', () => {
      it('lists supported currencies from the catalogue plus USD', async () => {
        const response = await server().request('GET', '/v1/triple-a/currencies/supported');
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(COINS.length + 1);
        expect(response.body.find((c: { currency_code: string }) => c.currency_code === 'USD')).toMatchObject({
          currency_type: 'fiat',
          processing_fee: '0.5',
        });
        expect(response.body.find((c: { currency_code: string }) => c.currency_code === 'usdttrc20')).toMatchObject({
          currency_type: 'crypto',
          network: 'TRX',
          processing_fee: '1',
        });
      });

      it('lists supported and active pairs', async () => {
        const supported = await server().request('GET', '/v1/triple-a/trading-pairs/supported');
        const active = await server().request('GET', '/v1/triple-a/trading-pairs/active');
        expect(supported.body.length).toBeGreaterThan(100);
        expect(active.body.length).toBe(supported.body.length);
      });

      it('quotes every coin against USD, and one pair', async () => {
        const prices = await server().request('GET', '/v1/triple-a/prices');
        expect(prices.status).toBe(200);
        expect(prices.body.find((q: { base_currency: string }) => q.base_currency === 'BTC')).toMatchObject({
          quote_currency: 'USD',
          price: expect.stringMatching(DECIMAL),
        });
        const one = await server().request('GET', '/v1/triple-a/price/eth/btc');
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ base_currency: 'ETH', quote_currency: 'BTC' });
        expect((await server().request('GET', '/v1/triple-a/price/DOGE/BTC')).status).toBe(404);
      });

      it("answers a built-in quote when the base or quote is 'undefined' or empty", async () => {
        const response = await server().request('GET', '/v1/triple-a/price/undefined/USD');
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ base_currency: 'BTC', quote_currency: 'USD', price: '67250.00' });
        const noQuote = await server().request('GET', '/v1/triple-a/price/ETH/undefined');
        expect(noQuote.body).toMatchObject({ base_currency: 'ETH', quote_currency: 'USD', price: '3450.00' });
        const empty = await server().request('GET', '/v1/triple-a/price/%20/USD');
        expect(empty.status).toBe(200);
      });
    });
  },
  { HISTORY_DAYS: '400', HISTORY_MINUTE_HOURS: '2' },
);
