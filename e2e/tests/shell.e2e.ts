import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.ts';

describe('shell, routes and preferences', () => {
  const browser = useBrowser();

  it('redirects a guarded route to / when signed out', async () => {
    const page = await browser.newContext();
    await page.goto('/wallet');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });

  it('sends an unknown path to /', async () => {
    const page = await browser.newContext();
    await page.goto('/no/such/page');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  });

  it('opens an open route inside the shell', async () => {
    const page = await browser.newContext();
    await page.goto('/markets');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Markets');
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
  });

  it('keeps the theme and the language across a reload', async () => {
    const page = await browser.newContext();
    await page.goto('/');
    await page.getByTestId('theme-select').selectOption('brightLight');
    await page.getByTestId('language-select').selectOption('de');
    await page.reload();
    await expect.poll(() => page.getByTestId('theme-select').inputValue()).toBe('brightLight');
    await expect.poll(() => page.getByTestId('language-select').inputValue()).toBe('de');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByTestId('theme-select').selectOption('darkMode');
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(background);
  });
});
