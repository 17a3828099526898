import type { Order, TradingPair } from '@platform/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { OrderFormPanel, type PriceFill } from './order-form-panel.tsx';

const pair: TradingPair = {
  id: 'BTC_USD',
  base_currency: 'BTC',
  quote_currency: 'USD',
  symbol: 'BTC/USD',
  min_trade_amount: '0.00001',
  max_trade_amount: '100',
  price_precision: 2,
  quantity_precision: 5,
  trading_fee: '0.1',
  maker_fee: '0.1',
  taker_fee: '0.1',
  is_active: true,
  is_enabled_by_admin: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  supported_by_provider: false,
  current_price: '67000.00',
  volume_24h: '100',
  change_24h: '1.5',
};

const balances = { balances: [{ currency: 'USD', available: '1000', locked: '0' }] };

function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: '0b6a3f8e-2c1d-4e5f-8a9b-0c1d2e3f4a5b',
    client_order_id: null,
    account_id: accountId,
    trading_pair: 'BTC_USD',
    symbol: 'BTC/USD',
    side: 'buy',
    type: 'limit',
    status: 'pending',
    time_in_force: 'GTC',
    post_only: false,
    price: '65000.00',
    stop_price: null,
    stop_limit_price: null,
    quantity: '0.01',
    quote_amount: null,
    filled_quantity: '0',
    remaining_quantity: '0.01',
    average_price: null,
    total: '0',
    fee: '0',
    fee_currency: 'USD',
    triggered: false,
    reject_reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

interface Props {
  side?: 'buy' | 'sell' | null;
  priceFill?: PriceFill | null;
  lastPrice?: string | null;
}

function renderForm(props: Props = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  const tree = (next: Props) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/trade?pair=BTC/USD']}>
        <OrderFormPanel
          pair={pair}
          lastPrice={next.lastPrice ?? '67000.00'}
          side={next.side ?? null}
          priceFill={next.priceFill ?? null}
        />
      </MemoryRouter>
      <AppToaster />
    </QueryClientProvider>
  );
  const view = render(tree(props));
  return { user, rerender: (next: Props) => view.rerender(tree(next)) };
}

const orderPosts = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === '/v1/orders');

