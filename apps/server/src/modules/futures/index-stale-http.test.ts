import type { MarkPriceView, PriceUpdate } from '@platform/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';

/** The price feed off: the index is the price the test publishes (the simulator-only default's path). */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', FUTURES_INDEX_STALE_MS: '5000' };

/** Publishes SOL_USD's price as the feed would, stamped `ageMs` before the server's clock. */
function publishSol(server: TestServer, price: string, ageMs = 0): void {
  const update: PriceUpdate = {
    symbol: 'SOL/USD',
    price,
    change24h: '0',
    changePercent24h: '0',
    volume24h: '0',
    high24h: price,
    low24h: price,
    timestamp: server.clock.now.getTime() - ageMs,
  };
  server.pubsub.publish('price.SOL_USD', update, { retain: true });
}

async function until<T>(read: () => Promise<T> | T, check: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeEachDatabase(
  'futures index staleness through HTTP',
  (server) => {
    it('a stale index keeps the last mark, says so on GET and on mark.{MARKET}, and clears with a fresh price', async () => {
      const mark = async () =>
        (await server().request('GET', '/v1/futures/markets/SOL_USD_PERP/mark')).body as MarkPriceView;
      // A price older than the cut-off is never an index.
      publishSol(server(), '150', 6_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(server().services.futures.workers.marks.mark('SOL_USD_PERP')).toBeNull();
      publishSol(server(), '150');
      const fresh = await until(mark, (body) => body.index_stale === false);
      expect(fresh).toMatchObject({ mark_price: '150', index_price: '150', index_stale: false });
      // Nothing new for longer than the cut-off: the mark stands, stale; a late price stamped old changes nothing.
      server().clock.advance(6_000);
      publishSol(server(), '100', 5_500);
      const stale = await until(mark, (body) => body.index_stale === true);
      expect(stale).toMatchObject({ mark_price: '150', index_price: '150', index_stale: true });
      // The next sample (each second) publishes it once.
      const published = () => server().pubsub.latest('mark.SOL_USD_PERP') as MarkPriceView;
      expect(await until(published, (view) => view.index_stale === true)).toMatchObject({ mark_price: '150.00' });
      publishSol(server(), '151');
      const back = await until(mark, (body) => body.index_stale === false);
      expect(back).toMatchObject({ index_price: '151', index_stale: false });
      expect(published()).toMatchObject({ index_price: '151.00', index_stale: false });
    });
  },
  ENVIRONMENT,
);
