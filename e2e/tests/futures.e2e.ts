import { abs, add, decimal, eq, formatDecimal, lt, sign, sub, toScale } from '@platform/money';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, fundByCheckout, type newIdentity, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type Identity = ReturnType<typeof newIdentity>;
type FuturesAccount = { wallet_balance: string; margin_balance: string; transferable: string };
type Position = { market: string; side: string; size: string; liquidation_price: string | null };
type Income = { type: string; amount: string; market: string | null };

const MARKET = 'BTC_USD_PERP';
/** Into the futures wallet: a 0.1 BTC long at 50x needs about 135 USD of margin and fees. */
const TRANSFER = '200';
const SIZE = '0.1';

async function signIn(page: Page, identity: Identity, path = '/') {
  await page.goto(path);
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** An administrator's session (the suite's administrator, made by the grant-role command). */
async function adminToken(): Promise<string> {
  const admin = inject('admin');
  const session = await call<{ token: string }>('POST', '/v1/auth/login', { login_type: 'email', ...admin });
  return session.token;
}

const account = (token: string) => call<FuturesAccount>('GET', '/v1/futures/account', undefined, token);
const positions = async (token: string) =>
  (await call<{ positions: Position[] }>('GET', '/v1/futures/positions', undefined, token)).positions;
const income = async (token: string) =>
  (await call<{ income: Income[] }>('GET', '/v1/futures/income?limit=500', undefined, token)).income;

