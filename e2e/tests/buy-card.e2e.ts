import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newIdentity, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

async function signIn(page: Page, identity: ReturnType<typeof newIdentity>) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** Issue 13: USD has no chain address; a newcomer buys it with a card and trades BTC/USD. */
describe('buying USD with a card (sandbox hosted card checkout)', () => {
  const browser = useBrowser();

  it('finds the trade hint, buys 100 USD by card with the fee shown first, and sees the balance arrive once', async () => {
    const page = await browser.newContext();
    const identity = newIdentity();
    await registerByApi(identity);
    await signIn(page, identity);

    // On /trade with no USD: the hint says where to get it.
    await page.goto('/trade?pair=BTC/USD');
    await expect.poll(() => page.getByTestId('order-funds-hint').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect
      .poll(() => page.getByTestId('order-funds-convert').getAttribute('href'))
      .toBe('/wallet?action=convert&to=USD');
    await page.getByTestId('order-funds-buy').click();

    await expect.poll(() => page.getByTestId('buy-form').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('buy-currency-USD').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('buy-amount').fill('100');
    await expect.poll(() => page.getByTestId('buy-fee').textContent()).toBe('3.50 USD');
    await expect.poll(() => page.getByTestId('buy-total').textContent()).toBe('103.50 USD');
    // Every toast that says a deposit was confirmed, on every page from now on.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __depositToasts: string[] }).__depositToasts = seen;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof HTMLElement && /Deposit confirmed/.test(node.textContent ?? '')) {
              if (node.closest('[role="status"]') || node.querySelector('[role="status"]'))
                seen.push(node.textContent ?? '');
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.getByTestId('buy-submit').click();

    // The sandbox's card page, in the same tab.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
    expect(await page.textContent('body')).toContain('Card fee');
    await page.getByRole('button', { name: 'Pay 103.50 USD' }).click();

    await expect
      .poll(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`)
      .toBe('/wallet?action=deposit');
    await expect
      .poll(() => page.getByTestId('deposit-checkout-return').textContent(), { timeout: 20_000 })
      .toContain('100 USD credited');
    await expect
      .poll(() => page.getByTestId('wallet-balance-USD').textContent(), { timeout: 20_000 })
      .toContain('100.00');
    // One message per event: at most the server notification's toast (it is not shown when the
    // credit landed before the socket subscribed; the list refresh then shows it without a toast).
    await page.waitForTimeout(2_000);
    const toasts = await page.evaluate(() => (window as unknown as { __depositToasts: string[] }).__depositToasts);
    expect(toasts.length).toBeLessThanOrEqual(1);
  });

  it('a declined card credits nothing and says the checkout was cancelled', async () => {
    const page = await browser.newContext();
    const identity = newIdentity();
    await registerByApi(identity);
    await signIn(page, identity);
    await page.goto('/wallet?action=buy&currency=USDT');
    await expect.poll(() => page.getByTestId('buy-currency-USDT').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('buy-amount').fill('20');
    await expect.poll(() => page.getByTestId('buy-total').textContent()).toBe('20.70 USDT');
    await page.getByTestId('buy-submit').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
    await page.getByRole('button', { name: 'Decline the card' }).click();
    await expect.poll(() => page.getByTestId('deposit-cancelled').isVisible()).toBe(true);
    await page.goto('/wallet');
    await page.getByTestId('wallet-hide-zero').uncheck();
    await expect.poll(() => page.getByTestId('wallet-balance-USDT').textContent()).toContain('0.00');
  });
});
