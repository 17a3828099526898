import AxeBuilder from '@axe-core/playwright';
import { type ThemeId, themeIds } from '@platform/contracts';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { call, fundByCheckout, registerByApi } from './api.ts';

/** The eight themes, in the order the theme menu lists them (contracts owns the list). */
export const THEMES = themeIds;
export type ThemeName = ThemeId;

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules axe-core tags with these. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Rules outside those tags that the checks add: a control's accessible name holds its visible label
 * (WCAG 2.5.3; experimental in axe-core) and landmarks are unique (best practice, for 1.3.1/2.4.1).
 */
const EXTRA_RULES = {
  'label-content-name-mismatch': { enabled: true },
  'landmark-unique': { enabled: true },
  'landmark-no-duplicate-banner': { enabled: true },
  'landmark-no-duplicate-contentinfo': { enabled: true },
  'landmark-no-duplicate-main': { enabled: true },
  'landmark-main-is-top-level': { enabled: true },
  'landmark-banner-is-top-level': { enabled: true },
  'landmark-contentinfo-is-top-level': { enabled: true },
  'landmark-complementary-is-top-level': { enabled: true },
};
/** These fail whatever impact axe-core gives them. */
const ALWAYS_FAIL = new Set(Object.keys(EXTRA_RULES));

export interface Finding {
  route: string;
  theme: string;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/**
 * Waits (at most 3 s) for the page's finite animations and transitions to end: a dialog audited while
 * it fades in has its text half transparent, which axe-core reads as near-white on white. Endless
 * ones (a live dot's pulse, a spinner) are not waited for.
 */
async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => {
    const finite = document
      .getAnimations()
      .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)));
    const ended = Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    return Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
  });
}

/** Runs axe-core on the page as it stands (its animations ended); returns the serious and critical findings. */
export async function audit(page: Page, route: string, theme: string, include?: string): Promise<Finding[]> {
  const started = Date.now();
  await animationsDone(page);
  let builder = new AxeBuilder({ page }).options({ runOnly: { type: 'tag', values: WCAG_TAGS }, rules: EXTRA_RULES });
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  if (process.env.A11Y_DEBUG) console.log(`${route} [${theme}] audited in ${Date.now() - started} ms`);
  return result.violations
    .filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS_FAIL.has(violation.id),
    )
    .flatMap((violation) =>
      violation.nodes.map((node) => ({
        route,
        theme,
        rule: violation.id,
        impact: violation.impact ?? '',
        target: node.target.join(' '),
        summary: (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').slice(0, 300),
      })),
    );
}

export function report(findings: readonly Finding[]): string {
  return findings
    .map((item) => `${item.route} [${item.theme}] ${item.rule} (${item.impact}) ${item.target}\n    ${item.summary}`)
    .join('\n');
}

/** Stores the theme before the app's first script runs (the persisted state the theme menu writes). */
export async function presetTheme(page: Page, theme: ThemeName): Promise<void> {
  await page.addInitScript((id) => {
    if (sessionStorage.getItem('a11y-theme-set')) return;
    sessionStorage.setItem('a11y-theme-set', '1');
    localStorage.setItem('meridian-state', JSON.stringify({ state: { theme: id }, version: 1 }));
  }, theme);
}

/** Moves to a path inside the running app (the router follows history), without a page load. */
export async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const pathname = new URL(path, 'http://x').pathname;
  await expect.poll(() => page.evaluate(() => window.location.pathname)).toBe(pathname);
  await settle(page);
}

/** Waits until the route's chunk has rendered and nothing is loading any more. */
export async function settle(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            document.querySelector('main') !== null &&
            document.querySelector('.page-loader, [aria-busy="true"], .spinner') === null,
        ),
      { timeout: 15_000 },
    )
    .toBe(true)
    .catch(() => undefined);
  await page.waitForTimeout(250);
}

export async function signInThroughModal(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** A buy price 7% under the last BTC/USD price: inside the price band, far from any fill. */
async function restingBid(): Promise<string> {
  const ticker = await call<Record<string, unknown>>('GET', '/v1/ticker/BTC_USD');
  const last = String(ticker.last_price ?? ticker.price ?? ticker.last ?? '');
  const whole = last.split('.')[0] ?? '';
  if (!/^\d+$/.test(whole)) throw new Error(`no BTC/USD price in ${JSON.stringify(ticker)}`);
  return String((BigInt(whole) * 93n) / 100n);
}

/**
 * A funded account with something on every screen: USD and BTC balances (a market buy), an open
 * limit order far below the market, and a futures position (a transfer, then a small market long).
 */
export async function fundedTrader() {
  const { identity, session } = await registerByApi();
  await fundByCheckout(session, 'usd', '5000');
  await call(
    'POST',
    '/v1/orders',
    { trading_pair: 'BTC_USD', side: 'buy', type: 'market', quote_amount: '200' },
    session.token,
  );
  await call(
    'POST',
    '/v1/orders',
    { trading_pair: 'BTC_USD', side: 'buy', type: 'limit', price: await restingBid(), quantity: '0.001' },
    session.token,
  );
  await call('POST', '/v1/futures/transfers', { direction: 'to_futures', amount: '300' }, session.token);
  await call(
    'POST',
    '/v1/futures/orders',
    { market: 'BTC_USD_PERP', side: 'buy', type: 'market', quantity: '0.01' },
    session.token,
  );
  return { identity, session };
}
