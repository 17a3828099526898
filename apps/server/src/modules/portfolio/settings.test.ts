import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

async function token(server: TestServer): Promise<string> {
  return (await signUp(server)).session.token;
}

describeEachDatabase(
  'portfolio settings: the stored lot method',
  (server) => {
    const get = (t?: string) => server().request('GET', '/v1/portfolio/settings', t ? { token: t } : {});
    const put = (t: string | undefined, body: unknown) =>
      server().request('PUT', '/v1/portfolio/settings', { ...(t ? { token: t } : {}), body });

    it('fifo until chosen; a choice persists, is the account own, and the last one wins', async () => {
      const [alice, bob] = [await token(server()), await token(server())];
      expect(await get(alice)).toMatchObject({ status: 200, body: { lot_method: 'fifo' } });
      expect(await put(alice, { lot_method: 'hifo' })).toMatchObject({ status: 200, body: { lot_method: 'hifo' } });
      expect((await get(alice)).body).toEqual({ lot_method: 'hifo' });
      expect((await get(bob)).body).toEqual({ lot_method: 'fifo' });
      expect((await put(alice, { lot_method: 'lifo' })).body).toEqual({ lot_method: 'lifo' });
      expect((await get(alice)).body).toEqual({ lot_method: 'lifo' });
      // The summary and the lots answer with it.
      const summary = await server().request('GET', '/v1/portfolio', { token: alice });
      expect(summary.body.method).toBe('lifo');
      const lots = await server().request('GET', '/v1/portfolio/lots?asset=BTC', { token: alice });
      expect(lots.body.method).toBe('lifo');
      const realised = await server().request('GET', '/v1/portfolio/realised?year=2026', { token: alice });
      expect(realised.body.method).toBe('lifo');
      const csv = await server().request('GET', '/v1/portfolio/tax-report.csv?year=2026', { token: alice });
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="realised-gains-2026-lifo.csv"');
    });

    it('400 VALIDATION_ERROR for anything but fifo, lifo or hifo, and changes nothing', async () => {
      const alice = await token(server());
      await put(alice, { lot_method: 'hifo' });
      const bad: unknown[] = [
        {},
        { lot_method: 'FIFO' },
        { lot_method: 'avco' },
        { lot_method: '' },
        { lot_method: 'fifo\u0000' },
        { lot_method: 1 },
        { lot_method: null },
        { lot_method: 'fifo', extra: true },
        { lot_method: 'x'.repeat(100_000) },
        [],
        'fifo',
      ];
      for (const body of bad) {
        const response = await put(alice, body);
        expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
      }
      const lots = await server().request('GET', '/v1/portfolio/lots?asset=BTC&method=avco', { token: alice });
      expect(lots.status).toBe(400);
      expect((await get(alice)).body).toEqual({ lot_method: 'hifo' });
    });

    it('401 without a token or with a bad one', async () => {
      expect((await get()).status).toBe(401);
      expect((await put(undefined, { lot_method: 'lifo' })).status).toBe(401);
      expect((await put('not-a-token', { lot_method: 'lifo' })).status).toBe(401);
    });

    it('300 concurrent choices of one account: one row, one of the values', async () => {
      const alice = await token(server());
      const methods = ['fifo', 'lifo', 'hifo'] as const;
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) => put(alice, { lot_method: methods[i % 3] })),
      );
      for (const answer of answers) expect(answer.status).toBe(200);
      expect(methods).toContain((await get(alice)).body.lot_method);
    });
  },
  ENVIRONMENT,
);
