import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

/** The page's screens load lazily, which can be slow on a busy machine. */
const SHELL_TIMEOUT = { timeout: 10_000 };

describe('top-bar balances menu (spec §2.3)', { timeout: 30_000 }, () => {
  it('shows the non-zero balances, 2 decimals and 8 for BTC', async () => {
    stubFetch({
      'GET /v1/wallet/balances': () =>
        json(200, {
          balances: [
            { currency: 'BTC', available: '0.5', locked: '0.00000001' },
            { currency: 'ETH', available: '0', locked: '0' },
            { currency: 'USDT', available: '1250.129', locked: '0' },
          ],
        }),
    });
    signIn();
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('balances-menu', {}, SHELL_TIMEOUT));
    const list = await screen.findByTestId('balances-menu-list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['BTC0.50000001Locked 0.00000001', 'USDT1,250.12']);
    expect(screen.queryByTestId('balances-menu-ETH')).not.toBeInTheDocument();
  });

  it("says 'No balances available' when every balance is zero", async () => {
    stubFetch({
      'GET /v1/wallet/balances': () => json(200, { balances: [{ currency: 'BTC', available: '0', locked: '0' }] }),
    });
    signIn();
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('balances-menu', {}, SHELL_TIMEOUT));
    expect(await screen.findByText('No balances available')).toBeInTheDocument();
  });

  it('says so when the balances cannot be loaded (§8), over placeholders marked as such (§7.8)', async () => {
    stubFetch({ 'GET /v1/wallet/balances': () => json(500, { error: { code: 'X', message: '' } }) });
    signIn();
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('balances-menu', {}, SHELL_TIMEOUT));
    expect(await screen.findByText('Failed to load wallet balances')).toHaveAttribute('role', 'alert');
    const placeholder = screen.getByTestId('balances-menu-placeholder');
    expect(placeholder).toHaveTextContent('Placeholder values, not your balances');
    expect(
      within(placeholder)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['BTC—', 'ETH—', 'USDT—']);
    expect(placeholder).toHaveTextContent('Total$12,345.67');
    expect(screen.queryByTestId('balances-menu-list')).not.toBeInTheDocument();
  });

  it('shows no placeholders while real balances are loaded', async () => {
    stubFetch({
      'GET /v1/wallet/balances': () => json(200, { balances: [{ currency: 'USDT', available: '5', locked: '0' }] }),
    });
    signIn();
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('balances-menu', {}, SHELL_TIMEOUT));
    expect(await screen.findByTestId('balances-menu-list')).toHaveTextContent('USDT5.00');
    expect(screen.queryByTestId('balances-menu-placeholder')).not.toBeInTheDocument();
  });

  it('is not there for visitors', async () => {
    renderApp('/');
    await screen.findByTestId('page-title', {}, SHELL_TIMEOUT);
    expect(screen.queryByTestId('balances-menu')).not.toBeInTheDocument();
  });
});
