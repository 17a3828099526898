import type { TradingPair } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';

function tradingPair(base: string, quote: string, price: string): TradingPair {
  return {
    id: `${base}_${quote}`,
    base_currency: base,
    quote_currency: quote,
    symbol: `${base}/${quote}`,
    min_trade_amount: '0.0001',
    max_trade_amount: '1000',
    price_precision: 2,
    quantity_precision: 4,
    trading_fee: '0.1',
    maker_fee: '0.1',
    taker_fee: '0.1',
    is_active: true,
    is_enabled_by_admin: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    supported_by_provider: false,
    current_price: price,
    volume_24h: '10',
    change_24h: '-1.25',
  };
}

const pairs = [
  tradingPair('BTC', 'USD', '67000.00'),
  tradingPair('ETH', 'USD', '3400.00'),
  tradingPair('USDT', 'USD', '1.00'),
  tradingPair('SOL', 'USD', '150.00'),
  tradingPair('ETH', 'BTC', '0.05'),
];

function stubMarket() {
  return stubFetch({ 'GET /v1/trading-pairs': () => json(200, pairs) });
}

/** The route module loads lazily; its first import in a run takes a while. */
const LAZY = { timeout: 5000 };

const search = (router: ReturnType<typeof renderApp>['router']) => router.state.location.search;

describe('trade page route state (spec §2.1, §2.3)', () => {
  it('reads BTC_USD in any case, rewrites the address as BTC/USD and selects the carried side', async () => {
    stubMarket();
    const { router } = renderApp('/trade?pair=eth_usd&action=sell');
    expect(await screen.findByTestId('trade-pair-symbol', {}, LAZY)).toHaveTextContent('ETH/USD');
    await waitFor(() => expect(search(router)).toBe('?pair=ETH/USD&action=sell'));
    expect(await screen.findByTestId('order-side-sell')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('trade-last-price')).toHaveTextContent('$3,400.00');
    await waitFor(() => expect(useAppStore.getState().selectedTradingPair).toBe('ETH/USD'));
  });

  it('falls back to the remembered pair for an unknown pair', async () => {
    stubMarket();
    useAppStore.getState().setSelectedTradingPair('SOL/USD');
    const first = renderApp('/trade?pair=NOPE/USD');
    await waitFor(() => expect(search(first.router)).toBe('?pair=SOL/USD'), LAZY);
    expect(screen.getByTestId('trade-pair-symbol')).toHaveTextContent('SOL/USD');
  });

  it('shows BTC/USD when neither the address nor the memory names a known pair', async () => {
    stubMarket();
    useAppStore.getState().setSelectedTradingPair('XRP/EUR');
    const { router } = renderApp('/trade?pair=%3Cscript%3E');
    await waitFor(() => expect(search(router)).toBe('?pair=BTC/USD'), LAZY);
  });
});

describe('pair selector (spec §2.6)', () => {
  it('searches, moves with the arrows, picks with Enter and replaces the address', async () => {
    stubMarket();
    const { router, user } = renderApp('/trade?pair=BTC/USD');
    await user.click(await screen.findByTestId('pair-selector-button', {}, LAZY));
    const searchBox = screen.getByTestId('pair-selector-search');
    expect(searchBox).toHaveFocus();
    // 'eth' is the start of ETH before it is inside "Tether".
    await user.keyboard('eth');
    const panel = screen.getByTestId('pair-selector-panel');
    const options = () =>
      within(panel)
        .getAllByRole('button')
        .filter((button) => button.dataset.pairOption !== undefined);
    expect(options().map((option) => option.dataset.testid)).toEqual(['pair-option-ETH_USD', 'pair-option-USDT_USD']);
    await user.keyboard('{ArrowDown}');
    expect(screen.getByTestId('pair-option-ETH_USD')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    await waitFor(() => expect(search(router)).toBe('?pair=ETH/USD'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.queryByTestId('pair-selector-panel')).not.toBeInTheDocument();
    expect(screen.getByTestId('pair-selector-button')).toHaveFocus();
  });

  it('has quote tabs from the pairs, closes with Escape, and keeps favourites', async () => {
    stubMarket();
    const { user } = renderApp('/trade?pair=BTC/USD');
    await user.click(await screen.findByTestId('pair-selector-button', {}, LAZY));
    const tabs = screen.getByTestId('pair-selector-panel').querySelectorAll('[data-testid^="pair-selector-tab-"]');
    expect(Array.from(tabs, (tab) => tab.textContent)).toEqual(['Favourites', 'USD', 'BTC']);
    expect(screen.getByTestId('pair-selector-tab-USD')).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('pair-selector-tab-BTC'));
    expect(screen.getByTestId('pair-option-ETH_BTC')).toBeInTheDocument();
    expect(screen.queryByTestId('pair-option-ETH_USD')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('favourite-ETH_BTC'));
    await user.click(screen.getByTestId('pair-selector-tab-favourites'));
    expect(
      within(screen.getByTestId('pair-selector-panel'))
        .getAllByRole('button')
        .filter((button) => button.dataset.pairOption !== undefined)
        .map((option) => option.dataset.testid),
    ).toEqual(['pair-option-ETH_BTC']);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('pair-selector-panel')).not.toBeInTheDocument();
    expect(screen.getByTestId('pair-selector-button')).toHaveFocus();
  });
});
