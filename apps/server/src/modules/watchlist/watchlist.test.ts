import { TRADING_PAIRS, WATCHLIST_MAX_PAIRS } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';

// The markets module seeds the catalogue of trading pairs at start.
describeEachDatabase(
  'watchlist',
  (server) => {
    let user: SignedUp;
    let other: SignedUp;
    const path = (accountId: string) => `/v1/accounts/${accountId}/watchlist`;
    const put = (body: unknown, signedUp = user) =>
      server().request('PUT', path(signedUp.session.account_id), { body, token: signedUp.session.token });
    const get = (signedUp = user) =>
      server().request('GET', path(signedUp.session.account_id), { token: signedUp.session.token });

    beforeAll(async () => {
      user = await signUp(server());
      other = await signUp(server());
    });

    it('starts empty', async () => {
      const response = await get();
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ pair_ids: [] });
    });

    it('replaces the list, keeps the user’s order, drops duplicates and reads display symbols as pair ids', async () => {
      const first = await put({ pair_ids: ['ETH_USD', 'BTC_USD', 'SOL_USD'] });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ pair_ids: ['ETH_USD', 'BTC_USD', 'SOL_USD'] });

      const second = await put({ pair_ids: ['SOL_USD', 'btc/usd', 'SOL_USD', 'BTC_USD', 'ETH/BTC'] });
      expect(second.body).toEqual({ pair_ids: ['SOL_USD', 'BTC_USD', 'ETH_BTC'] });
      expect((await get()).body).toEqual({ pair_ids: ['SOL_USD', 'BTC_USD', 'ETH_BTC'] });

      expect((await put({ pair_ids: [] })).body).toEqual({ pair_ids: [] });
      expect((await get()).body).toEqual({ pair_ids: [] });
    });

    it(`holds many pairs (up to ${WATCHLIST_MAX_PAIRS}) in order`, async () => {
      const all = TRADING_PAIRS.slice(0, WATCHLIST_MAX_PAIRS).map((pair) => pair.id);
      const response = await put({ pair_ids: all });
      expect(response.status).toBe(200);
      expect((await get()).body.pair_ids).toEqual(all);
    });

    it('refuses the whole list when a pair is unknown, naming each unknown pair', async () => {
      await put({ pair_ids: ['BTC_USD'] });
      const response = await put({ pair_ids: ['ETH_USD', 'NOPE_USD', 'BTC_USD', 'FAKE/COIN', 'NOPE_USD'] });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Trading pair not found: NOPE_USD, FAKE/COIN',
        details: {
          issues: [
            { path: 'pair_ids.1', message: 'Trading pair not found' },
            { path: 'pair_ids.3', message: 'Trading pair not found' },
            { path: 'pair_ids.4', message: 'Trading pair not found' },
          ],
          unknown_pair_ids: ['NOPE_USD', 'FAKE/COIN'],
        },
      });
      // Nothing half-done: the previous list stands.
      expect((await get()).body).toEqual({ pair_ids: ['BTC_USD'] });
    });

    it('refuses wrong shapes and types with VALIDATION_ERROR', async () => {
      const cases: unknown[] = [
        {},
        { pair_ids: 'BTC_USD' },
        { pair_ids: [42] },
        { pair_ids: [null] },
        { pair_ids: [''] },
        { pair_ids: ['X'.repeat(33)] },
        { pair_ids: null },
        ['BTC_USD'],
        Array.from({ length: WATCHLIST_MAX_PAIRS + 1 }, (_, index) => `P${index}_USD`),
        { pair_ids: Array.from({ length: WATCHLIST_MAX_PAIRS + 1 }, () => 'BTC_USD') },
      ];
      for (const body of cases) {
        const response = await put(body);
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
      const tooMany = await put({ pair_ids: Array.from({ length: WATCHLIST_MAX_PAIRS + 1 }, () => 'BTC_USD') });
      expect(tooMany.body.error.message).toBe(`A watchlist holds at most ${WATCHLIST_MAX_PAIRS} pairs`);
      const response = await server().request('PUT', path(user.session.account_id), {
        rawBody: 'not json',
        token: user.session.token,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
    });

    it('is for the owner only: 401 without a token, 403 for another account, 400 for a malformed id', async () => {
      const id = user.session.account_id;
      expect((await server().request('GET', path(id))).status).toBe(401);
      expect((await server().request('PUT', path(id), { body: { pair_ids: ['BTC_USD'] } })).status).toBe(401);
      expect((await server().request('GET', path(id), { token: 'not-a-token' })).status).toBe(401);

      await put({ pair_ids: ['ETH_USD'] });
      const read = await server().request('GET', path(id), { token: other.session.token });
      expect(read.status).toBe(403);
      expect(read.body.error.code).toBe('FORBIDDEN');
      const write = await server().request('PUT', path(id), { body: { pair_ids: [] }, token: other.session.token });
      expect(write.status).toBe(403);
      expect((await get()).body).toEqual({ pair_ids: ['ETH_USD'] });
      // Each account has its own list.
      expect((await get(other)).body).toEqual({ pair_ids: [] });

      const malformed = await server().request('GET', path('not-a-uuid'), { token: user.session.token });
      expect(malformed.status).toBe(400);
    });

    it('lets concurrent replacements of one list settle on one of them, whole', async () => {
      const lists = [['BTC_USD', 'ETH_USD'], ['ETH_USD', 'SOL_USD', 'BTC_USD'], ['SOL_USD'], ['ADA_USD', 'BTC_USD']];
      const responses = await Promise.all(lists.map((pair_ids) => put({ pair_ids })));
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      expect(lists).toContainEqual((await get()).body.pair_ids);
    });
  },
  { PRICE_FEED_ENABLED: 'false' },
);
