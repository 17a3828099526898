import fs from 'node:fs';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, enableTwoFactorByApi, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type OutboxMail = { to: string; subject: string; text: string };

/** The mails the server wrote to its outbox (MAILER=outbox in the e2e data dir). */
function outbox(): OutboxMail[] {
  const dir = path.join(inject('dataDir'), 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as OutboxMail);
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function openSecurity(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await logIn(page, email, password);
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
  await page.goto('/settings?section=security');
  await expect.poll(() => page.getByTestId('change-password-form').isVisible()).toBe(true);
}

const wrongCode = (totp: OTPAuth.TOTP) => String((Number(totp.generate()) + 500_000) % 1_000_000).padStart(6, '0');

describe('account security in the browser', () => {
  const browser = useBrowser();

  it('keeps the user signed in after a wrong 2FA code in Settings, and shows the recovery codes once', async () => {
    const page = await browser.newContext();
    const { identity } = await registerByApi();
    await openSecurity(page, identity.email, identity.password);

    await page.getByTestId('settings-2fa-enable').click();
    const secret = (await page.getByTestId('settings-2fa-secret').textContent()) ?? '';
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.trim()), digits: 6, period: 30 });
    await page.getByTestId('settings-2fa-code').fill(wrongCode(totp));
    await page.getByTestId('settings-2fa-confirm').click();

    await expect.poll(() => page.getByText('Invalid two-factor authentication code').first().isVisible()).toBe(true);
    // Still signed in, still on the page, the token still stored.
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(await page.getByTestId('user-avatar').isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();

    await page.getByTestId('settings-2fa-code').fill(totp.generate());
    await page.getByTestId('settings-2fa-confirm').click();
    await expect.poll(() => page.getByTestId('recovery-code-item').count()).toBe(10);
    await page.getByTestId('recovery-codes-saved').check();
    await page.getByTestId('recovery-codes-done').click();
    await expect.poll(() => page.getByTestId('recovery-codes').count()).toBe(0);

    // A wrong code when turning it off: the same, no sign-out.
    await page.getByTestId('settings-2fa-code').fill(wrongCode(totp));
    await page.getByTestId('settings-2fa-disable').click();
    await expect.poll(() => page.getByText('Invalid two-factor authentication code').first().isVisible()).toBe(true);
    expect(await page.getByTestId('user-avatar').isVisible()).toBe(true);
    expect(await page.getByTestId('settings-2fa-status').textContent()).toContain('is on');
  });

  it('resets a forgotten password through the mailed link, then signs in with the new one', async () => {
    const page = await browser.newContext();
    const { identity, session } = await registerByApi();
    await page.goto('/');
    await page.getByTestId('login-button').click();
    await page.getByTestId('login-email').fill(identity.email);
    await page.getByTestId('forgot-password-link').click();
    await page.getByTestId('forgot-password-submit').click();
    await expect
      .poll(() => page.getByTestId('forgot-password-status').textContent())
      .toContain(`If an account exists for ${identity.email}`);

    let mail: OutboxMail | undefined;
    await expect
      .poll(() => {
        mail = outbox().find((entry) => entry.to === identity.email && entry.subject === 'Reset your password');
        return mail !== undefined;
      })
      .toBe(true);
    const link = /(http\S+\/reset-password\?token=\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeDefined();

    await page.goto(link!);
    const newPassword = 'N3w&Better!pass';
    await page.getByTestId('reset-password').fill(newPassword);
    await page.getByTestId('reset-confirm-password').fill(newPassword);
    await page.getByTestId('reset-submit').click();
    await expect.poll(() => page.getByTestId('reset-done').isVisible()).toBe(true);

    // The sessions of before are over.
    await expect(call('GET', `/v1/accounts/${session.account_id}`, undefined, session.token)).rejects.toThrow(/401/);

    // The link works once.
    const second = await page.context().newPage();
    await second.goto(link!);
    await second.getByTestId('reset-password').fill('An0ther&Password');
    await second.getByTestId('reset-confirm-password').fill('An0ther&Password');
    await second.getByTestId('reset-submit').click();
    await expect
      .poll(() => second.getByText('This password reset link is invalid or has expired').isVisible())
      .toBe(true);
    await second.close();

    await page.getByTestId('reset-log-in').click();
    await expect.poll(() => page.getByTestId('login-modal').isVisible()).toBe(true);
    await logIn(page, identity.email, newPassword);
    await expect.poll(() => page.getByText('Login successful!').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
  });

  it('lists the sessions and signs out everywhere else; the other device is out at once', async () => {
    const page = await browser.newContext();
    const { identity, session } = await registerByApi();
    await openSecurity(page, identity.email, identity.password);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(2);
    await expect.poll(() => page.getByTestId('session-current').count()).toBe(1);

    await page.getByTestId('sessions-revoke-others').click();
    await expect.poll(() => page.getByText('Signed out of 1 other session').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
    await expect(call('GET', `/v1/accounts/${session.account_id}`, undefined, session.token)).rejects.toThrow(/401/);
    // This browser goes on: a reload keeps it signed in.
    await page.reload();
    await expect.poll(() => page.getByTestId('change-password-form').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
  });

  it('changes the password in Settings with the 2FA code, staying signed in', async () => {
    const page = await browser.newContext();
    const { identity, session } = await registerByApi();
    await openSecurity(page, identity.email, identity.password);
    // 2FA goes on elsewhere (spending the current step); the page learns it on reload.
    const totp = await enableTwoFactorByApi(session);
    await page.reload();
    await expect.poll(() => page.getByTestId('change-password-code').isVisible()).toBe(true);

    const newPassword = 'Chang3d&Password';
    await page.getByTestId('current-password').fill(identity.password);
    await page.getByTestId('new-password').fill(newPassword);
    await page.getByTestId('confirm-new-password').fill(newPassword);
    await page.getByTestId('change-password-code').fill(wrongCode(totp));
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => page.getByText('Invalid two-factor authentication code').first().isVisible()).toBe(true);
    expect(await page.getByTestId('user-avatar').isVisible()).toBe(true);

    // The setup spent the current step's code; the next one is within the allowed drift.
    await page.getByTestId('change-password-code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByTestId('change-password-submit').click();
    await expect.poll(() => page.getByText('Password changed').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('change-password-form').isVisible()).toBe(true);
    await expect(
      call('POST', '/v1/auth/login', { login_type: 'email', email: identity.email, password: identity.password }),
    ).rejects.toThrow(/401/);
  });
});
