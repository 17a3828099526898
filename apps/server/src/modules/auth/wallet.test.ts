import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import {
  countRows,
  emailLogin,
  ethereumWallet,
  setCookie,
  signedChallenge,
  solanaWallet,
  walletLogin,
  walletRegister,
} from './test-support.ts';

const CHALLENGE_TTL_MS = 5 * 60 * 1000;

describeEachDatabase(
  'wallet sign-in',
  (server) => {
    const challenge = (body: unknown) => server().request('POST', '/v1/auth/wallet-challenge', { body });

    it('issues an EIP-4361 challenge with a single-use nonce for an Ethereum address', async () => {
      const wallet = ethereumWallet();
      const response = await challenge({ wallet_address: wallet.address.toLowerCase() });
      expect(response.status).toBe(200);
      const { challenge: message, nonce, expires_at } = response.body;
      expect(nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
      const host = new URL(server().config.publicUrl).host;
      const lines = message.split('\n');
      expect(lines.slice(0, 5)).toEqual([
        `${host} wants you to sign in with your Ethereum account:`,
        wallet.address,
        '',
        'Sign in to Meridian',
        '',
      ]);
      expect(lines.slice(5, 9)).toEqual([
        `URI: ${server().config.publicUrl}`,
        'Version: 1',
        'Chain ID: 1',
        `Nonce: ${nonce}`,
      ]);
      expect(lines[10]).toBe(`Expiration Time: ${expires_at}`);
      const issuedAt = new Date(lines[9]!.replace('Issued At: ', '')).getTime();
      expect(new Date(expires_at).getTime() - issuedAt).toBe(CHALLENGE_TTL_MS);
      const again = await challenge({ wallet_address: wallet.address });
      expect(again.body.nonce).not.toBe(nonce);
    });

    it('issues a Sign-In-With-Solana challenge for a Solana address', async () => {
      const wallet = solanaWallet();
      const response = await challenge({ wallet_address: wallet.address, wallet_type: 'solana' });
      expect(response.status).toBe(200);
      expect(response.body.challenge).toContain('wants you to sign in with your Solana account:\n');
      expect(response.body.challenge).toContain(`\n${wallet.address}\n`);
      expect(response.body.challenge).toContain(`\nNonce: ${response.body.nonce}\n`);
    });

    it('refuses bad challenge requests', async () => {
      const cases: Array<[unknown, number, string]> = [
        [{}, 400, 'Wallet address is required'],
        [{ wallet_address: '' }, 400, 'Wallet address is required'],
        [{ wallet_address: 12 }, 400, 'Wallet address is required'],
        [{ wallet_address: '0x1234' }, 400, 'Invalid wallet address'],
        [{ wallet_address: 'x'.repeat(5000) }, 400, 'Invalid wallet address'],
        [
          { wallet_address: ethereumWallet().address, wallet_type: 'solana' },
          400,
          'Wallet type does not match the wallet address',
        ],
        [
          { wallet_address: ethereumWallet().address, wallet_type: 'bitcoin' },
          400,
          'Wallet type must be ethereum or solana',
        ],
        // Base58 of the right length, but not a 32-byte public key.
        [{ wallet_address: 'z'.repeat(44) }, 400, 'Invalid wallet address'],
      ];
      const before = await countRows(server(), 'wallet_challenges');
      for (const [body, status, message] of cases) {
        const response = await challenge(body);
        expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(status);
        expect(response.body.error.message).toBe(message);
      }
      expect(await countRows(server(), 'wallet_challenges')).toBe(before);
    });

    it('registers an Ethereum wallet with a signature, then signs it in', async () => {
      const wallet = ethereumWallet();
      const unregistered = await walletLogin(server(), await signedChallenge(server(), wallet));
      expect(unregistered.status).toBe(404);
      expect(unregistered.body.error).toEqual({
        code: 'WALLET_NOT_REGISTERED',
        message: 'Wallet not registered. Please register first.',
      });

      const registered = await walletRegister(server(), await signedChallenge(server(), wallet));
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
      expect(registered.body.account).toMatchObject({
        id: registered.body.account_id,
        email: `${wallet.address.toLowerCase()}@wallet.meridian.invalid`,
        first_name: 'User',
        last_name: 'Wallet',
        wallet_address: wallet.address,
        wallet_type: 'ethereum',
        marketing_consent: false,
        email_verified: false,
      });
      expect(setCookie(registered, 'refresh_token')).toContain(registered.body.refresh_token);
      const stored = await server().db.query<{ password_hash: string | null; terms_accepted_at: Date }>(
        'SELECT password_hash, terms_accepted_at FROM accounts WHERE id = $1',
        [registered.body.account_id],
      );
      expect(stored.rows[0]).toMatchObject({ password_hash: null, terms_accepted_at: expect.any(Date) });

      const login = await walletLogin(server(), await signedChallenge(server(), wallet));
      expect(login.status).toBe(200);
      expect(login.body.account_id).toBe(registered.body.account_id);
      const account = await server().request('GET', `/v1/accounts/${login.body.account_id}`, {
        token: login.body.token,
      });
      expect(account.status).toBe(200);

      const twice = await walletRegister(server(), await signedChallenge(server(), wallet));
      expect(twice.status).toBe(409);
      expect(twice.body.error.code).toBe('WALLET_ALREADY_REGISTERED');
    });

    it('registers and signs in a Solana wallet (ed25519), keeping the given first name and consent', async () => {
      const wallet = solanaWallet();
      const registered = await walletRegister(server(), {
        ...(await signedChallenge(server(), wallet)),
        first_name: 'Satoshi',
        marketing_consent: true,
      });
      expect(registered.status).toBe(201);
      expect(registered.body.account).toMatchObject({
        email: `${wallet.address}@wallet.meridian.invalid`,
        first_name: 'Satoshi',
        marketing_consent: true,
        wallet_type: 'solana',
        wallet_address: wallet.address,
      });
      const { wallet_type: _type, ...withoutType } = await signedChallenge(server(), wallet);
      const login = await walletLogin(server(), withoutType);
      expect(login.status).toBe(200);
    });

    it('never lets a wallet account in by email and password', async () => {
      const wallet = ethereumWallet();
      const registered = await walletRegister(server(), await signedChallenge(server(), wallet));
      const email = registered.body.account.email;
      // Whatever a client derives from the public address, and anything else, is refused alike.
      for (const password of [`${wallet.address}`, `Wallet_${wallet.address.slice(2, 10)}!A1`, 'Corr3ct&Horse']) {
        const response = await emailLogin(server(), email, password);
        expect(response.status).toBe(401);
        expect(response.body.error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid credentials' });
      }
      // Nor is a verification mail sent to the synthetic address.
      const verify = await server().request('POST', `/v1/accounts/${registered.body.account_id}/verify`, {
        token: registered.body.token,
        body: {},
      });
      expect(verify.status).toBe(400);
    });

    it('refuses a replayed nonce', async () => {
      const wallet = ethereumWallet();
      await walletRegister(server(), await signedChallenge(server(), wallet));
      const signed = await signedChallenge(server(), wallet);
      expect((await walletLogin(server(), signed)).status).toBe(200);
      const replay = await walletLogin(server(), signed);
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe('WALLET_CHALLENGE_INVALID');
    });

    it('refuses an expired challenge', async () => {
      const wallet = solanaWallet();
      await walletRegister(server(), await signedChallenge(server(), wallet));
      const signed = await signedChallenge(server(), wallet);
      server().clock.advance(CHALLENGE_TTL_MS + 1000);
      const expired = await walletLogin(server(), signed);
      expect(expired.status).toBe(401);
      expect(expired.body.error).toEqual({
        code: 'WALLET_CHALLENGE_EXPIRED',
        message: 'This sign-in request has expired. Please try again.',
      });
    });

    it('refuses a signature by another key, and the nonce is spent by that attempt', async () => {
      for (const makeWallet of [ethereumWallet, solanaWallet]) {
        const wallet = makeWallet();
        await walletRegister(server(), await signedChallenge(server(), wallet));
        const honest = await signedChallenge(server(), wallet);
        const forged = { ...honest, signature: await makeWallet().sign(honest.message) };
        const refused = await walletLogin(server(), forged);
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('WALLET_SIGNATURE_INVALID');
        const retry = await walletLogin(server(), honest);
        expect(retry.status).toBe(401);
        expect(retry.body.error.code).toBe('WALLET_CHALLENGE_INVALID');
      }
    });

    it('refuses a tampered message, a swapped address and a garbage signature', async () => {
      const wallet = ethereumWallet();
      const other = ethereumWallet();
      await walletRegister(server(), await signedChallenge(server(), wallet));

      const issued = await signedChallenge(server(), wallet);
      const tamperedMessage = issued.message.replace('Sign in to Meridian', 'Sign in to Meridian and send funds');
      const tampered = { ...issued, message: tamperedMessage, signature: await wallet.sign(tamperedMessage) };
      const refused = await walletLogin(server(), tampered);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('WALLET_CHALLENGE_INVALID');

      const forOther = await signedChallenge(server(), other, wallet);
      const swapped = await walletLogin(server(), { ...forOther, wallet_address: wallet.address });
      expect(swapped.body.error.code).toBe('WALLET_CHALLENGE_INVALID');

      const noNonce = await walletLogin(server(), { ...issued, message: 'hello' });
      expect(noNonce.body.error.code).toBe('WALLET_CHALLENGE_INVALID');
      const garbage = await walletLogin(server(), { ...(await signedChallenge(server(), wallet)), signature: 'zz' });
      expect(garbage.body.error.code).toBe('WALLET_SIGNATURE_INVALID');
    });

    it('refuses malformed wallet sign-ins and registrations, creating nothing', async () => {
      const wallet = ethereumWallet();
      const signed = await signedChallenge(server(), wallet);
      const before = await countRows(server(), 'accounts');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ signature: undefined }, 'Signature is required'],
        [{ message: '' }, 'Message is required'],
        [{ message: 'x'.repeat(5000) }, expect.any(String)],
        [{ wallet_type: 'solana' }, 'Wallet type does not match the wallet address'],
        [{ wallet_address: 'nope' }, 'Invalid wallet address'],
      ];
      for (const [overrides, message] of cases) {
        const login = await walletLogin(server(), { ...signed, ...overrides });
        expect(login.status, JSON.stringify(overrides).slice(0, 60)).toBe(400);
        expect(login.body.error.message).toEqual(message);
        const registration = await walletRegister(server(), { ...signed, ...overrides });
        expect(registration.status).toBe(400);
      }
      const badSignature = await walletRegister(server(), {
        ...signed,
        signature: await ethereumWallet().sign(signed.message),
      });
      expect(badSignature.status).toBe(401);
      expect(await countRows(server(), 'accounts')).toBe(before);
    });

    it('lets exactly one of two simultaneous uses of one nonce succeed', async () => {
      const wallet = ethereumWallet();
      await walletRegister(server(), await signedChallenge(server(), wallet));
      const signed = await signedChallenge(server(), wallet);
      const responses = await Promise.all([walletLogin(server(), signed), walletLogin(server(), signed)]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 401]);

      const fresh = ethereumWallet();
      const registration = await signedChallenge(server(), fresh);
      const registrations = await Promise.all([
        walletRegister(server(), registration),
        walletRegister(server(), registration),
      ]);
      expect(registrations.map((response) => response.status).sort()).toEqual([201, 401]);

      const another = ethereumWallet();
      const [first, second] = [await signedChallenge(server(), another), await signedChallenge(server(), another)];
      const sameWallet = await Promise.all([walletRegister(server(), first), walletRegister(server(), second)]);
      expect(sameWallet.map((response) => response.status).sort()).toEqual([201, 409]);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
