import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { account, futuresTrader, order, positions, setIndex } from './test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds every transaction's commit (after its statements ran) until the test releases it. */
function holdCommits(db: Database) {
  const original = db.transaction.bind(db);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  db.transaction = (async (fn: Parameters<Database['transaction']>[0]) =>
    original(async (tx) => {
      const result = await fn(tx);
      await gate;
      return result;
    })) as Database['transaction'];
  return {
    release: () => {
      release();
      db.transaction = original;
    },
  };
}

describeEachDatabase(
  'futures reads while a batch is being written',
  (server) => {
    beforeAll(() => server().services.futures.workers.funding.stop());

    it('never show a decided batch before it commits', async () => {
      setIndex(server(), 'BTC', '50000');
      const a = await futuresTrader(server(), '10000');
      const b = await futuresTrader(server(), '10000');
      expect((await order(server(), b, { side: 'sell', type: 'limit', price: '50000', quantity: '0.1' })).status).toBe(
        201,
      );
      expect(await positions(server(), a)).toEqual([]);
      const held = holdCommits(server().db);
      const buying = order(server(), a, { side: 'buy', type: 'market', quantity: '0.1' });
      await later(150);
      // The fill is decided in memory but not committed: the reads wait for the commit.
      const during = await Promise.race([positions(server(), a), later(400).then(() => 'still waiting')]);
      expect(during).toBe('still waiting');
      held.release();
      expect((await buying).status).toBe(201);
      expect(await positions(server(), a)).toMatchObject([{ market: 'BTC_USD_PERP', side: 'long', size: '0.1' }]);
      expect((await account(server(), a)).wallet_balance).toBe('9998');
    });
  },
  ENVIRONMENT,
);
