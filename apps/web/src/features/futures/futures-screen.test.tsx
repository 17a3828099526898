import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readStorage } from '../../lib/safe-storage.ts';
import { useAppStore } from '../../state/app-store.ts';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { LAST_FUTURES_MARKET_KEY } from '../trade/market-kind-switch.tsx';
import { futuresRoutes, signIn } from './futures-test-fixtures.ts';

const LAZY = { timeout: 5000 };
const pathOf = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname;

function stub() {
  return stubFetch({ ...futuresRoutes(), 'GET /v1/trading-pairs': () => json(200, []) });
}

describe('Spot / Futures switch and the futures address', () => {
  it('goes from spot to /trade/futures/BTC_USD_PERP and back, each page saying which it is', async () => {
    stub();
    const { router, user } = renderApp('/trade?pair=BTC/USD');
    const spotLink = await screen.findByTestId('market-kind-spot', {}, LAZY);
    expect(spotLink).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByTestId('market-kind-futures'));
    const page = await screen.findByTestId('futures-page', {}, LAZY);
    expect(pathOf(router)).toBe('/trade/futures/BTC_USD_PERP');
    expect(page).toHaveAttribute('data-market', 'BTC_USD_PERP');
    expect(screen.getByTestId('market-kind-futures')).toHaveAttribute('aria-current', 'page');
    // The header is drawn with a dash before the ticker answers; wait for the mark price itself.
    await waitFor(() => expect(screen.getByTestId('futures-mark-price')).toHaveTextContent('60,000.0'), LAZY);
    expect(screen.getByTestId('futures-market-selector')).toHaveTextContent('BTCUSD-PERP');
    // The book and the tape of the perpetual are seeded from its /v1/futures/ paths.
    expect(await within(screen.getByTestId('order-book')).findByText('59,999.9')).toBeInTheDocument();
    expect(await within(screen.getByTestId('recent-trades')).findByText('60,000.1')).toBeInTheDocument();
    await user.click(screen.getByTestId('market-kind-spot'));
    await waitFor(() => expect(pathOf(router)).toBe('/trade'));
    expect(await screen.findByTestId('trade-page', {}, LAZY)).toBeInTheDocument();
  });

  it('opens a deep link in any case at its canonical address, and the selector lists the perpetuals', async () => {
    stub();
    const { router, user } = renderApp('/trade/futures/eth_usd_perp');
    expect(await screen.findByTestId('futures-page', {}, LAZY)).toHaveAttribute('data-market', 'ETH_USD_PERP');
    await waitFor(() => expect(pathOf(router)).toBe('/trade/futures/ETH_USD_PERP'));
    await waitFor(() => expect(readStorage(LAST_FUTURES_MARKET_KEY)).toBe('ETH_USD_PERP'));
    await user.click(screen.getByTestId('futures-market-selector'));
    const list = await screen.findByTestId('futures-market-list');
    expect(within(list).getByTestId('futures-market-BTC_USD_PERP')).toHaveTextContent('BTCUSD-PERP');
    await user.click(within(list).getByTestId('futures-market-BTC_USD_PERP'));
    await waitFor(() => expect(pathOf(router)).toBe('/trade/futures/BTC_USD_PERP'));
  });

  it('shows the funding rate with a countdown, open interest and the signed-out state', async () => {
    stub();
    renderApp('/trade/futures/BTC_USD_PERP');
    const funding = await screen.findByTestId('futures-funding', {}, LAZY);
    await waitFor(() => expect(funding).toHaveTextContent('0.0100%'));
    expect(screen.getByTestId('futures-funding-countdown').textContent).toMatch(/^0?[01]:\d\d:\d\d$/);
    expect(screen.getByTestId('futures-open-interest')).toHaveTextContent('12.345');
    expect(screen.getByTestId('futures-change')).toHaveTextContent('+2.50%');
    expect(await screen.findByText('Log in to trade futures')).toBeInTheDocument();
    expect(screen.getByText('Log in to see your futures account')).toBeInTheDocument();
  });

  it('keeps the session on a 401 from a futures path', async () => {
    signIn();
    const { calls } = stubFetch({
      ...futuresRoutes(),
      'GET /v1/trading-pairs': () => json(200, []),
      'GET /v1/futures/account': () => json(401, { error: { code: 'UNAUTHORIZED', message: 'Unauthorized' } }),
    });
    renderApp('/trade/futures/BTC_USD_PERP');
    await screen.findByTestId('futures-page', {}, LAZY);
    await waitFor(() => expect(calls.some((call) => call.path === '/v1/futures/account')).toBe(true));
    expect(calls.some((call) => call.path === '/v1/auth/refresh')).toBe(false);
    expect(useAppStore.getState().accessToken).toBe('token');
  });
});
