import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import {
  emailLogin,
  registrationBody,
  signedChallenge,
  signUp,
  solanaWallet,
  walletRegister,
} from '../auth/test-support.ts';

/** The account's language (docs/i18n.md "Server texts"): set at registration, read and changed with the profile. */
describeEachDatabase('account language', (server) => {
  const account = (id: string, token: string) => server().request('GET', `/v1/accounts/${id}`, { token });
  const putProfile = (id: string, token: string, body: unknown) =>
    server().request('PUT', `/v1/accounts/${id}/profile`, { token, body });

  it('keeps the language sent with the registration, and null when none was sent', async () => {
    const german = await signUp(server(), { language: 'de' });
    const plain = await signUp(server());
    const read = await account(german.session.account_id, german.session.token);
    expect(read.status).toBe(200);
    expect(read.body.profile.language).toBe('de');
    expect((await account(plain.session.account_id, plain.session.token)).body.profile.language).toBeNull();
  });

  it('refuses a registration whose language is not one of the 22 codes, and creates nothing', async () => {
    for (const language of ['xx', 'DE', 'de\u0000', 'd'.repeat(100_000), 7, null]) {
      const body = registrationBody({ language });
      const response = await server().request('POST', '/v1/accounts', { body });
      expect(response.status, String(language).slice(0, 10)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect((await emailLogin(server(), String(body.email), String(body.password))).status).toBe(401);
    }
  });

  it('lets the owner set, change and clear the language; other profile fields stay', async () => {
    const { session } = await signUp(server());
    const { account_id: id, token } = session;
    await putProfile(id, token, { bio: 'Trader' });
    const set = await putProfile(id, token, { language: 'ja' });
    expect(set.status).toBe(200);
    expect(set.body.profile).toMatchObject({ language: 'ja', bio: 'Trader' });
    expect((await account(id, token)).body.profile.language).toBe('ja');
    expect((await putProfile(id, token, { bio: 'Hodler' })).body.profile.language).toBe('ja');
    const cleared = await putProfile(id, token, { language: null });
    expect(cleared.body.profile.language).toBeNull();
  });

  it('refuses an invalid language (unknown, NUL byte, huge, wrong type) and keeps the stored one', async () => {
    const { session } = await signUp(server(), { language: 'fr' });
    const { account_id: id, token } = session;
    for (const language of ['xx', 'fr\u0000', '\u0000', 'f'.repeat(1_000_000), '', 42, ['fr'], { code: 'fr' }]) {
      const response = await putProfile(id, token, { language });
      expect(response.status, JSON.stringify(language).slice(0, 12)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await account(id, token)).body.profile.language).toBe('fr');
  });

  it("answers another account's id as the profile route always does (403) and changes nothing", async () => {
    const owner = await signUp(server(), { language: 'pl' });
    const other = await signUp(server());
    const response = await putProfile(owner.session.account_id, other.session.token, { language: 'ro' });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
    const read = await account(owner.session.account_id, owner.session.token);
    expect(read.body.profile.language).toBe('pl');
  });

  it('asks for a session to change the language', async () => {
    const { session } = await signUp(server());
    const response = await server().request('PUT', `/v1/accounts/${session.account_id}/profile`, {
      body: { language: 'de' },
    });
    expect(response.status).toBe(401);
  });

  it('keeps the language sent with a wallet registration and refuses an invalid one', async () => {
    const wallet = solanaWallet();
    const refused = await walletRegister(server(), { ...(await signedChallenge(server(), wallet)), language: 'zz' });
    expect(refused.status).toBe(400);
    const created = await walletRegister(server(), { ...(await signedChallenge(server(), wallet)), language: 'ko' });
    expect(created.status).toBe(201);
    expect(created.body.account.profile.language).toBe('ko');
  });
});
