import { PREFERENCES_STORAGE_KEY } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePreferences } from '../../state/preferences-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeMarket, signIn } from '../futures/futures-test-fixtures.ts';
import { emptySummary, makeSummary } from './portfolio-test-fixtures.ts';

const LAZY = { timeout: 5000 };

function stub(summary: unknown | (() => Response) = makeSummary()) {
  signIn();
  return stubFetch({
    'GET /v1/portfolio': typeof summary === 'function' ? (summary as () => Response) : () => json(200, summary),
    'GET /v1/futures/markets': () => json(200, { markets: [makeMarket()] }),
    'GET /v1/trading-pairs': () => json(200, []),
  });
}

const rowAssets = () =>
  within(screen.getByTestId('portfolio-holdings-table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.getAttribute('data-testid')?.replace('portfolio-holding-', ''));

describe('/portfolio', () => {
  it('shows the total, the 24 h change and the parts apart, each at its precision', async () => {
    stub();
    renderApp('/portfolio');
    expect(await screen.findByTestId('portfolio-total', {}, LAZY)).toHaveTextContent('$10,585.41');
    const change = screen.getByTestId('portfolio-change');
    expect(change).toHaveTextContent('+$185.31 (+1.78%)');
    expect(change).toHaveClass('up');
    expect(screen.getByTestId('portfolio-locked')).toHaveTextContent('$1,202.47');
    expect(screen.getByTestId('portfolio-futures-equity')).toHaveTextContent('$1,115.00');
  });

  it('lists the holdings with amount, price, value, change and share, and links per row', async () => {
    stub();
    renderApp('/portfolio');
    await screen.findByTestId('portfolio-holding-BTC', {}, LAZY);
    expect(screen.getByTestId('portfolio-holding-BTC-amount')).toHaveTextContent('0.12345678');
    expect(screen.getByTestId('portfolio-holding-BTC-locked')).toHaveTextContent('0.02 in orders');
    expect(screen.getByTestId('portfolio-holding-BTC-price')).toHaveTextContent('$60,123.45');
    expect(screen.getByTestId('portfolio-holding-BTC-value')).toHaveTextContent('$7,422.41');
    expect(screen.getByTestId('portfolio-holding-BTC-change')).toHaveTextContent('+1.90%');
    expect(screen.getByTestId('portfolio-holding-BTC-share')).toHaveTextContent('70.12%');
    expect(screen.getByTestId('portfolio-holding-ETH-change')).toHaveTextContent('-3.45%');
    expect(screen.getByTestId('portfolio-holding-ETH-change')).toHaveClass('down');
    expect(screen.getByTestId('portfolio-holding-USD-amount')).toHaveTextContent('985.50');
    expect(screen.getByTestId('portfolio-holding-DOGE-price')).toHaveTextContent('$0.1190476');
    expect(screen.getByTestId('portfolio-holding-BTC-trade')).toHaveAttribute('href', '/trade?pair=BTC%2FUSD');
    expect(screen.getByTestId('portfolio-holding-BTC-deposit')).toHaveAttribute(
      'href',
      '/wallet?action=deposit&currency=BTC',
    );
    expect(screen.getByTestId('portfolio-holding-BTC-withdraw')).toHaveAttribute(
      'href',
      '/wallet?action=withdraw&currency=BTC',
    );
    expect(screen.queryByTestId('portfolio-holding-USD-trade')).not.toBeInTheDocument();
  });

  it('shows each holding average cost and unrealised P&L in USD and %, green or red, and sorts by them', async () => {
    stub();
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-holding-BTC', {}, LAZY);
    expect(screen.getByTestId('portfolio-holding-BTC-avg-cost')).toHaveTextContent('$55,000.5');
    const btcPnl = screen.getByTestId('portfolio-holding-BTC-pnl');
    expect(btcPnl).toHaveTextContent('+$632.23');
    expect(btcPnl).toHaveClass('up');
    expect(screen.getByTestId('portfolio-holding-BTC-pnl-percent')).toHaveTextContent('+9.31%');
    const ethPnl = screen.getByTestId('portfolio-holding-ETH-pnl');
    expect(ethPnl).toHaveTextContent('-$138.00');
    expect(ethPnl).toHaveClass('down');
    expect(screen.getByTestId('portfolio-holding-ETH-pnl-percent')).toHaveTextContent('-11.50%');
    // USD has no cost basis: a dash, no colour, no percent.
    expect(screen.getByTestId('portfolio-holding-USD-avg-cost')).toHaveTextContent('—');
    expect(screen.getByTestId('portfolio-holding-USD-pnl')).toHaveTextContent('—');
    expect(screen.queryByTestId('portfolio-holding-USD-pnl-percent')).not.toBeInTheDocument();
    // Labelled for the phone card layout.
    expect(btcPnl).toHaveAttribute('data-label', 'Unrealised P&L');
    await user.click(screen.getByTestId('portfolio-sort-pnl'));
    expect(rowAssets()).toEqual(['BTC', 'DOGE', 'ETH', 'USD']);
    expect(screen.getByTestId('portfolio-sort-pnl').closest('th')).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByTestId('portfolio-sort-avgCost'));
    expect(rowAssets()).toEqual(['BTC', 'ETH', 'DOGE', 'USD']);
  });

  it('stores the cost method chosen in the holdings header and reads the portfolio again', async () => {
    signIn();
    const { calls } = stubFetch({
      'GET /v1/portfolio': [() => json(200, makeSummary()), () => json(200, makeSummary({ method: 'hifo' }))],
      'PUT /v1/portfolio/settings': () => json(200, { lot_method: 'hifo' }),
      'GET /v1/futures/markets': () => json(200, { markets: [makeMarket()] }),
      'GET /v1/trading-pairs': () => json(200, []),
    });
    const { user } = renderApp('/portfolio');
    const select = await screen.findByTestId('portfolio-lot-method', {}, LAZY);
    expect(select).toHaveValue('fifo');
    expect(screen.getByTestId('portfolio-lot-method-hint')).toHaveTextContent('oldest coins first');
    await user.selectOptions(select, 'hifo');
    await waitFor(() => expect(calls.filter((call) => call.path === '/v1/portfolio')).toHaveLength(2));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ lot_method: 'hifo' });
    await waitFor(() => expect(screen.getByTestId('portfolio-lot-method')).toHaveValue('hifo'));
    // "Saving…" until the stored choice and the summary read again have both settled.
    await waitFor(() =>
      expect(screen.getByTestId('portfolio-lot-method-hint')).toHaveTextContent('most expensive coins first'),
    );
  });

  it('sorts by a column on a click, says so with aria-sort, and reverses on a second click', async () => {
    stub();
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-holdings-table', {}, LAZY);
    expect(rowAssets()).toEqual(['BTC', 'ETH', 'USD', 'DOGE']);
    const valueHeader = screen.getByTestId('portfolio-sort-value').closest('th');
    expect(valueHeader).toHaveAttribute('aria-sort', 'descending');
    await user.click(screen.getByTestId('portfolio-sort-change'));
    expect(rowAssets()).toEqual(['BTC', 'USD', 'DOGE', 'ETH']);
    expect(screen.getByTestId('portfolio-sort-change').closest('th')).toHaveAttribute('aria-sort', 'descending');
    expect(valueHeader).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByTestId('portfolio-sort-change'));
    expect(rowAssets()).toEqual(['ETH', 'DOGE', 'USD', 'BTC']);
    await user.click(screen.getByTestId('portfolio-sort-asset'));
    expect(rowAssets()).toEqual(['BTC', 'DOGE', 'ETH', 'USD']);
    expect(screen.getByTestId('portfolio-sort-asset').closest('th')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('hides balances under 1 USD when asked, and keeps the choice in the preferences', async () => {
    stub();
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-holdings-table', {}, LAZY);
    expect(rowAssets()).toContain('DOGE');
    await user.click(screen.getByTestId('portfolio-hide-small'));
    expect(rowAssets()).toEqual(['BTC', 'ETH', 'USD']);
    expect(usePreferences.getState().hideSmallBalances).toBe(true);
    expect(JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? '{}').state.hideSmallBalances).toBe(true);
    await user.click(screen.getByTestId('portfolio-hide-small'));
    expect(rowAssets()).toContain('DOGE');
  });

  it('draws the donut with a summary for screen readers and a legend list, by asset and by product', async () => {
    stub();
    const { user } = renderApp('/portfolio');
    const donut = await screen.findByTestId('portfolio-donut', {}, LAZY);
    expect(donut).toHaveAttribute('role', 'img');
    expect(donut.getAttribute('aria-label')).toBe(
      'Allocation By asset: BTC 70.12%, USD 19.84%, ETH 10.03%, DOGE 0.01%',
    );
    const legend = screen.getByTestId('portfolio-legend');
    expect(legend.tagName).toBe('UL');
    expect(within(legend).getByTestId('portfolio-legend-BTC')).toHaveTextContent('BTC70.12%$7,422.41');
    await user.click(screen.getByTestId('portfolio-allocation-product'));
    expect(screen.getByTestId('portfolio-legend-spot')).toHaveTextContent('Spot89.47%$9,470.41');
    expect(screen.getByTestId('portfolio-legend-futures')).toHaveTextContent('Futures10.53%$1,115.00');
    expect(screen.getByTestId('portfolio-donut').querySelectorAll('[data-slice]')).toHaveLength(2);
  });

  it('shows the open futures positions with their risk and a link to the futures screen', async () => {
    stub();
    renderApp('/portfolio');
    const row = await screen.findByTestId('portfolio-position-BTC_USD_PERP', {}, LAZY);
    expect(row).toHaveTextContent('Long');
    expect(screen.getByTestId('portfolio-position-BTC_USD_PERP-liquidation')).toHaveTextContent('48,012.5');
    expect(screen.getByTestId('portfolio-position-BTC_USD_PERP-distance')).toHaveTextContent('19.97%');
    expect(screen.getByTestId('portfolio-position-BTC_USD_PERP-ratio')).toHaveTextContent('4.12%');
    expect(screen.getByTestId('portfolio-position-BTC_USD_PERP-pnl')).toHaveTextContent('+$15.00');
    expect(screen.getByTestId('portfolio-position-BTC_USD_PERP-link')).toHaveAttribute(
      'href',
      '/trade/futures/BTC_USD_PERP',
    );
  });

  it('greets a new account with Deposit and Trade instead of zeros', async () => {
    stub(emptySummary());
    renderApp('/portfolio');
    const empty = await screen.findByTestId('portfolio-empty', {}, LAZY);
    expect(empty).toHaveTextContent('Your portfolio is empty');
    expect(screen.getByTestId('portfolio-empty-deposit')).toHaveAttribute('href', '/wallet?action=deposit');
    expect(screen.getByTestId('portfolio-empty-trade')).toHaveAttribute('href', '/trade?pair=BTC%2FUSD');
    expect(screen.queryByTestId('portfolio-total')).not.toBeInTheDocument();
  });

  it('says when the portfolio cannot be read, and reads again on retry', async () => {
    let calls = 0;
    stub(() => {
      calls += 1;
      return calls <= 2 ? errorResponse(500, 'INTERNAL_ERROR', 'boom') : json(200, makeSummary());
    });
    const { user } = renderApp('/portfolio');
    const failed = await screen.findByTestId('portfolio-error', {}, { timeout: 8000 });
    await user.click(within(failed).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('portfolio-total')).toHaveTextContent('$10,585.41'));
  });
});
