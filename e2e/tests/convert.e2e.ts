import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, registerByApi } from '../support/api.ts';
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

const balances = async (token: string) =>
  new Map(
    (
      await call<{ balances: { currency: string; available: string }[] }>(
        'GET',
        '/v1/wallet/balances',
        undefined,
        token,
      )
    ).balances.map((balance) => [balance.currency, Number(balance.available)]),
  );

describe('conversion in the browser', () => {
  const browser = useBrowser();

  it('converts USDT to BTC from the wallet: quote, confirm, both balances change', async () => {
    const { identity, session } = await registerByApi();
    await fundByCheckout(session, 'usdt', '500');
    const page = await browser.newContext();
    await signInThroughModal(page, identity);

    await page.goto('/wallet?action=convert');
    await expect.poll(() => page.getByTestId('convert-form').isVisible()).toBe(true);
    await page.getByTestId('convert-from').selectOption('USDT');
    await page.getByTestId('convert-to').selectOption('BTC');
    await expect.poll(() => page.getByTestId('convert-from-available').textContent()).toContain('500');
    await page.getByTestId('convert-amount').fill('100');

    // The quote: a rate, what arrives, and how long it holds.
    await expect.poll(() => page.getByTestId('convert-quote').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('convert-rate').textContent()).toMatch(/\d/);
    await expect.poll(() => page.getByTestId('convert-receive').textContent()).toContain('BTC');
    const readout = Number((await page.getByTestId('convert-readout').textContent())?.replace(/[^\d.]/g, ''));
    expect(readout).toBeGreaterThan(0);

    await expect.poll(() => page.getByTestId('convert-submit').isEnabled()).toBe(true);
    await page.getByTestId('convert-submit').click();
    await expect.poll(() => page.getByTestId('convert-result').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('convert-result').textContent()).toContain('Conversion completed');

    // Both balances moved, on the page and on the server.
    await expect.poll(() => page.getByTestId('convert-from-available').textContent()).toContain('400');
    const after = await balances(session.token);
    expect(after.get('USDT')).toBe(400);
    expect(after.get('BTC') ?? 0).toBeGreaterThan(0);
    // What arrived is what the quote said (within the rounding of the readout).
    expect(Math.abs((after.get('BTC') ?? 0) - readout)).toBeLessThanOrEqual(readout * 0.001);
    await page.goto('/wallet');
    await expect.poll(() => page.getByTestId('wallet-balance-USDT').textContent()).toContain('400.00');
    await expect.poll(() => page.getByTestId('wallet-balance-BTC').isVisible()).toBe(true);
  });
});
