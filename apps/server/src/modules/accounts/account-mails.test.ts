import { expect, it } from 'vitest';
import { readOutbox } from '../../adapters/mailer/outbox-mailer.ts';
import { mailTexts } from '../../i18n/mail-texts/index.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { registrationBody, STRONG_PASSWORD, signUp } from '../auth/test-support.ts';

/** Mails leave after the answer: wait for the one with this subject. */
async function mailTo(server: TestServer, email: string, subject: string) {
  for (let i = 0; i < 100; i++) {
    const found = (await readOutbox(server.config.outboxDir)).find((m) => m.to === email && m.subject === subject);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail "${subject}" to ${email}`);
}

const NEW_PASSWORD = 'N3w&Better!pass';

/** Mails in the account's language (docs/i18n.md "Server texts"). */
describeEachDatabase('account mails in the account language', (server) => {
  const de = mailTexts('de');

  it('sends a German account the German verification mail and the German reset mail', async () => {
    const { email } = await signUp(server(), { language: 'de' });
    const verification = await mailTo(server(), email, de.verifySubject);
    expect(verification.text).toContain('Hallo Ada,');
    expect(verification.text).toContain('/settings?verify=');
    const asked = await server().request('POST', '/v1/auth/password-reset/request', { body: { email } });
    expect(asked.status).toBe(202);
    const reset = await mailTo(server(), email, 'Setzen Sie Ihr Passwort zurück');
    expect(reset.text).toContain('Der Link funktioniert einmal und 30 Minuten lang.');
    expect(reset.html).toContain('Neues Passwort wählen');
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(reset.text)![1]!);
    const confirmed = await server().request('POST', '/v1/auth/password-reset/confirm', {
      body: { token, password: NEW_PASSWORD },
    });
    expect(confirmed.status).toBe(200);
    const changed = await mailTo(server(), email, de.changedSubject);
    expect(changed.text).toContain('Passwort vergessen?');
  });

  it('follows a change of language: the next mail is in the new one', async () => {
    const { email, session } = await signUp(server(), { language: 'de' });
    await server().request('PUT', `/v1/accounts/${session.account_id}/profile`, {
      token: session.token,
      body: { language: 'ja' },
    });
    await server().request('POST', '/v1/auth/password-reset/request', { body: { email } });
    const reset = await mailTo(server(), email, mailTexts('ja').resetSubject);
    expect(reset.text).toContain('30 分間有効です');
  });

  it('writes in English to an account without a language, and the password-change mail in the Polish one', async () => {
    const plain = await signUp(server());
    await server().request('POST', '/v1/auth/password-reset/request', { body: { email: plain.email } });
    expect((await mailTo(server(), plain.email, 'Reset your password')).text).toMatch(/^Hello Ada,/);
    const polish = await signUp(server(), { language: 'pl' });
    const changed = await server().request('POST', `/v1/accounts/${polish.session.account_id}/password`, {
      token: polish.session.token,
      body: { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect((await mailTo(server(), polish.email, mailTexts('pl').changedSubject)).text).toContain('Meridian');
  });

  it("writes the existing-account notice in the owner's language, not the one of the new registration", async () => {
    const owner = await signUp(server(), { language: 'fr', first_name: 'Zoé' });
    const again = await server().request('POST', '/v1/accounts', {
      body: registrationBody({ email: owner.email, language: 'ru' }),
    });
    expect(again.status).toBe(201);
    const notice = await mailTo(server(), owner.email, mailTexts('fr').existingSubject);
    expect(notice.text).toContain('Bonjour Zoé,');
    expect(notice.text).toContain('« Mot de passe oublié »');
  });

  it('writes the notice to an owner without a language in the language of the registration', async () => {
    const owner = await signUp(server());
    await server().request('POST', '/v1/accounts', { body: registrationBody({ email: owner.email, language: 'sv' }) });
    const notice = await mailTo(server(), owner.email, mailTexts('sv').existingSubject);
    expect(notice.text).toContain('Hej Ada,');
  });

  it('escapes a hostile first name in the HTML of the mail', async () => {
    const { email } = await signUp(server(), { language: 'it', first_name: '<img src=x onerror=alert(1)>' });
    const mail = await mailTo(server(), email, mailTexts('it').verifySubject);
    expect(mail.html).not.toContain('<img');
    expect(mail.text).toContain('Ciao <img src=x onerror=alert(1)>,');
  });
});
