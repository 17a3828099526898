import { describe, expect, it } from 'vitest';
import { errorResponse, json, stubFetch } from '../test/fetch-mock.ts';
import { conversionsApi } from './conversions.ts';

const spread = { percent: '0.5', amount: '0.00000083', currency: 'BTC' };
const quote = {
  quote_id: 'q-1',
  from_currency: 'USDT',
  to_currency: 'BTC',
  from_amount: '10',
  to_amount: '0.00016500',
  rate: '0.0000165',
  spread,
  price_source: 'order_book',
  route: ['USDT', 'BTC'],
  expires_at: '2026-01-01T00:00:15.000Z',
  valid_for_seconds: 15,
};

describe('conversions api (spec §7.3)', () => {
  it('asks for an estimate with lower-cased currencies and the amount as text', async () => {
    const { fetchMock } = stubFetch({ 'GET /api/v1/conversions/estimate': () => json(200, quote) });
    await expect(
      conversionsApi.estimate({ from_currency: 'USDT', to_currency: 'BTC', from_amount: '10' }),
    ).resolves.toMatchObject({ quote_id: 'q-1' });
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      from_currency: 'usdt',
      to_currency: 'btc',
      from_amount: '10',
    });
  });

  it('answers false when the support check fails (spec §7.8)', async () => {
    stubFetch({
      'GET /api/v1/conversions/supported': [
        () => json(200, { supported: true }),
        () => errorResponse(500, 'INTERNAL_ERROR', 'x'),
      ],
    });
    await expect(conversionsApi.supported('BTC', 'ETH')).resolves.toBe(true);
    await expect(conversionsApi.supported('BTC', 'ETH')).resolves.toBe(false);
  });

  it('creates a conversion from a quote with its Idempotency-Key, the amount a string', async () => {
    const { calls } = stubFetch({
      'POST /api/v1/conversions': () =>
        json(201, {
          id: 'c-1',
          kind: 'conversion',
          status: 'completed',
          quote_id: 'q-1',
          from_currency: 'USDT',
          to_currency: 'BTC',
          from_amount: '10',
          to_amount: '0.000165',
          rate: '0.0000165',
          spread,
          price_source: 'order_book',
          route: ['USDT', 'BTC'],
          created_at: '2026-01-01T00:00:00.000Z',
        }),
    });
    await conversionsApi.create(
      { from_currency: 'USDT', to_currency: 'BTC', from_amount: '10', quote_id: 'q-1' },
      'key-1',
    );
    expect(calls[0]?.body).toEqual({ from_currency: 'usdt', to_currency: 'btc', from_amount: '10', quote_id: 'q-1' });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('key-1');
  });

  it('executes a market trade, leaving out a minimum that was not set', async () => {
    const trade = {
      id: 't-1',
      status: 'completed',
      trade_type: 'market',
      sell_currency: 'USDT',
      buy_currency: 'BTC',
      sell_amount: '10',
      buy_amount: '0.000165',
      target_amount: null,
      rate: '0.0000165',
      spread,
      price_source: 'order_book',
      route: ['USDT', 'BTC'],
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const { calls } = stubFetch({
      'POST /api/v1/trade/execute': () => json(201, { message: 'trade executed', trade }),
    });
    await conversionsApi.executeTrade({ sell_currency: 'USDT', buy_currency: 'BTC', sell_amount: '10' }, 'key-2');
    await conversionsApi.executeTrade(
      { sell_currency: 'USDT', buy_currency: 'BTC', sell_amount: '10', target_amount: '0.0001' },
      'key-3',
    );
    expect(calls[0]?.body).toEqual({
      sell_currency: 'usdt',
      buy_currency: 'btc',
      sell_amount: '10',
      trade_type: 'market',
    });
    expect(calls[1]?.body).toMatchObject({ target_amount: '0.0001' });
    expect(calls[1]?.headers['Idempotency-Key']).toBe('key-3');
  });

  it('reads both histories with an optional limit', async () => {
    const { fetchMock } = stubFetch({
      'GET /api/v1/conversions/history': () => json(200, { conversions: [] }),
      'GET /api/v1/trade/history': () => json(200, { trades: [] }),
    });
    await expect(conversionsApi.history(5)).resolves.toEqual({ conversions: [] });
    await expect(conversionsApi.tradeHistory()).resolves.toEqual({ trades: [] });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/conversions/history?limit=5');
    expect(String(fetchMock.mock.calls[1]?.[0])).toBe('/api/v1/trade/history');
  });
});
