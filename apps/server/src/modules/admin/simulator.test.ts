import { decimal, formatDecimal, mulToScale } from '@platform/money';
import { beforeAll, describe, expect, it } from 'vitest';
import { coinModel } from '../../adapters/prices/simulator.ts';
import { describeEachDatabase, startTestServer } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { setAccountRole } from '../kyc/grant-role-command.ts';

const shock = (body: unknown, token?: string) => ({ ...(token ? { token } : {}), body });

describeEachDatabase('admin: shock the simulated price', (server) => {
  let admin: SignedUp;
  let alice: SignedUp;
  beforeAll(async () => {
    admin = await signUp(server());
    alice = await signUp(server());
    await setAccountRole(server().db, admin.email, 'admin');
  });

  it('moves the coin at once by the percentage, exactly, and the feed hears it', async () => {
    const before = server().services.markets.sources.simulator.quotesNow(['ETH']).get('ETH')?.priceUsd ?? '';
    const response = await server().request(
      'POST',
      '/v1/admin/simulator/shock',
      shock({ symbol: 'ETH', move_percent: '-25' }, admin.session.token),
    );
    expect(response.status).toBe(200);
    // The simulator moves by whole basis points at the coin's price scale, rounding half to even.
    const scale = coinModel('ETH').scale;
    const expectedPrice = formatDecimal(mulToScale(decimal(before), decimal('0.75'), scale, 'half_even'));
    expect(response.body).toEqual({ symbol: 'ETH', price_usd: expectedPrice });
    const now = server().services.markets.sources.simulator.quotesNow(['ETH']).get('ETH')?.priceUsd;
    expect(now).toBe(expectedPrice);
  });

  it('refuses everyone but an admin, unknown coins and moves out of range', async () => {
    const path = '/v1/admin/simulator/shock';
    expect((await server().request('POST', path, shock({ symbol: 'BTC', move_percent: '-10' }))).status).toBe(401);
    const body = { symbol: 'BTC', move_percent: '-10' };
    expect((await server().request('POST', path, shock(body, alice.session.token))).status).toBe(403);
    const token = admin.session.token;
    expect((await server().request('POST', path, shock({ symbol: 'NOPE', move_percent: '1' }, token))).status).toBe(
      404,
    );
    for (const move of ['-95', '901', '1e3', '10.001', '\u0000', '']) {
      const response = await server().request('POST', path, shock({ symbol: 'BTC', move_percent: move }, token));
      expect(response.status, move).toBe(400);
    }
  });
});

describe('admin: shock on a venue priced by live sources', () => {
  it('is refused: nobody moves a real market', async () => {
    const server = await startTestServer('pglite', { PRICE_SOURCES: 'exchange,simulator' });
    try {
      const admin = await signUp(server);
      await setAccountRole(server.db, admin.email, 'admin');
      const response = await server.request(
        'POST',
        '/v1/admin/simulator/shock',
        shock({ symbol: 'BTC', move_percent: '-10' }, admin.session.token),
      );
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('SIMULATOR_NOT_IN_USE');
    } finally {
      await server.close();
    }
  });
});
