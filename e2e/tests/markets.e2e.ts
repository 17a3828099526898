import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.ts';

/** A price as the markets table shows it: dollars, thousands separators, 2 to 8 decimals. */
const USD_PRICE = /^\$\d{1,3}(,\d{3})*\.\d{2,8}$/;

describe('markets (live prices)', () => {
  const browser = useBrowser();

  it('lists the markets with BTC/USD and its price', async () => {
    const page = await browser.newContext();
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('markets-table').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('market-row-BTC_USD').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('market-price-BTC_USD').textContent()).toMatch(USD_PRICE);
    expect(await page.locator('[data-testid^="market-row-"]').count()).toBeGreaterThan(10);
    expect(await page.getByTestId('market-change-BTC_USD').textContent()).toMatch(/^[+-]\d+\.\d{2}%$/);
  });

  it('updates the BTC/USD price live', async () => {
    const page = await browser.newContext();
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('market-price-BTC_USD').textContent()).toMatch(USD_PRICE);
    const first = await page.getByTestId('market-price-BTC_USD').textContent();
    await expect
      .poll(() => page.getByTestId('market-price-BTC_USD').textContent(), { timeout: 10_000, interval: 250 })
      .not.toBe(first);
  });

  it('filters by search and quote, and opens the trade page of a row', async () => {
    const page = await browser.newContext();
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('market-row-BTC_USD').isVisible()).toBe(true);
    await page.getByTestId('markets-search').fill('ether');
    await expect.poll(() => page.getByTestId('market-row-BTC_USD').count()).toBe(0);
    expect(await page.getByTestId('market-row-ETH_USD').isVisible()).toBe(true);
    await page.getByTestId('markets-quote-BTC').click();
    await expect.poll(() => page.getByTestId('market-row-ETH_BTC').isVisible()).toBe(true);
    await page.getByTestId('market-row-ETH_BTC').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/trade');
    expect(new URL(page.url()).searchParams.get('pair')).toBe('ETH/BTC');
  });

  it('keeps a logged-out visitor’s favourites in the browser and shows them on the watchlist', async () => {
    const page = await browser.newContext();
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('favourite-SOL_USD').isVisible()).toBe(true);
    await page.getByTestId('favourite-SOL_USD').click();
    await page.getByTestId('favourite-BTC_USD').click();
    await page.goto('/watchlist');
    await expect.poll(() => page.getByTestId('watchlist-item-SOL_USD').isVisible()).toBe(true);
    const order = () =>
      page.locator('[data-testid^="watchlist-item-"]').evaluateAll((items) => items.map((item) => item.dataset.testid));
    expect(await order()).toEqual(['watchlist-item-SOL_USD', 'watchlist-item-BTC_USD']);
    await page.getByTestId('watchlist-up-BTC_USD').click();
    await expect.poll(order).toEqual(['watchlist-item-BTC_USD', 'watchlist-item-SOL_USD']);
    await page.getByTestId('watchlist-remove-SOL_USD').click();
    await expect.poll(order).toEqual(['watchlist-item-BTC_USD']);
    await page.reload();
    await expect.poll(order).toEqual(['watchlist-item-BTC_USD']);
  });

  it('shows the market overview on the home page', async () => {
    const page = await browser.newContext();
    await page.goto('/');
    await expect.poll(() => page.getByTestId('home-gainers').isVisible()).toBe(true);
    expect(await page.getByTestId('home-losers').isVisible()).toBe(true);
    expect(await page.getByTestId('home-invite').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('home-market-count').textContent()).toMatch(/^\d+$/);
  });
});
