import { decimal, formatDecimal, toScale } from '@platform/money';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, type newIdentity, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type Identity = ReturnType<typeof newIdentity>;
type Summary = {
  total_value: string;
  holdings: { asset: string; amount: string; value: string | null; share_percent: string }[];
  allocation: { by_asset: { key: string; share_percent: string }[] };
};

async function signIn(page: Page, identity: Identity, path = '/') {
  await page.goto(path);
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

/** USD as the portfolio shows it: '$1,234.50'. */
function usd(value: string): string {
  const text = formatDecimal(toScale(decimal(value), 2, 'half_up'));
  const [whole = '', cents = ''] = text.split('.');
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

describe('portfolio: a funded account that bought BTC sees what the API says', () => {
  const browser = useBrowser();

  it('shows the total of GET /v1/portfolio, the BTC row and the allocation legend', async () => {
    const { identity, session } = await registerByApi();
    await fundByCheckout(session, 'usd', '1000');
    const bought = await call<{ status: string }>(
      'POST',
      '/v1/orders',
      { trading_pair: 'BTC_USD', side: 'buy', type: 'market', quote_amount: '100' },
      session.token,
    );
    expect(bought.status).toBe('completed');
    const summary = await call<Summary>('GET', '/v1/portfolio', undefined, session.token);
    expect(summary.holdings.map((holding) => holding.asset).sort()).toEqual(['BTC', 'USD']);

    const page = await browser.newContext();
    // Prices move while the page is open: compare the screen with the last answer the page itself read.
    let lastRead: Summary | null = null;
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname !== '/v1/portfolio' || !response.ok()) return;
      lastRead = (await response.json()) as Summary;
    });
    // Signed in on the home page, then to /portfolio through the sidebar (opened signed out, the
    // guarded page raises its own login modal over the top bar's button).
    await signIn(page, identity);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Portfolio' }).click();
    await expect.poll(() => page.url()).toContain('/portfolio');
    await expect.poll(() => page.getByTestId('portfolio-total').isVisible()).toBe(true);
    await expect
      .poll(async () => {
        const shown = await page.getByTestId('portfolio-total').textContent();
        return lastRead !== null && shown === usd((lastRead as Summary).total_value);
      })
      .toBe(true);

    const btc = page.getByTestId('portfolio-holding-BTC');
    expect(await btc.isVisible()).toBe(true);
    expect(await page.getByTestId('portfolio-holding-BTC-trade').getAttribute('href')).toBe('/trade?pair=BTC%2FUSD');
    const amount = (await page.getByTestId('portfolio-holding-BTC-amount').getAttribute('title')) ?? '';
    expect(amount).toBe(`${summary.holdings.find((holding) => holding.asset === 'BTC')?.amount} BTC`);

    const legend = page.getByTestId('portfolio-legend');
    expect(await legend.getByTestId('portfolio-legend-BTC').isVisible()).toBe(true);
    expect(await legend.getByTestId('portfolio-legend-USD').isVisible()).toBe(true);
    expect(await page.getByTestId('portfolio-donut').getAttribute('aria-label')).toMatch(/BTC \d+\.\d\d%/);
    await page.getByTestId('portfolio-allocation-product').click();
    expect(await legend.getByTestId('portfolio-legend-spot').textContent()).toContain('100.00%');
  });
});
