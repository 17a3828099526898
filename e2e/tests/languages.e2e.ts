import fs from 'node:fs';
import path from 'node:path';
import { languageCodes } from '@platform/contracts';
import { decimal, formatDecimal, mulToScale } from '@platform/money';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, registerByApi } from '../support/api.ts';
import { artifactsDir, useBrowser } from '../support/browser.ts';
import { forbiddenEnglish, text } from '../support/i18n-texts.ts';
import { TRADER_ROUTES } from '../support/routes.ts';

type Session = Awaited<ReturnType<typeof registerByApi>>;

/** Opens the app with a saved language (spec §9: the saved choice wins over the browser). */
async function openIn(page: Page, code: string, url = '/') {
  // Only on the first load: later loads keep what the app saved (the session among it).
  await page.addInitScript((language) => {
    if (localStorage.getItem('meridian-state') === null) {
      localStorage.setItem('meridian-state', JSON.stringify({ state: { language }, version: 1 }));
    }
  }, code);
  await page.goto(url);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(code);
}

async function signIn(page: Page, { identity }: Session) {
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

async function fundedTrader(): Promise<Session> {
  const session = await registerByApi();
  await fundByCheckout(session.session, 'usd', '5000');
  return session;
}

async function waitForBook(page: Page) {
  await expect.poll(() => page.getByTestId('order-book-bids').getByTestId('order-book-row').count()).toBeGreaterThan(0);
}

/** Place, modify and cancel a BTC/USD limit order, checking the texts are the language's own. */
async function tradeFlow(page: Page, code: string) {
  await page.goto('/trade?pair=BTC/USD');
  await waitForBook(page);
  const stats = await call<{ best_bid: string | null }>('GET', '/v1/orderbook/BTC_USD/stats');
  if (!stats.best_bid) throw new Error('no bid in the BTC_USD book');
  const price = formatDecimal(mulToScale(decimal(stats.best_bid), decimal('0.99'), 2, 'floor'));
  await page.getByTestId('order-side-buy').click();
  await page.getByTestId('order-type-limit').click();
  await expect
    .poll(() => page.getByTestId('order-submit').textContent())
    .toBe(text(code, 'trade.form.submitBuy', { currency: 'BTC' }));
  await page.getByTestId('order-price').fill(price);
  await page.getByTestId('order-amount').fill('0.001');
  await page.getByTestId('order-submit').click();
  const row = page.getByTestId('open-order-row');
  await expect.poll(() => row.count()).toBe(1);
  const orderId = await row.first().getAttribute('data-order-id');

  const moved = formatDecimal(mulToScale(decimal(stats.best_bid), decimal('0.985'), 2, 'floor'));
  await expect
    .poll(() => page.getByTestId(`order-modify-${orderId}`).textContent())
    .toBe(text(code, 'history.open.modify'));
  await page.getByTestId(`order-modify-${orderId}`).click();
  await page.getByTestId('order-modify-price').fill(moved);
  await page.getByTestId('order-modify-save').click();
  await expect.poll(() => row.first().textContent()).toContain(localPrice(moved, code));

  await page.getByTestId(`order-cancel-${orderId}`).click();
  const undo = text(code, 'history.open.undo', { seconds: 'N' });
  const [before = '', after = ''] = undo.split('N');
  await expect
    .poll(() => page.getByTestId(`order-undo-${orderId}`).textContent())
    .toMatch(new RegExp(`^${escapeRegExp(before)}[1-5]${escapeRegExp(after)}$`));
  await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
}

/** '65918.4' as the tables show it in a language: grouped, two decimals, the language's separators. */
function localPrice(price: string, code: string): string {
  const parts = new Intl.NumberFormat(code === 'ar' ? 'ar-u-nu-latn' : code).formatToParts(1234567.5);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const point = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const [whole = '', cents = '00'] = price.split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${point}${cents.padEnd(2, '0')}`;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Deposit through the sandbox checkout and see the balance arrive, in the wallet's language. */
async function walletFlow(page: Page, code: string) {
  await page.goto('/wallet?action=deposit');
  await expect.poll(() => page.getByTestId('deposit-address-panel').isVisible()).toBe(true);
  await page.getByTestId('deposit-currency').click();
  await page.getByTestId('deposit-currency-search').fill('USDT');
  await page.getByTestId('deposit-currency-option-USDT').click();
  await page.getByTestId('deposit-method-checkout').click();
  await page.getByTestId('deposit-amount').fill('250');
  await page.getByTestId('deposit-checkout-submit').click();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\//);
  // The provider's hosted page is theirs (English in the sandbox); back on ours, the language holds.
  await page.getByRole('button', { name: 'Pay 250 USDT' }).click();
  await expect.poll(() => page.getByTestId('deposit-checkout-return').isVisible()).toBe(true);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(code);
  await expect
    .poll(() => page.getByTestId('wallet-balance-USDT').textContent(), { timeout: 20_000 })
    .toMatch(/250[.,]00/);
}

describe('trading and the wallet in German and in Arabic (right to left)', () => {
  const browser = useBrowser();

  for (const code of ['de', 'ar']) {
    it(`${code}: places, modifies and cancels a limit order, then deposits`, async () => {
      const page = await browser.newContext();
      const trader = await fundedTrader();
      await openIn(page, code);
      await signIn(page, trader);
      await tradeFlow(page, code);
      await walletFlow(page, code);
    });
  }

  it('ar: the layout is mirrored, figures and charts are not', async () => {
    const page = await browser.newContext();
    const trader = await fundedTrader();
    await openIn(page, 'ar', '/trade?pair=BTC/USD');
    await signIn(page, trader);
    await waitForBook(page);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const sidebar = await page.getByTestId('sidebar').boundingBox();
    const width = page.viewportSize()?.width ?? 1440;
    expect(sidebar && sidebar.x + sidebar.width / 2).toBeGreaterThan(width / 2);
    const bookCell = page.getByTestId('order-book-bids').getByTestId('order-book-row').first().locator('.ob-price');
    expect(await bookCell.evaluate((cell) => getComputedStyle(cell).getPropertyValue('unicode-bidi'))).toBe('isolate');
    const figure = page.locator('span.tabular').first();
    expect(await figure.evaluate((cell) => getComputedStyle(cell).getPropertyValue('direction'))).toBe('ltr');
    const chartDirection = await page
      .locator('.pc-body')
      .evaluate((chart) => getComputedStyle(chart).getPropertyValue('direction'));
    expect(chartDirection).toBe('ltr');
  });
});

/** Visible text nodes and the labels a screen reader reads (aria-label, placeholder, title, alt). */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, [lang="en"]')) continue;
      const value = node.textContent?.trim();
      if (value) found.push(value);
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      if (element.closest('[lang="en"]')) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
}

async function navigate(page: Page, url: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  // The router keeps the last screen while the next one's code and texts load (a progress bar shows).
  await page.waitForTimeout(150);
  await expect.poll(() => page.locator('.route-progress, .page-loader').count(), { timeout: 15_000 }).toBe(0);
  await page.waitForTimeout(300);
}

describe('no English left in any language', () => {
  const browser = useBrowser();

  // One signed-in page switches through the languages with the top-bar selector, as a user would:
  // each switch loads that language's texts without reloading the page.
  it('every main route, in each of the 21 other languages', { timeout: 900_000 }, async () => {
    const page = await browser.newContext();
    const trader = await fundedTrader();
    await openIn(page, 'en');
    await signIn(page, trader);
    // The sign-in's toast was written in English; it goes before the languages change.
    await expect.poll(() => page.getByText(text('en', 'success.loginSuccessful')).count(), { timeout: 15_000 }).toBe(0);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const leftovers: string[] = [];
    for (const code of languageCodes.filter((language) => language !== 'en')) {
      await page.getByTestId('language-select').selectOption(code);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(code);
      const forbidden = forbiddenEnglish(code);
      for (const route of TRADER_ROUTES) {
        await navigate(page, route);
        for (const value of await pageTexts(page))
          if (forbidden.has(value)) leftovers.push(`${code} ${route}: ${value}`);
      }
    }
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    if (leftovers.length > 0) {
      fs.mkdirSync(artifactsDir, { recursive: true });
      fs.writeFileSync(path.join(artifactsDir, 'english-left.txt'), [...new Set(leftovers)].join('\n'));
    }
    expect([...new Set(leftovers)]).toEqual([]);
  });

  // What the route scan does not open: every tab of the tabbed screens, the wallet's action panels,
  // the dialogs and the top-bar menus. One language keeps the run short (a 6-language run was clean).
  it('every tab, dialog and menu, in Polish', { timeout: 300_000 }, async () => {
    const code = 'pl';
    const page = await browser.newContext();
    const trader = await fundedTrader();
    await call('POST', '/v1/futures/transfers', { direction: 'to_futures', amount: '300' }, trader.session.token);
    const forbidden = forbiddenEnglish(code);
    const leftovers: string[] = [];
    const scan = async (where: string) => {
      for (const value of await pageTexts(page)) if (forbidden.has(value)) leftovers.push(`${where}: ${value}`);
    };
    await openIn(page, code);
    await page.getByTestId('login-button').click();
    await scan('login dialog');
    await page.getByTestId('register-link').click();
    await scan('register dialog');
    await page.keyboard.press('Escape');
    await signIn(page, trader);
    for (const route of ['/wallet', '/settings', '/orders', '/trade', '/trade/futures/BTC_USD_PERP', '/portfolio']) {
      await navigate(page, route);
      const tabs = page.locator('main [role="tab"]');
      for (let index = 0; index < (await tabs.count()); index++) {
        if (!(await tabs.nth(index).isVisible())) continue;
        await tabs.nth(index).click();
        await page.waitForTimeout(500);
        await scan(`${route} tab ${(await tabs.nth(index).textContent())?.trim()}`);
      }
    }
    for (const action of ['deposit', 'withdraw', 'buy', 'convert']) {
      await navigate(page, `/wallet?action=${action}`);
      await scan(`/wallet?action=${action}`);
    }
    const dialogs: Array<[string, string]> = [
      ['/trade/futures/BTC_USD_PERP', 'futures-leverage-button'],
      ['/trade/futures/BTC_USD_PERP', 'futures-transfer-button'],
      ['/trade', 'pair-selector-button'],
    ];
    for (const [route, opener] of dialogs) {
      await navigate(page, route);
      await page.getByTestId(opener).first().click();
      await page.waitForTimeout(400);
      await scan(`${route} ${opener}`);
      await page.keyboard.press('Escape');
    }
    for (const menu of await page.locator('header [aria-haspopup]').all()) {
      await menu.click();
      await page.waitForTimeout(400);
      await scan(`menu ${await menu.getAttribute('aria-label')}`);
      await page.keyboard.press('Escape');
    }
    expect([...new Set(leftovers)]).toEqual([]);
  });
});

/** Labels cut short: a control or heading whose text is wider than its box (an ellipsis or a clip). */
function truncatedLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const selector = 'button, a, label, th, [role="tab"], h1, h2, h3, legend, .btn';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.offsetParent === null || element.hasAttribute('title') || element.clientWidth < 4) continue;
      const style = getComputedStyle(element);
      const clips = style.textOverflow === 'ellipsis' || style.overflowX === 'hidden' || style.overflowX === 'clip';
      if (clips && element.scrollWidth > element.clientWidth + 1) found.push(element.textContent?.trim() ?? '');
    }
    return found;
  });
}

/**
 * Layout faults a screenshot shows but no text check finds: screen-reader-only text that takes a
 * place on screen, and the book's or the trades' figures out of line with their column headings
 * (each row's cells must sit under the headings, on one line, left to right or right to left).
 */
function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const hidden of document.querySelectorAll<HTMLElement>('.visually-hidden')) {
      if (getComputedStyle(hidden).position !== 'absolute') found.push(`"${hidden.textContent}" is laid out`);
    }
    const underHeadings = (name: string, headings: Element | null, row: Element | null) => {
      // Not on screen (not loaded yet, or on another tab of the phone layout): nothing to line up.
      if (headings === null || row === null || row.getBoundingClientRect().width === 0) return;
      const columns = [...headings.children].map((column) => column.getBoundingClientRect());
      const cells = [...row.children]
        .map((cell) => cell.getBoundingClientRect())
        .filter((box) => box.width > 1 && box.height > 1);
      if (cells.length !== columns.length)
        found.push(`${name}: ${cells.length} cells under ${columns.length} headings`);
      if (new Set(cells.map((box) => Math.round(box.top))).size > 1) found.push(`${name}: a row on more than one line`);
      cells.forEach((box, index) => {
        const column = columns[index];
        if (column && (Math.abs(box.left - column.left) > 1 || Math.abs(box.right - column.right) > 1)) {
          found.push(`${name}: cell ${index + 1} is not under its heading`);
        }
      });
    };
    underHeadings(
      'order book',
      document.querySelector('.ob-columns'),
      document.querySelector('[data-testid="order-book-bids"] [data-testid="order-book-row"]'),
    );
    underHeadings('recent trades', document.querySelector('.rt-columns'), document.querySelector('.rt-row'));
    return found;
  });
}

describe('Japanese and Arabic screens at 1440 and 390 px', () => {
  const browser = useBrowser();

  for (const code of ['ja', 'ar']) {
    it(`${code}: the book's and the trades' figures sit under their headings`, async () => {
      const page = await browser.newContext();
      await openIn(page, code, '/trade?pair=BTC/USD');
      await waitForBook(page);
      await expect.poll(() => page.locator('.rt-row').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await layoutFaults(page)).toEqual([]);
    });
  }

  for (const code of ['ja', 'ar']) {
    for (const width of [1440, 390]) {
      it(`${code} at ${width} px: no overflow, no truncated label`, async () => {
        const page = await browser.newContext();
        await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
        const trader = await fundedTrader();
        await openIn(page, code);
        await signIn(page, trader);
        const problems: string[] = [];
        const folder = path.join(artifactsDir, 'languages');
        fs.mkdirSync(folder, { recursive: true });
        for (const route of TRADER_ROUTES) {
          await navigate(page, route);
          const name = route.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';
          await page.screenshot({ path: path.join(folder, `${code}-${width}-${name}.png`), fullPage: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 1) problems.push(`${route}: the page is ${overflow}px wider than the screen`);
          for (const label of await truncatedLabels(page)) problems.push(`${route}: "${label}" is cut short`);
          for (const fault of await layoutFaults(page)) problems.push(`${route}: ${fault}`);
        }
        expect(problems).toEqual([]);
      });
    }
  }
});
