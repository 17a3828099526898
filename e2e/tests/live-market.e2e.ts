import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useBrowser } from '../support/browser.ts';

/**
 * A fresh install is a live venue on its own (issue 13, point 5): the house market makers quote
 * BTC/USD and the simulated takers trade with them, so trades print on the tape within 30 s, and
 * the ticker, the chart's last candle and the book's middle show one price: the last trade.
 */
describe('a live market on a fresh install', () => {
  const browser = useBrowser();

  /** The exact prices the three places show (their data-price attributes, decimal strings). */
  const prices = (page: Page) =>
    page.evaluate(() => {
      const read = (selector: string, attribute: string) =>
        document.querySelector(selector)?.getAttribute(attribute) ?? null;
      return {
        header: read('[data-testid="trade-last-price"]', 'data-price'),
        chart: read('[data-testid="price-chart"]', 'data-last-close'),
        book: read('[data-testid="order-book-last-price"]', 'data-price'),
        tape: document.querySelectorAll('[data-testid="recent-trade-row"]').length,
      };
    });

  const same = (a: string | null, b: string | null) => a !== null && b !== null && Number(a) === Number(b);

  it('prints trades on BTC/USD within 30 s, with one price across header, chart and book', async () => {
    const page = await browser.newContext();
    await page.goto('/trade?pair=BTC/USD');
    await expect.poll(() => page.getByTestId('trade-last-price').isVisible()).toBe(true);
    // Trades print: a new trade comes to the top of the tape from the socket (the tape keeps the
    // newest rows only, so its length alone says nothing once it is full).
    const newest = async () =>
      (await page.getByTestId('recent-trade-row').count()) > 0
        ? await page.getByTestId('recent-trade-row').first().textContent()
        : null;
    const first = await newest();
    await expect
      .poll(
        async () => {
          const now = await newest();
          return now !== null && now !== first;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true);
    // The book is a real ladder: many levels a side.
    await expect
      .poll(() => page.locator('[data-testid="order-book-bids"] [data-testid="order-book-row"]').count())
      .toBeGreaterThan(10);
    // One price: the three places agree (each catches up with a new trade within a frame or two).
    await expect
      .poll(
        async () => {
          const shown = await prices(page);
          return same(shown.header, shown.book) && same(shown.header, shown.chart);
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);

    fs.mkdirSync(artifactsDir, { recursive: true });
    for (const theme of ['darkMode', 'brightLight']) {
      await page.getByTestId('theme-select').selectOption(theme);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(artifactsDir, `live-market-btc-usd-${theme}.png`) });
    }
  });
});
