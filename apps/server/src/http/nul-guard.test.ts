import { describe, expect, it } from 'vitest';
import { signUp } from '../modules/auth/test-support.ts';
import { describeEachDatabase, type TestResponse } from '../test/harness.ts';
import { findNul } from './nul-guard.ts';

const NUL_MESSAGE = 'Text must not contain the NUL character';

function expectNulRefused(response: TestResponse<any>, path: string) {
  expect(response.status).toBe(400);
  expect(response.body).toEqual({
    error: {
      code: 'VALIDATION_ERROR',
      message: NUL_MESSAGE,
      details: { issues: [{ path, message: NUL_MESSAGE, key: 'validation.nulCharacter' }] },
    },
  });
}

describe('findNul', () => {
  it('finds a NUL in nested strings and keys, and nothing in clean values', () => {
    expect(findNul({ a: [{ b: 'x\u0000' }] }, '')).toBe('a.0.b');
    expect(findNul({ 'k\u0000': 1 }, '')).toBe('k\u0000');
    expect(findNul({ a: ['x', 1, null, true, { b: 'ü\t' }] }, '')).toBeNull();
    expect(findNul(undefined, '')).toBeNull();
  });
});

describeEachDatabase(
  'NUL characters in requests',
  (server) => {
    it('refuses a NUL in path ids, public path parameters and query strings with one clear 400', async () => {
      const { session } = await signUp(server());
      const token = session.token;
      expectNulRefused(await server().request('GET', '/v1/orders/abc%00def', { token }), 'id');
      expectNulRefused(await server().request('GET', '/api/v1/wallet/transfer/%00/status', { token }), 'id');
      expectNulRefused(await server().request('GET', '/v1/accounts/%00', { token }), 'id');
      expectNulRefused(await server().request('GET', '/v1/ticker/BTC%00USDT'), 'symbol');
      expectNulRefused(await server().request('GET', '/v1/wallet/transactions?currency=BTC%00', { token }), 'currency');
    });

    it('refuses a NUL in registration, profile, transfer and withdrawal texts', async () => {
      const { session } = await signUp(server());
      const token = session.token;
      const register = await server().request('POST', '/v1/accounts', {
        body: {
          email: 'nul@example.com',
          password: 'Corr3ct&Horse',
          first_name: 'Ad\u0000a',
          last_name: 'Lovelace',
          terms_accepted: true,
        },
      });
      expectNulRefused(register, 'first_name');
      const profile = `/v1/accounts/${session.account_id}/profile`;
      expectNulRefused(await server().request('PUT', profile, { token, body: { username: 'ada\u0000' } }), 'username');
      expectNulRefused(await server().request('PUT', profile, { token, body: { bio: 'hello\u0000world' } }), 'bio');
      const transfer = await server().request('POST', '/api/v1/wallet/transfer', {
        token,
        body: { to_username: 'bob\u0000', currency: 'USDT', amount: '1' },
      });
      expectNulRefused(transfer, 'to_username');
      const payout = await server().request('POST', '/api/v1/wallet/payout', {
        token,
        body: { withdrawals: [{ address: '0xabc\u0000', currency: 'ETH', amount: '1' }] },
      });
      expectNulRefused(payout, 'withdrawals.0.address');
      const login = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email: 'a@b.co', password: 'pass\u0000word' },
      });
      expectNulRefused(login, 'password');

      // The same texts without the NUL are taken.
      const clean = await server().request('PUT', profile, { token, body: { bio: 'hello world' } });
      expect(clean.status).toBe(200);
      expect(clean.body.profile.bio).toBe('hello world');
    });

    it('checks anonymous routes before their handlers and authenticated ones after the token', async () => {
      // No token: the guard's 401 comes first, and says nothing about the inputs.
      const anonymous = await server().request('PUT', '/v1/accounts/00000000-0000-4000-8000-000000000000/profile', {
        body: { bio: '\u0000' },
      });
      expect(anonymous.status).toBe(401);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
