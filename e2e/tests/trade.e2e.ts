import fs from 'node:fs';
import path from 'node:path';
import { decimal, eq, formatDecimal, isZero, mulToScale } from '@platform/money';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, type newIdentity, registerByApi } from '../support/api.ts';
import { artifactsDir, useBrowser } from '../support/browser.ts';

type Identity = ReturnType<typeof newIdentity>;
type BookStats = { best_bid: string | null; best_ask: string | null };
type Balance = { currency: string; available: string; locked: string };

/** BTC/USD: prices to the cent, quantities to 10^-5 or finer (coins.ts). */
const PAIR = 'BTC_USD';
const AMOUNT = '0.001';

async function signIn(page: Page, identity: Identity, path = '/') {
  await page.goto(path);
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** A funded trader: 5,000 USD through the sandbox checkout, as a new user would fund. */
async function fundedTrader() {
  const { identity, session } = await registerByApi();
  await fundByCheckout(session, 'usd', '5000');
  return { identity, session };
}

async function bookStats(): Promise<BookStats> {
  return call<BookStats>('GET', `/v1/orderbook/${PAIR}/stats`);
}

async function balance(token: string, currency: string): Promise<Balance | undefined> {
  const { balances } = await call<{ balances: Balance[] }>('GET', '/v1/wallet/balances', undefined, token);
  return balances.find((row) => row.currency === currency);
}

/** A price as the tables show it: thousands grouped, two decimals (BTC/USD). */
function formatPrice(price: string): string {
  const [whole = '', cents = '00'] = price.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents.padEnd(2, '0')}`;
}

/**
 * The bots quote BTC/USD a cent apart, so the book's rows span cents: an order resting safely away
 * from the touch shows only with a coarser grouping. These tests group by $10 (the fourth step).
 */
const TEN_DOLLAR_GROUPING = '3';

/** The $10 bid level that holds a price: 65918.42 -> 65910. */
function tenDollarLevel(price: string): string {
  const whole = price.split('.')[0] ?? '';
  return `${whole.slice(0, -1)}0`;
}

/** How many bid rows of the grouped book stand at a level. */
async function bidRowsAt(page: Page, level: string): Promise<number> {
  const prices = await page
    .getByTestId('order-book-bids')
    .getByTestId('order-book-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-price') ?? ''));
  return prices.filter((shown) => shown !== '' && eq(decimal(shown), decimal(level))).length;
}

/** Waits until the page shows a live book (rows on both sides). */
async function waitForBook(page: Page) {
  await expect.poll(() => page.getByTestId('order-book-bids').getByTestId('order-book-row').count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('order-book-asks').getByTestId('order-book-row').count()).toBeGreaterThan(0);
}

describe('trade page', () => {
  const browser = useBrowser();

  it('places a limit order, sees it in the book and in open orders, moves its price and cancels it', async () => {
    const page = await browser.newContext();
    const { identity } = await fundedTrader();
    await signIn(page, identity, '/trade?pair=BTC/USD');
    await waitForBook(page);
    const stats = await bookStats();
    if (!stats.best_bid) throw new Error('no bid in the BTC_USD book: are the market makers on?');
    // 0.1 % under the best bid: rests in the book (well away from the touch), inside the price band.
    const price = formatDecimal(mulToScale(decimal(stats.best_bid), decimal('0.999'), 2, 'floor'));
    await page.getByTestId('order-book-grouping').selectOption(TEN_DOLLAR_GROUPING);

    await page.getByTestId('order-side-buy').click();
    await page.getByTestId('order-type-limit').click();
    await page.getByTestId('order-price').fill(price);
    await page.getByTestId('order-amount').fill(AMOUNT);
    await page.getByTestId('order-submit').click();

    const row = page.getByTestId('open-order-row');
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => bidRowsAt(page, tenDollarLevel(price))).toBe(1);
    const orderId = await row.first().getAttribute('data-order-id');

    // Modify its price from the row: the level moves in the book.
    const moved = formatDecimal(mulToScale(decimal(stats.best_bid), decimal('0.9985'), 2, 'floor'));
    await page.getByTestId(`order-modify-${orderId}`).click();
    await page.getByTestId('order-modify-price').fill(moved);
    await page.getByTestId('order-modify-save').click();
    await expect.poll(() => bidRowsAt(page, tenDollarLevel(moved))).toBe(1);
    await expect.poll(() => bidRowsAt(page, tenDollarLevel(price))).toBe(0);
    await expect.poll(() => row.first().textContent()).toContain(formatPrice(moved));

    // A cancel waits 5 s for an undo (Settings > Preferences default) and sends nothing meanwhile:
    // an undo leaves the order where it was, in the book.
    const cancelCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/v1/orders/${orderId}/cancel`)) cancelCalls.push(request.method());
    });
    await page.getByTestId(`order-cancel-${orderId}`).click();
    await page.getByTestId(`order-undo-${orderId}`).click();
    await page.waitForTimeout(6_000);
    expect(cancelCalls).toEqual([]);
    expect(await row.count()).toBe(1);
    expect(await bidRowsAt(page, tenDollarLevel(moved))).toBe(1);

    // Not undone: the cancel goes when the seconds are up.
    await page.getByTestId(`order-cancel-${orderId}`).click();
    await expect.poll(() => page.getByTestId(`order-undo-${orderId}`).textContent()).toMatch(/^Undo \([1-5]\)$/);
    expect(cancelCalls).toEqual([]);
    await expect.poll(() => row.count()).toBe(0);
    expect(cancelCalls).toEqual(['POST']);
    await expect.poll(() => bidRowsAt(page, tenDollarLevel(moved))).toBe(0);
  });

  it('places a market order and sees the fill, the trade, the balance and a notification', async () => {
    const page = await browser.newContext();
    const { identity, session } = await fundedTrader();
    await signIn(page, identity, '/trade?pair=BTC/USD');
    await waitForBook(page);
    const usdBefore = await balance(session.token, 'USD');

    await page.getByTestId('order-side-buy').click();
    await page.getByTestId('order-type-market').click();
    await page.getByTestId('order-amount').fill(AMOUNT);
    await page.getByTestId('order-submit').click();

    await page.getByTestId('orders-tab-trades').click();
    await expect.poll(() => page.getByTestId('trade-history-row').count()).toBe(1);
    await expect
      .poll(async () => eq(decimal((await balance(session.token, 'BTC'))?.available ?? '0'), decimal(AMOUNT)))
      .toBe(true);
    expect((await balance(session.token, 'USD'))?.available).not.toBe(usdBefore?.available);
    // The sell side of the form now offers the bought BTC.
    await page.getByTestId('order-side-sell').click();
    await expect.poll(() => page.getByTestId('order-available').textContent()).toContain('0.001');
    // The order notification arrives live (the deposit's is there already): 'Order filled'.
    await page.getByTestId('notifications-bell').click();
    await expect.poll(() => page.getByTestId('notification-item').filter({ hasText: 'Order filled' }).count()).toBe(1);
  });

  it('places stop-limit, stop-loss and OCO orders, modifies one and cancels them all from the screen', async () => {
    const page = await browser.newContext();
    const { identity, session } = await fundedTrader();
    await signIn(page, identity, '/trade?pair=BTC/USD');
    await waitForBook(page);
    const stats = await bookStats();
    if (!stats.best_ask || !stats.best_bid) throw new Error('no BTC_USD book');
    const at = (reference: string, factor: string) =>
      formatDecimal(mulToScale(decimal(reference), decimal(factor), 2, 'floor'));
    const place = async (type: string, fields: Record<string, string>) => {
      // The last order's toasts (top right, spec §2.3) sit over the form's top row for 2 s, and a
      // pointer resting on a toast holds it there: click the type once they have gone.
      const toasts = page.locator('[data-rht-toaster] [role="status"]');
      await expect.poll(() => toasts.count(), { timeout: 15_000 }).toBe(0);
      await page.getByTestId(`order-type-${type}`).click();
      for (const [field, value] of Object.entries(fields)) await page.getByTestId(field).fill(value);
      await page.getByTestId('order-amount').fill(AMOUNT);
      await page.getByTestId('order-submit').click();
    };
    const rows = page.getByTestId('open-order-row');
    await page.getByTestId('order-side-buy').click();
    // Buy stops wait above the market; the OCO's limit leg waits below it.
    await place('stop_limit', {
      'order-stop-price': at(stats.best_ask, '1.03'),
      'order-price': at(stats.best_ask, '1.04'),
    });
    await expect.poll(() => rows.count()).toBe(1);
    await place('stop_loss', { 'order-stop-price': at(stats.best_ask, '1.03') });
    await expect.poll(() => rows.count()).toBe(2);
    await place('oco', {
      'order-price': at(stats.best_bid, '0.97'),
      'order-stop-price': at(stats.best_ask, '1.03'),
      'order-stop-limit-price': at(stats.best_ask, '1.04'),
    });
    await expect.poll(() => rows.count()).toBe(3);
    const orders = await call<{ orders: { id: string; type: string; price: string | null }[] }>(
      'GET',
      `/v1/accounts/${session.account_id}/orders?status=open`,
      undefined,
      session.token,
    );
    expect(orders.orders.map((order) => order.type).sort()).toEqual(['oco', 'stop_limit', 'stop_loss']);

    // Modify the stop-limit's limit price from its row.
    const stopLimit = orders.orders.find((order) => order.type === 'stop_limit')!;
    const newPrice = at(stats.best_ask, '1.05');
    await page.getByTestId(`order-modify-${stopLimit.id}`).click();
    await page.getByTestId('order-modify-price').fill(newPrice);
    await page.getByTestId('order-modify-save').click();
    await expect
      .poll(
        async () =>
          (await call<{ price: string }>('GET', `/v1/orders/${stopLimit.id}`, undefined, session.token)).price,
      )
      .toBe(newPrice);

    await page.getByTestId('orders-cancel-all').click();
    await page.getByTestId('orders-cancel-all-confirm').click();
    await expect.poll(() => rows.count()).toBe(0);
    await expect.poll(async () => isZero(decimal((await balance(session.token, 'USD'))?.locked ?? '1'))).toBe(true);
  });

  it('opens the right form from a deep link', async () => {
    const page = await browser.newContext();
    await page.goto('/trade?pair=ETH/USD&action=sell');
    await expect.poll(() => page.getByTestId('trade-pair-symbol').textContent()).toContain('ETH/USD');
    await expect.poll(() => page.getByTestId('order-side-sell').getAttribute('aria-pressed')).toBe('true');
    await waitForBook(page);
  });

  it('checks the order form before sending anything', async () => {
    const page = await browser.newContext();
    const { identity } = await fundedTrader();
    await signIn(page, identity, '/trade?pair=BTC/USD');
    let orderCalls = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/orders') orderCalls++;
    });
    await page.getByTestId('order-type-limit').click();
    await page.getByTestId('order-submit').click();
    await expect.poll(() => page.getByTestId('order-error').textContent()).toBe('Please fill all required fields');
    await page.getByTestId('order-price').fill('100');
    await page.getByTestId('order-amount').fill('-1');
    await page.getByTestId('order-submit').click();
    await expect.poll(() => page.getByTestId('order-error').textContent()).toBe('Invalid amount');
    await page.getByTestId('order-amount').fill(AMOUNT);
    await page.getByTestId('order-price').fill('1.234');
    await page.getByTestId('order-submit').click();
    await expect.poll(() => page.getByTestId('order-error').textContent()).toBe('Invalid price');
    expect(orderCalls).toBe(0);
  });

  it('keeps screenshots of the trade page in both themes on desktop and phone', async () => {
    const page = await browser.newContext();
    const { identity } = await fundedTrader();
    await signIn(page, identity);
    fs.mkdirSync(artifactsDir, { recursive: true });
    for (const theme of ['darkMode', 'brightLight']) {
      await page.getByTestId('theme-select').selectOption(theme);
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto('/trade?pair=BTC/USD');
        await page.getByTestId('price-chart').waitFor();
        if (width < 600) {
          // On a phone the chart, the book and the trades share one place, behind tabs.
          await page.getByTestId('trade-tab-book').click();
          await waitForBook(page);
          await page.getByTestId('trade-tab-chart').click();
        } else {
          await waitForBook(page);
        }
        const file = path.join(artifactsDir, `trade-${theme}-${width}x${height}.png`);
        await page.screenshot({ path: file });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
      }
    }
  });

  it('draws the Spot / Futures switch the same on both pages: the page wide on a phone, as wide as its labels on a desktop', async () => {
    const page = await browser.newContext({ viewport: { width: 390, height: 844 } });
    /** The switch's width against the page's content width, with the page's own rules loaded. */
    const share = async () => {
      const sizes = await page.evaluate(() => {
        const width = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().width ?? 0;
        return { switch: width('[data-testid="market-kind-switch"]'), page: width('.trade-page') };
      });
      return Math.round((sizes.switch / sizes.page) * 100);
    };
    // The futures page first, so its styles are loaded when the spot page is drawn.
    await page.goto('/trade/futures/BTC_USD_PERP');
    await page.getByTestId('futures-page').waitFor();
    expect(await share()).toBe(100);
    await page.getByTestId('market-kind-spot').click();
    await page.getByTestId('trade-page').waitFor();
    expect(await share()).toBe(100);
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await share()).toBeLessThan(30);
    await page.getByTestId('market-kind-futures').click();
    await page.getByTestId('futures-page').waitFor();
    expect(await share()).toBeLessThan(30);
  });
});
