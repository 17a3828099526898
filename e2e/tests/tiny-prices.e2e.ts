import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir, useBrowser } from '../support/browser.ts';

/**
 * Issue 13: BABYDOGE (~$0.000000002) read $0.000000 everywhere. Its prices now read in
 * subscript-zero notation at the pair's tick (14 decimals: 8 zeros and 6 digits).
 */
const TINY_PRICE = /^0\.0₈\d{6}$/;

describe('tiny prices (BABYDOGE/USD)', () => {
  const browser = useBrowser();

  it('shows the header, the book and its grouping in subscript zeros, with every digit in the title', async () => {
    const page = await browser.newContext();
    await page.goto('/trade?pair=BABYDOGE_USD');
    const last = page.getByTestId('trade-last-price');
    await expect.poll(() => last.textContent()).toMatch(/^\$0\.0₈\d{6}$/);
    expect(await last.getAttribute('title')).toMatch(/^\$0\.00000000\d{6}$/);
    const bid = page.getByTestId('order-book-bids').getByTestId('order-book-row').first();
    await expect.poll(() => bid.locator('.ob-price').textContent(), { timeout: 15_000 }).toMatch(TINY_PRICE);
    // The row is named by what it shows (WCAG 2.5.3); every digit is in its title (its description).
    expect(await bid.getAttribute('title')).toMatch(/^Bid 0\.00000000\d{6}, amount [\d,]+ BABYDOGE/);
    const steps = await page.getByTestId('order-book-grouping').locator('option').allTextContents();
    expect(steps).toEqual(['0.0₁₃1', '0.0₁₂1', '0.0₁₁1', '0.0₁₀1']);
  });

  it('shows the order form fee and total as dollar amounts, not prices', async () => {
    const page = await browser.newContext();
    await page.goto('/trade?pair=BABYDOGE_USD');
    await page.getByTestId('order-price').fill('0.00000000209');
    await page.getByTestId('order-amount').fill('33000000');
    // 33,000,000 x 0.00000000209 = 0.06897; the fee 0.1 % of it.
    await expect.poll(() => page.getByTestId('order-total').textContent()).toBe('$0.07');
    expect(await page.getByTestId('order-fee').textContent()).toBe('$0.0₄69');
  });

  it('keeps screenshots of the BABYDOGE trade page in both themes on desktop and phone', async () => {
    const page = await browser.newContext();
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.goto('/trade?pair=BABYDOGE_USD');
    for (const theme of ['darkMode', 'brightLight']) {
      await page.getByTestId('theme-select').selectOption(theme);
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto('/trade?pair=BABYDOGE_USD');
        await page.getByTestId('price-chart').waitFor();
        await expect.poll(() => page.getByTestId('trade-last-price').textContent()).toMatch(/₈/);
        const file = path.join(artifactsDir, `trade-babydoge-${theme}-${width}x${height}.png`);
        await page.screenshot({ path: file });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      }
    }
  });
});