describe('order form (spec §2.6, §5 Orders)', () => {
  it('shows the available quote balance of a buy and the side carried in the address', async () => {
    stubFetch({ 'GET /v1/wallet/balances': () => json(200, balances) });
    signIn();
    const { user, rerender } = renderForm({ side: 'sell' });
    expect(screen.getByTestId('order-side-sell')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('order-side-buy')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('order-submit')).toHaveTextContent('Sell BTC');
    expect(await screen.findByText('0.00000000 BTC')).toBeInTheDocument();
    await user.click(screen.getByTestId('order-side-buy'));
    await waitFor(() => expect(screen.getByTestId('order-available')).toHaveTextContent('1,000.00 USD'));
    expect(screen.getByTestId('order-submit')).toHaveTextContent('Buy BTC');
    // A new carried action (the search's "sell") moves the form to that side.
    rerender({ side: 'buy' });
    rerender({ side: 'sell' });
    expect(screen.getByTestId('order-side-sell')).toHaveAttribute('aria-pressed', 'true');
  });

  it("says 'Please fill all required fields' on an empty submit and sends nothing", async () => {
    const { calls } = stubFetch({ 'GET /v1/wallet/balances': () => json(200, balances) });
    signIn();
    const { user } = renderForm();
    await user.click(screen.getByTestId('order-submit'));
    expect(screen.getByTestId('order-error')).toHaveTextContent(/^Please fill all required fields$/);
    expect(screen.getByTestId('order-price')).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByTestId('order-price'), '65000');
    await user.type(screen.getByTestId('order-amount'), '1.234567');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('order-error')).toHaveTextContent(/^Invalid amount$/);
    await user.clear(screen.getByTestId('order-amount'));
    await user.type(screen.getByTestId('order-amount'), '0.01');
    await user.clear(screen.getByTestId('order-price'));
    await user.type(screen.getByTestId('order-price'), '65000.001');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('order-error')).toHaveTextContent(/^Invalid price$/);
    expect(orderPosts(calls)).toHaveLength(0);
  });

  it('fills the price with a price clicked in the book', async () => {
    stubFetch({ 'GET /v1/wallet/balances': () => json(200, balances) });
    signIn();
    const { rerender, user } = renderForm();
    rerender({ priceFill: { price: '65123.45', seq: 1 } });
    expect(await screen.findByTestId('order-price')).toHaveValue('65123.45');
    // A market order has no price: the click makes it a limit order at that price.
    await user.click(screen.getByTestId('order-type-market'));
    expect(screen.queryByTestId('order-price')).not.toBeInTheDocument();
    rerender({ priceFill: { price: '65100.00', seq: 2 } });
    expect(await screen.findByTestId('order-price')).toHaveValue('65100.00');
    expect(screen.getByTestId('order-type-limit')).toHaveAttribute('aria-pressed', 'true');
  });

  it('places a limit order with Enter, says so, and clears the amount', async () => {
    const { calls } = stubFetch({
      'GET /v1/wallet/balances': () => json(200, balances),
      'POST /v1/orders': () => json(201, makeOrder()),
    });
    signIn();
    const { user } = renderForm();
    await user.type(screen.getByTestId('order-price'), '65000');
    await user.type(screen.getByTestId('order-amount'), '0.01{Enter}');
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
    const [post] = orderPosts(calls);
    expect(post?.body).toEqual({
      trading_pair: 'BTC_USD',
      side: 'buy',
      type: 'limit',
      price: '65000',
      quantity: '0.01',
      client_order_id: expect.stringMatching(/^web-[0-9a-f-]{36}$/),
    });
    await waitFor(() => expect(screen.getByTestId('order-amount')).toHaveValue(''));
    expect(screen.getByTestId('order-price')).toHaveValue('65000');
  });

  it("shows the server's refusal and sends the same order id again on a retry after a lost answer", async () => {
    const { calls } = stubFetch({
      'GET /v1/wallet/balances': () => json(200, balances),
      'POST /v1/orders': [
        () => Promise.reject(new TypeError('Failed to fetch')),
        () => errorResponse(422, 'INSUFFICIENT_BALANCE', 'Insufficient balance'),
        () => json(201, makeOrder()),
      ],
    });
    signIn();
    const { user } = renderForm();
    await user.type(screen.getByTestId('order-price'), '65000');
    await user.type(screen.getByTestId('order-amount'), '0.01');
    await user.click(screen.getByTestId('order-submit'));
    expect(await screen.findByTestId('order-error')).toHaveTextContent('Network error occurred');
    await user.click(screen.getByTestId('order-submit'));
    await waitFor(() => expect(screen.getByTestId('order-error')).toHaveTextContent('Insufficient balance'));
    await user.click(screen.getByTestId('order-submit'));
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
    const ids = orderPosts(calls).map((call) => (call.body as { client_order_id: string }).client_order_id);
    // The lost answer may have placed it: the retry names the same order. A refusal placed nothing.
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[1]);
  });

  it('sizes a buy from the percent marks at the price typed, fee included', async () => {
    stubFetch({ 'GET /v1/wallet/balances': () => json(200, balances) });
    signIn();
    const { user } = renderForm();
    await user.type(screen.getByTestId('order-price'), '100');
    await waitFor(() => expect(screen.getByTestId('order-percent-25')).toBeEnabled());
    await user.click(screen.getByTestId('order-percent-25'));
    // 1000 x 25% / (100 x 1.001) = 2.49750..., floored to 5 decimals.
    expect(screen.getByTestId('order-amount')).toHaveValue('2.4975');
    expect(screen.getByTestId('order-total')).toHaveTextContent('$249.75');
    // A fee is a dollar amount, shown to the cent (issue 13: never '$0.249750').
    expect(screen.getByTestId('order-fee')).toHaveTextContent(/^\$0\.25$/);
  });

  it("asks a visitor to log in: 'Please login to continue' opens the login modal", async () => {
    const { calls } = stubFetch({});
    const { user } = renderForm();
    expect(screen.getByTestId('order-available')).toHaveTextContent('—');
    const submit = screen.getByTestId('order-submit');
    expect(submit).toHaveTextContent('Please login to continue');
    await user.click(submit);
    expect(useAppStore.getState().showLoginModal).toBe(true);
    expect(useAppStore.getState().loginReturnPath).toBe('/trade?pair=BTC/USD');
    expect(orderPosts(calls)).toHaveLength(0);
  });
  it('with confirmations on, shows the order with its total and sends nothing until Place', async () => {
    usePreferences.getState().setPreference('confirmOrders', true);
    const { calls } = stubFetch({
      'GET /v1/wallet/balances': () => json(200, balances),
      'POST /v1/orders': () => json(201, makeOrder()),
    });
    signIn();
    const { user } = renderForm();
    await user.type(screen.getByTestId('order-price'), '65000');
    await user.type(screen.getByTestId('order-amount'), '0.01{Enter}');
    const dialog = await screen.findByTestId('order-confirm-dialog');
    expect(dialog).toHaveTextContent('Buy · Limit order');
    expect(dialog).toHaveTextContent('MarketBTC/USD');
    expect(dialog).toHaveTextContent('Price65,000 USD');
    expect(dialog).toHaveTextContent('Amount0.01 BTC');
    expect(dialog).toHaveTextContent('Total$650.00');
    expect(orderPosts(calls)).toHaveLength(0);

    await user.click(within(dialog).getByText('Back'));
    expect(screen.queryByTestId('order-confirm-dialog')).not.toBeInTheDocument();
    expect(orderPosts(calls)).toHaveLength(0);

    await user.click(screen.getByTestId('order-submit'));
    await user.click(await screen.findByTestId('order-confirm-place'));
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
    expect(orderPosts(calls)).toHaveLength(1);
    expect(orderPosts(calls)[0]?.body).toMatchObject({ price: '65000', quantity: '0.01' });
  });

  it('with confirmations off (the default), places at once', async () => {
    const { calls } = stubFetch({
      'GET /v1/wallet/balances': () => json(200, balances),
      'POST /v1/orders': () => json(201, makeOrder()),
    });
    signIn();
    const { user } = renderForm();
    await user.type(screen.getByTestId('order-price'), '65000');
    await user.type(screen.getByTestId('order-amount'), '0.01{Enter}');
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
    expect(screen.queryByTestId('order-confirm-dialog')).not.toBeInTheDocument();
    expect(orderPosts(calls)).toHaveLength(1);
  });
});
