import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { LOGIN_IP_LIMIT, TWO_FACTOR_IP_LIMIT, WALLET_CHALLENGE_IP_LIMIT } from './limits.ts';
import { emailLogin, ethereumWallet, setCookie, signUp, uniqueEmail } from './test-support.ts';

// Per-IP limits are on here (the other suites switch them off); every request comes from 127.0.0.1.
// The public URL is https here, which makes the refresh cookie Secure.
describeEachDatabase(
  'per-IP rate limits',
  (server) => {
    const signUpWithCookie = async () => {
      const user = await signUp(server());
      const login = await emailLogin(server(), user.email, user.password);
      return { ...user, cookie: setCookie(login, 'refresh_token') };
    };

    // First, while the sign-in budget of this address is untouched.
    it('limits 2FA attempts per IP', async () => {
      const { session, cookie } = await signUpWithCookie();
      expect(cookie).toMatch(/; Secure/);
      const path = `/v1/accounts/${session.account_id}/2fa/disable`;
      const statuses: number[] = [];
      for (let i = 0; i <= TWO_FACTOR_IP_LIMIT.max; i++) {
        statuses.push(
          (await server().request('POST', path, { token: session.token, body: { code: '000000' } })).status,
        );
      }
      expect(statuses.slice(0, TWO_FACTOR_IP_LIMIT.max).every((status) => status === 409)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });

    it('limits sign-in attempts per IP with 429 RATE_LIMITED and Retry-After', async () => {
      const statuses: number[] = [];
      // Each attempt uses another email, so only the per-IP limit can bite.
      for (let i = 0; i <= LOGIN_IP_LIMIT.max; i++) {
        const response = await server().request('POST', '/v1/auth/login', {
          body: { login_type: 'email', email: uniqueEmail('ip'), password: 'Wr0ng!Password' },
        });
        statuses.push(response.status);
        if (response.status === 429) {
          expect(response.body.error).toEqual({
            code: 'RATE_LIMITED',
            message: 'Too many attempts. Please try again later.',
          });
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      // The sign-up above spent two attempts of this address's budget.
      const firstLimited = statuses.indexOf(429);
      expect(firstLimited).toBe(LOGIN_IP_LIMIT.max - 2);
      expect(statuses.slice(0, firstLimited).every((status) => status === 401)).toBe(true);
    });

    it('limits wallet challenges per IP', async () => {
      const address = ethereumWallet().address;
      let last = 0;
      for (let i = 0; i <= WALLET_CHALLENGE_IP_LIMIT.max; i++) {
        last = (await server().request('POST', '/v1/auth/wallet-challenge', { body: { wallet_address: address } }))
          .status;
      }
      expect(last).toBe(429);
    });
  },
  { PUBLIC_URL: 'https://exchange.example' },
);
