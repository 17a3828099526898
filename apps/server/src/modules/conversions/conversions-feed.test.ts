import type { PriceUpdate } from '@platform/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { latestPriceUpdate } from '../markets/service.ts';
import { fund } from '../trading/test-support.ts';
import { estimate, newUser, quickTrade } from './test-support.ts';

/**
 * With the running price feed (the simulator, as a server without external sources runs): its
 * references are fresh on the server's clock, direct, cross (ETH_BTC) and two-leg routes are
 * quoted from them, and a quick trade settles.
 */
describe('conversions on the running price feed', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      RATE_LIMIT_ENABLED: 'false',
      HISTORY_DAYS: '0',
      HISTORY_MINUTE_HOURS: '0',
    });
    for (let attempt = 0; attempt < 100 && !latestPriceUpdate(server.pubsub, 'ETH_BTC'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('quotes from fresh references on every kind of route', async () => {
    const update = latestPriceUpdate(server.pubsub, 'BTC_USD') as PriceUpdate;
    expect(server.clock.now.getTime() - update.timestamp).toBeLessThan(120_000);
    const user = await newUser(server);
    for (const [from, to, amount, route] of [
      ['BTC', 'USD', '0.01', ['BTC', 'USD']],
      ['BTC', 'ETH', '0.01', ['BTC', 'ETH']],
      ['ADA', 'DOT', '100', ['ADA', 'USD', 'DOT']],
    ] as const) {
      const answer = await estimate(server, user, { from_currency: from, to_currency: to, from_amount: amount });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ price_source: 'reference', route });
    }
    await fund(server, user.id, 'USD', '100');
    const trade = await quickTrade(server, user, { sell_currency: 'USD', buy_currency: 'BTC', sell_amount: '50' });
    expect(trade.status, JSON.stringify(trade.body)).toBe(201);
  });
});
