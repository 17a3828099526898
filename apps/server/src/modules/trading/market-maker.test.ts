import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { MARKET_MAKER_ACCOUNT_ID } from './market-maker.ts';
import { balance, fund, placeOrder, setReferencePrice } from './test-support.ts';

type Book = { bids: [string, string][]; asks: [string, string][] };

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('market-making bots', () => {
  let server: TestServer;
  const book = async () => (await server.request('GET', '/v1/orderbook/BTC_USD?depth=20')).body as Book;

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      PRICE_FEED_ENABLED: 'false',
      MARKET_MAKER_ENABLED: 'true',
      MARKET_MAKER_PAIRS: 'BTC_USD',
      MARKET_MAKER_LEVELS: '3',
      MARKET_MAKER_REFRESH_MS: '200',
    });
    setReferencePrice(server, 'BTC_USD', '50000.00');
  });
  afterAll(async () => {
    await server.close();
  });

  it('quote both sides around the reference price, so a newcomer gets a fill, and follow the price', async () => {
    const full = await eventually(book, (value) => value.bids.length === 3 && value.asks.length === 3);
    const bestBid = Number(full.bids[0]![0]);
    const bestAsk = Number(full.asks[0]![0]);
    expect(bestBid).toBeLessThan(50_000);
    expect(bestAsk).toBeGreaterThan(50_000);
    expect((bestAsk - bestBid) / 50_000).toBeLessThan(0.005);

    const newcomer = await signUp(server);
    await fund(server, newcomer.session.account_id, 'USD', '1000');
    const bought = await placeOrder(server, newcomer.session.token, {
      trading_pair: 'BTC_USD',
      side: 'buy',
      type: 'market',
      quantity: '0.001',
    });
    expect(bought.status).toBe(201);
    expect(bought.body).toMatchObject({ status: 'filled', average_price: full.asks[0]![0] });
    expect((await balance(server, newcomer.session.account_id, 'BTC')).available).toBe('0.001');
    // The bots paid into their own ledger account: they are funded and traded like anyone.
    expect(Number((await balance(server, MARKET_MAKER_ACCOUNT_ID, 'USD')).available)).toBeGreaterThan(0);

    // The reference moves up 2 %: the ladder follows, and the book never crosses.
    setReferencePrice(server, 'BTC_USD', '51000.00');
    const moved = await eventually(
      book,
      (value) =>
        value.bids.length === 3 &&
        value.asks.length === 3 &&
        Number(value.bids[0]![0]) > 50_900 &&
        Number(value.asks[0]![0]) > 51_000,
    );
    expect(Number(moved.bids[0]![0])).toBeLessThan(Number(moved.asks[0]![0]));
  });
});
