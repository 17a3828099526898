import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type Identity = Awaited<ReturnType<typeof registerByApi>>['identity'];

async function signInThroughModal(page: Page, identity: Identity) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

const root = (page: Page, attribute: string) =>
  page.evaluate((name) => document.documentElement.getAttribute(name), attribute);

describe('settings in the browser', () => {
  const browser = useBrowser();

  it('saves a profile field on the server: it is there after a reload', async () => {
    const { identity, session } = await registerByApi();
    const page = await browser.newContext();
    await signInThroughModal(page, identity);
    const username = `set_${session.account_id.slice(0, 8)}`;

    await page.goto('/settings?section=profile');
    await expect.poll(() => page.getByTestId('profile-username').isVisible()).toBe(true);
    await page.getByTestId('profile-username').fill(username);
    await page.getByLabel('Location').fill('Lisbon');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByText('Profile updated').first().isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByTestId('profile-username').inputValue()).toBe(username);
    expect(await page.getByLabel('Location').inputValue()).toBe('Lisbon');
    const account = await call<{ profile: { username: string | null; location: string | null } }>(
      'GET',
      `/v1/accounts/${session.account_id}`,
      undefined,
      session.token,
    );
    expect(account.profile).toMatchObject({ username, location: 'Lisbon' });
  });

  it('keeps the theme, the time zone and the language across a reload', async () => {
    const { identity } = await registerByApi();
    const page = await browser.newContext();
    await signInThroughModal(page, identity);

    await page.goto('/settings?section=appearance');
    await page.getByTestId('theme-card-retroTerminal').click();
    await expect.poll(() => root(page, 'data-theme')).toBe('retroTerminal');
    expect(await page.getByTestId('theme-card-retroTerminal').getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId('settings-tab-preferences').click();
    await page.getByTestId('preference-time-zone').selectOption('Asia/Tokyo');
    await expect.poll(() => page.getByTestId('preference-time-zone').inputValue()).toBe('Asia/Tokyo');

    await page.getByTestId('settings-tab-language').click();
    await page.getByTestId('language-option-de').click();
    await expect.poll(() => root(page, 'lang')).toBe('de');

    await page.reload();
    await expect.poll(() => root(page, 'lang')).toBe('de');
    expect(await root(page, 'data-theme')).toBe('retroTerminal');
    expect(await page.getByTestId('language-option-de').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('settings-tab-preferences').click();
    await expect.poll(() => page.getByTestId('preference-time-zone').inputValue()).toBe('Asia/Tokyo');
    await page.getByTestId('settings-tab-appearance').click();
    expect(await page.getByTestId('theme-card-retroTerminal').getAttribute('aria-pressed')).toBe('true');
  });
});
