import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, enableTwoFactorByApi, fundByCheckout, newIdentity, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type Identity = ReturnType<typeof newIdentity>;

/** An EIP-55 test vector (all upper case: no checksum to get wrong), the format usdt withdrawals take (§5). */
const ETHEREUM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

async function signInThroughModal(page: Page, identity: Identity) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

async function signUpThroughModal(page: Page, identity: Identity) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('register-link').click();
  await page.getByTestId('register-first-name').fill(identity.firstName);
  await page.getByTestId('register-last-name').fill(identity.lastName);
  await page.getByTestId('register-email').fill(identity.email);
  await page.getByTestId('register-password').fill(identity.password);
  await page.getByTestId('register-confirm-password').fill(identity.password);
  await page.getByTestId('register-terms').check();
  await page.getByTestId('register-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** Picks a currency in the searchable picker of a form (deposit-currency, withdraw-currency). */
async function chooseCurrency(page: Page, picker: string, currency: string) {
  await page.getByTestId(picker).click();
  await page.getByTestId(`${picker}-search`).fill(currency);
  await page.getByTestId(`${picker}-option-${currency}`).click();
  await expect.poll(() => page.getByTestId(picker).textContent()).toContain(currency);
}

describe('wallet money flows in the browser (sandbox payment provider)', () => {
  const browser = useBrowser();

  it('deposits through the hosted checkout and sees the balance arrive without reloading', async () => {
    const page = await browser.newContext();
    const identity = newIdentity();
    await signUpThroughModal(page, identity);

    await page.goto('/wallet?action=deposit');
    await expect.poll(() => page.getByTestId('deposit-address-panel').isVisible()).toBe(true);
    await chooseCurrency(page, 'deposit-currency', 'USDT');
    await page.getByTestId('deposit-method-checkout').click();
    await page.getByTestId('deposit-amount').fill('250');
    await expect.poll(() => page.getByTestId('deposit-estimate-receive').textContent()).toBe('250 USDT');
    await page.getByTestId('deposit-checkout-submit').click();

    // The sandbox's hosted checkout, in the same tab.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
    await page.getByRole('button', { name: 'Pay 250 USDT' }).click();

    // Back on the wallet: the deposit is followed until it is credited.
    await expect
      .poll(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`)
      .toBe('/wallet?action=deposit');
    await expect.poll(() => page.getByTestId('deposit-checkout-return').isVisible()).toBe(true);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    await expect
      .poll(() => page.getByTestId('deposit-checkout-return').textContent(), { timeout: 20_000 })
      .toContain('Deposit confirmed: 250 USDT credited to your wallet.');
    await expect
      .poll(() => page.getByTestId('wallet-balance-USDT').textContent(), { timeout: 20_000 })
      .toContain('250.00');
    await page.getByTestId('balances-menu').click();
    await expect.poll(() => page.getByTestId('balances-menu-USDT').textContent()).toContain('250.00');
    await expect.poll(() => page.getByTestId('deposit-recent').textContent()).toContain('Completed');
    // No reload happened since the way back: the same document saw the balance change.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('withdraws with a two-factor code and follows the withdrawal to completed', async () => {
    const { identity, session } = await registerByApi();
    await fundByCheckout(session, 'usdt', '200');
    const page = await browser.newContext();
    await signInThroughModal(page, identity);
    // Two-factor goes on after the sign-in: the form reads the account again and asks for the code.
    const totp = await enableTwoFactorByApi(session);

    await page.goto('/wallet?action=withdraw');
    await expect.poll(() => page.getByTestId('withdraw-form').isVisible()).toBe(true);
    await chooseCurrency(page, 'withdraw-currency', 'USDT');
    await expect.poll(() => page.getByTestId('withdraw-currency').textContent()).toContain('200.00');
    await expect
      .poll(() => page.getByTestId('withdraw-help').textContent())
      .toContain('Two-factor authentication is on');

    // §5 checks in the spec's words before anything is sent.
    await page.getByTestId('withdraw-amount').fill('10');
    await page.getByTestId('withdraw-address').fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await page.getByTestId('withdraw-review').click();
    await expect
      .poll(() => page.getByTestId('withdraw-form').textContent())
      .toContain('Minimum withdrawal amount is 50 USDT');
    await expect.poll(() => page.getByTestId('withdraw-form').textContent()).toContain('Invalid USDT address format');

    await page.getByTestId('withdraw-amount').fill('60');
    await page.getByTestId('withdraw-address').fill(ETHEREUM_ADDRESS);
    await expect.poll(() => page.getByTestId('withdraw-fee').textContent()).toBe('1 USDT');
    await expect.poll(() => page.getByTestId('withdraw-total').textContent()).toBe('61 USDT');
    await page.getByTestId('withdraw-review').click();

    await expect.poll(() => page.getByTestId('withdraw-confirm-total').textContent()).toBe('61 USDT');
    expect(await page.getByTestId('withdraw-confirm-address').textContent()).toBe(ETHEREUM_ADDRESS);
    // The code that confirmed the setup was used; the next time step is within the allowed drift.
    await page.getByTestId('withdraw-twoFactorCode').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByTestId('withdraw-submit').click();

    await expect.poll(() => page.getByText('Withdrawal submitted').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('withdraw-status').textContent(), { timeout: 20_000 }).toBe('Completed');
    await expect.poll(() => page.getByTestId('withdraw-tracker').textContent()).toContain('Withdrawal completed');
    await expect.poll(() => page.getByTestId('wallet-balance-USDT').textContent()).toContain('139.00');
    const list = await call<{ withdrawals: { status: string; amount: string; fee: string }[] }>(
      'GET',
      '/v1/wallet/payouts?limit=5&page=1',
      undefined,
      session.token,
    );
    expect(list.withdrawals).toMatchObject([{ status: 'completed', amount: '60', fee: '1' }]);
  });

  it('sends to another user and watches the transfer popup reach FINISHED', async () => {
    const sender = await registerByApi();
    const recipient = await registerByApi();
    const username = `rcpt_${recipient.session.account_id.slice(0, 8)}`;
    await call('PUT', `/v1/accounts/${recipient.session.account_id}/profile`, { username }, recipient.session.token);
    await fundByCheckout(sender.session, 'usdt', '100');

    const page = await browser.newContext();
    await signInThroughModal(page, sender.identity);
    await page.goto('/wallet');
    await expect.poll(() => page.getByTestId('wallet-balance-USDT').textContent()).toContain('100.00');
    await page.getByTestId('send-recipient').fill(username);
    await page.getByTestId('send-amount').fill('25');
    await page.getByTestId('send-submit').click();

    const popup = page.locator('[data-testid^="transfer-popup-"][data-phase]').first();
    await expect.poll(() => popup.isVisible()).toBe(true);
    await expect
      .poll(() => popup.getByTestId('transfer-popup-title').textContent(), { timeout: 15_000 })
      .toBe('Transfer completed');
    await expect.poll(() => page.getByTestId('wallet-balance-USDT').textContent()).toContain('75.00');
    const received = await call<{ balances: { currency: string; available: string }[] }>(
      'GET',
      '/v1/wallet/balances',
      undefined,
      recipient.session.token,
    );
    expect(received.balances.find((balance) => balance.currency === 'USDT')?.available).toMatch(/^25(\.0+)?$/);
  });
});
