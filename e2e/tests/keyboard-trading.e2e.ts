import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInThroughModal } from '../support/a11y.ts';
import { call, fundByCheckout, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

const focusedTestId = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);
const focusInside = (page: Page, selector: string) =>
  page.evaluate((inside) => document.activeElement?.closest(inside) !== null, selector);

/** Presses Tab (or Shift+Tab) until the control with this test id has the focus; fails past `max` presses. */
async function tabTo(page: Page, testId: string | RegExp, { backwards = false, max = 80 } = {}): Promise<string> {
  for (let presses = 0; presses < max; presses++) {
    const current = await focusedTestId(page);
    if (current !== null && (typeof testId === 'string' ? current === testId : testId.test(current))) return current;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${String(testId)} not reached with ${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** A buy price 7% under the pair's last price: inside the price band, resting in the book. */
async function restingBid(pair: string): Promise<{ price: string; moved: string }> {
  const ticker = await call<Record<string, unknown>>('GET', `/v1/ticker/${pair}`);
  const whole = String(ticker.last_price ?? ticker.price ?? '').split('.')[0] ?? '';
  if (!/^\d+$/.test(whole)) throw new Error(`no ${pair} price in ${JSON.stringify(ticker)}`);
  return { price: String((BigInt(whole) * 93n) / 100n), moved: String((BigInt(whole) * 92n) / 100n) };
}

describe('keyboard only: choose a pair, place a limit order, modify it, cancel it', () => {
  const browser = useBrowser();

  it('runs the whole trading flow with Tab, Enter, Space, arrows and Escape', { timeout: 120_000 }, async () => {
    const { identity, session } = await registerByApi();
    await fundByCheckout(session, 'usd', '1000');
    const page = await browser.newContext();
    await page.goto('/trade?pair=BTC/USD');
    await signInThroughModal(page, identity.email, identity.password);
    await expect.poll(() => page.getByTestId('order-form').isVisible()).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // The pair selector: Enter opens it with the focus in its search; typing filters, an arrow goes
    // into the list, Escape closes and gives the focus back; Enter on a pair picks it.
    await tabTo(page, 'pair-selector-button');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('pair-selector-search');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('pair-selector-panel').count()).toBe(0);
    expect(await focusedTestId(page)).toBe('pair-selector-button');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('pair-selector-search');
    await page.keyboard.type('ETH/USD');
    await expect.poll(() => page.getByTestId('pair-option-ETH_USD').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedTestId(page)).toBe('pair-option-ETH_USD');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('trade-pair-symbol').textContent()).toBe('ETH/USD');
    expect(await focusedTestId(page)).toBe('pair-selector-button');

    // The order form: buy, limit, price, amount, submit.
    const { price, moved } = await restingBid('ETH_USD');
    await tabTo(page, 'order-side-buy');
    await page.keyboard.press('Space');
    expect(await page.getByTestId('order-side-buy').getAttribute('aria-pressed')).toBe('true');
    await tabTo(page, 'order-type-limit');
    await page.keyboard.press('Space');
    await tabTo(page, 'order-price');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(price);
    await tabTo(page, 'order-amount');
    await page.keyboard.type('0.01');
    await tabTo(page, 'order-submit');
    await page.keyboard.press('Enter');
    const row = page.getByTestId('open-order-row');
    await expect.poll(() => row.count()).toBe(1);
    const orderId = (await row.first().getAttribute('data-order-id')) ?? '';

    // Modify: the dialog takes the focus, keeps it (Tab and Shift+Tab go round inside), Escape
    // closes it onto the button that opened it; Enter saves.
    await tabTo(page, `order-modify-${orderId}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusInside(page, '[data-testid="order-modify-dialog"]')).toBe(true);
    for (let press = 0; press < 8; press++) {
      await page.keyboard.press(press % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await focusInside(page, '[data-testid="order-modify-dialog"]')).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('order-modify-dialog').count()).toBe(0);
    expect(await focusedTestId(page)).toBe(`order-modify-${orderId}`);
    await page.keyboard.press('Enter');
    await tabTo(page, 'order-modify-price');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(moved);
    await tabTo(page, 'order-modify-save');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('order-modify-dialog').count()).toBe(0);
    const order = () =>
      call<{ price: string | null; status: string }>('GET', `/v1/orders/${orderId}`, undefined, session.token);
    const priceOf = async () => (await order()).price?.split('.')[0];
    await expect.poll(priceOf).toBe(moved);
    await expect.poll(() => focusedTestId(page)).toBe(`order-modify-${orderId}`);

    // Cancel: the undo takes the focus where the cancel button was; once the order is gone the
    // focus stays in the open orders, not lost to the page.
    await tabTo(page, `order-cancel-${orderId}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe(`order-undo-${orderId}`);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => focusInside(page, '.open-orders-panel')).toBe(true);
    expect((await order()).status).toBe('cancelled');
  });
});