/** USD as the futures screen shows it: two decimals, thousands grouped. */
function usd(value: string): string {
  const text = formatDecimal(toScale(decimal(value), 2, 'half_up'));
  const [whole = '', cents = ''] = text.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** The screen's price text ('67,125.4') as a decimal string ('67125.4'). */
const plain = (text: string) => text.replace(/,/g, '').trim();

describe('futures: a 50x long through the screen, liquidated by a simulated crash', () => {
  const browser = useBrowser();

  it('shows the liquidation price before sending, then liquidates the position when the price crosses it', async () => {
    const { identity, session } = await registerByApi();
    await fundByCheckout(session, 'usd', '5000');
    const page = await browser.newContext();
    await signIn(page, identity, '/trade');

    // Spot / Futures switch on the trade page: the URL says which.
    await page.getByTestId('market-kind-futures').click();
    await expect.poll(() => page.url()).toContain('/trade/futures/');
    await expect.poll(() => page.getByTestId('futures-order-form').isVisible()).toBe(true);
    if (!page.url().includes(MARKET)) {
      await page.goto(`/trade/futures/${MARKET}`);
      await expect.poll(() => page.getByTestId('futures-order-form').isVisible()).toBe(true);
    }

    // Spot -> futures through the transfer dialog.
    await page.getByTestId('futures-transfer-button').first().click();
    await page.getByTestId('futures-transfer-amount').fill(TRANSFER);
    await page.getByTestId('futures-transfer-submit').click();
    await expect.poll(() => page.getByTestId('futures-transfer-dialog').count()).toBe(0);
    await expect.poll(async () => (await account(session.token)).wallet_balance).toMatch(/^200(\.0+)?$/);
    await expect.poll(() => page.getByTestId('futures-available').textContent()).toContain('200.00');

    // 50x through the leverage dialog; above 20x the risk warning comes first.
    await page.getByTestId('futures-leverage-button').click();
    await page.getByTestId('futures-leverage-input').fill('50');
    await page.getByTestId('futures-leverage-confirm').click();
    await page.getByTestId('futures-risk-accept').click();
    await expect.poll(() => page.getByTestId('futures-leverage-dialog').count()).toBe(0);
    await expect.poll(() => page.getByTestId('futures-leverage-button').textContent()).toContain('50x');

    // A market buy: the preview shows the liquidation price of the position it would leave.
    await page.getByTestId('futures-side-buy').click();
    await page.getByTestId('futures-order-type').selectOption('market');
    await page.getByTestId('futures-quantity').fill(SIZE);
    await expect.poll(() => page.getByTestId('preview-liquidation').textContent()).toMatch(/^\d{1,3}(,\d{3})*\.\d$/);
    const previewLiquidation = plain((await page.getByTestId('preview-liquidation').textContent()) ?? '');
    expect(await positions(session.token)).toEqual([]);

    await page.getByTestId('futures-order-submit').click();
    await expect.poll(() => page.getByTestId(`position-${MARKET}`).isVisible()).toBe(true);
    const [position] = await positions(session.token);
    expect(position?.side).toBe('long');
    expect(position?.size).toMatch(/^0\.1(0*)$/);
    const liquidation = position?.liquidation_price ?? '';
    expect(liquidation).not.toBe('');
    // The screen's liquidation price is the API's at the tick; the preview's was within a few ticks of
    // it (the fill's price is the book's, the preview's the touch a moment earlier).
    await expect
      .poll(async () => plain((await page.getByTestId(`position-${MARKET}-liquidation`).textContent()) ?? ''))
      .toBe(formatDecimal(toScale(decimal(liquidation), 1, 'half_up')));
    expect(lt(abs(sub(decimal(previewLiquidation), decimal(liquidation))), decimal('200'))).toBe(true);

    // The administrator crashes the simulated BTC price by 10 %, through the liquidation price.
    const admin = await adminToken();
    await call('POST', '/v1/admin/simulator/shock', { symbol: 'BTC', move_percent: '-10' }, admin);

    // The position is taken over: gone from the API and from the Positions tab.
    await expect.poll(async () => (await positions(session.token)).length, { timeout: 30_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('futures-positions-empty').isVisible(), { timeout: 15_000 }).toBe(true);

    // "Position liquidated" in the notifications.
    await page.getByTestId('notifications-bell').click();
    await expect
      .poll(() => page.getByTestId('notification-item').filter({ hasText: 'Position liquidated' }).count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await page.keyboard.press('Escape');

    // Balances: the futures wallet is what was transferred less the margin lost and the fees, as the
    // income history itemises it; never negative; the screen shows the API's figure.
    const after = await account(session.token);
    const entries = await income(session.token);
    const total = entries.reduce((sum, entry) => add(sum, decimal(entry.amount)), decimal('0'));
    expect(eq(total, decimal(after.wallet_balance))).toBe(true);
    const kinds = new Set(entries.filter((entry) => entry.market === MARKET).map((entry) => entry.type));
    expect(kinds.has('fee')).toBe(true);
    // The close's loss is realised_pnl when the book or the insurance fund took the position, adl for
    // the lots deleveraged against opposite positions (docs/futures.md): which depends on the fund's
    // balance and the positions earlier tests left open.
    expect(kinds.has('realised_pnl') || kinds.has('adl')).toBe(true);
    expect(sign(decimal(after.wallet_balance))).toBeGreaterThanOrEqual(0);
    // Liquidated where equity reached the maintenance margin (about 34 USD): the 134 USD of initial
    // margin is gone, whatever the close's price in the book and the fund's share.
    expect(lt(decimal(after.wallet_balance), decimal('100'))).toBe(true);
    expect(eq(decimal(after.margin_balance), decimal(after.wallet_balance))).toBe(true);
    // The spot wallet kept the rest of the deposit: a liquidation never reaches it.
    const { balances } = await call<{ balances: { currency: string; available: string }[] }>(
      'GET',
      '/v1/wallet/balances',
      undefined,
      session.token,
    );
    const spotUsd = balances.find((row) => row.currency === 'USD')?.available ?? '0';
    expect(eq(decimal(spotUsd), sub(decimal('5000'), decimal(TRANSFER)))).toBe(true);
    await expect
      .poll(() => page.getByTestId('futures-wallet').textContent())
      .toContain(`${usd(after.wallet_balance)} USD`);
  });
});
