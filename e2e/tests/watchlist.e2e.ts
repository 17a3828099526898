import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerByApi } from '../support/api.ts';
import { baseUrl, useBrowser } from '../support/browser.ts';

type Identity = Awaited<ReturnType<typeof registerByApi>>['identity'];
type Session = Awaited<ReturnType<typeof registerByApi>>['session'];

async function signInThroughModal(page: Page, identity: Identity) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** The watchlist as the server holds it, read the way any API client would. */
async function serverWatchlist(session: Session): Promise<string[]> {
  const response = await fetch(`${baseUrl()}/v1/accounts/${session.account_id}/watchlist`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (!response.ok) throw new Error(`GET watchlist -> ${response.status}`);
  return ((await response.json()) as { pair_ids: string[] }).pair_ids;
}

const watchlistOrder = (page: Page) =>
  page.locator('[data-testid^="watchlist-item-"]').evaluateAll((items) => items.map((item) => item.dataset.testid));

describe('watchlist of a signed-in user (stored on the account)', () => {
  const browser = useBrowser();

  it('stars, reorders and removes pairs, keeps them on the server and shows them in another browser', async () => {
    const { identity, session } = await registerByApi();
    const page = await browser.newContext();
    await signInThroughModal(page, identity);

    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('favourite-BTC_USD').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('favourite-ETH_USD').isVisible()).toBe(true);
    await page.getByTestId('favourite-BTC_USD').click();
    await page.getByTestId('favourite-ETH_USD').click();
    await expect.poll(() => page.getByTestId('favourite-BTC_USD').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByTestId('favourite-ETH_USD').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => serverWatchlist(session)).toEqual(['BTC_USD', 'ETH_USD']);

    await page.goto('/watchlist');
    await expect.poll(() => page.getByTestId('watchlist-list').isVisible()).toBe(true);
    await expect.poll(() => watchlistOrder(page)).toEqual(['watchlist-item-BTC_USD', 'watchlist-item-ETH_USD']);

    await page.getByTestId('watchlist-up-ETH_USD').click();
    await expect.poll(() => watchlistOrder(page)).toEqual(['watchlist-item-ETH_USD', 'watchlist-item-BTC_USD']);
    await expect.poll(() => serverWatchlist(session)).toEqual(['ETH_USD', 'BTC_USD']);

    await page.getByTestId('watchlist-remove-ETH_USD').click();
    await expect.poll(() => watchlistOrder(page)).toEqual(['watchlist-item-BTC_USD']);
    await expect.poll(() => serverWatchlist(session)).toEqual(['BTC_USD']);

    // The same account in a fresh browser (no local storage) gets its list from the server.
    const other = await browser.newContext();
    await signInThroughModal(other, identity);
    expect(await other.evaluate(() => localStorage.getItem('meridian-watchlist'))).toBeNull();
    await other.goto('/watchlist');
    await expect.poll(() => watchlistOrder(other)).toEqual(['watchlist-item-BTC_USD']);
    await other.goto('/markets');
    await expect.poll(() => other.getByTestId('favourite-BTC_USD').getAttribute('aria-pressed')).toBe('true');
    expect(await other.getByTestId('favourite-ETH_USD').getAttribute('aria-pressed')).toBe('false');
  });

  it('adds a star clicked before the account’s list has loaded to that list instead of replacing it', async () => {
    const { identity, session } = await registerByApi();
    const put = await fetch(`${baseUrl()}/v1/accounts/${session.account_id}/watchlist`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pair_ids: ['BTC_USD', 'SOL_USD'] }),
    });
    expect(put.ok).toBe(true);
    const page = await browser.newContext();
    await signInThroughModal(page, identity);
    // A slow network: the list is held back until after the user has clicked a star.
    let releaseList = () => {};
    const listHeld = new Promise<void>((resolve) => {
      releaseList = resolve;
    });
    await page.route('**/v1/accounts/*/watchlist', async (route) => {
      if (route.request().method() === 'GET') await listHeld;
      await route.continue();
    });
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('favourite-ETH_USD').isVisible()).toBe(true);
    expect(await page.getByTestId('favourite-BTC_USD').getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('favourite-ETH_USD').click();
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseList();

    await expect.poll(() => serverWatchlist(session)).toEqual(['BTC_USD', 'SOL_USD', 'ETH_USD']);
    await expect.poll(() => page.getByTestId('favourite-ETH_USD').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('favourite-BTC_USD').getAttribute('aria-pressed')).toBe('true');
  });
});
