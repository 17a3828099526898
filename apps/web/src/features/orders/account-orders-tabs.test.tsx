import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { errorResponse, json } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { AccountOrdersTabs } from './index.ts';
import { type ApiCall, stubApi } from './orders-test-api.ts';
import { makeOrder, makePair, makeTrade, orderList } from './orders-test-fixtures.ts';

const ORDERS_PATH = `GET /v1/accounts/${accountId}/orders`;

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

function renderTabs(pairId = 'BTC_USD') {
  const router = createMemoryRouter([{ path: '/trade', element: <AccountOrdersTabs pairId={pairId} /> }], {
    initialEntries: ['/trade?pair=BTC/USD'],
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup(), queryClient };
}

const btcBuy = makeOrder({
  price: '60000.00',
  quantity: '0.01000000',
  filled_quantity: '0.00250000',
  status: 'partial',
});
const btcStop = makeOrder({
  side: 'sell',
  type: 'stop_limit',
  price: '58000.00',
  stop_price: '58500.00',
  quantity: '0.5',
});
const ethSell = makeOrder({ trading_pair: 'ETH_USD', symbol: 'ETH/USD', side: 'sell', price: '3000.00' });

/** The server's open orders: a test's cancel handler takes an order out, as the server would. */
function stubOpenOrders(orders = [btcBuy, btcStop, ethSell], extra: Record<string, (call: ApiCall) => Response> = {}) {
  return stubApi({
    'GET /v1/trading-pairs': () =>
      json(200, [makePair(), makePair({ id: 'ETH_USD', symbol: 'ETH/USD', base_currency: 'ETH' })]),
    [ORDERS_PATH]: (call) => json(200, call.query.get('status') === 'open' ? orderList(orders) : orderList([], 0)),
    ...extra,
  });
}

const openRows = () => screen.queryAllByTestId('open-order-row');

/** One closed order (the given one) and one trade: a maker sell of 0.01 at 60,010.50. */
function stubHistories(closed: ReturnType<typeof makeOrder>) {
  const trade = makeTrade({ side: 'sell', role: 'maker', price: '60010.5', quantity: '0.01', total: '600.105' });
  return stubApi({
    'GET /v1/trading-pairs': () => json(200, [makePair()]),
    [ORDERS_PATH]: (call) => json(200, call.query.get('status') === 'closed' ? orderList([closed]) : orderList([], 0)),
    [`GET /v1/accounts/${accountId}/trades/history`]: () =>
      json(200, { trades: [trade], pagination: { page: 1, limit: 25, total: 1 } }),
  });
}

describe('AccountOrdersTabs: open orders', () => {
  it("lists the pair's open orders with a count, and every pair's on request", async () => {
    stubOpenOrders();
    signIn();
    const { user } = renderTabs();
    await waitFor(() => expect(openRows()).toHaveLength(2));
    expect(screen.getByTestId('orders-open-count')).toHaveTextContent('2');
    const first = openRows()[0];
    if (!first) throw new Error('no row');
    expect(first).toHaveAttribute('data-order-id', btcBuy.id);
    const cells = within(first)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(1, 10)).toEqual([
      'BTC/USD',
      'Buy',
      'Limit',
      '60,000.00',
      '—',
      '0.01',
      '0.002525%',
      '600.00',
      'Partially filled',
    ]);

    await user.click(screen.getByTestId('orders-scope-all'));
    expect(openRows()).toHaveLength(3);
    expect(screen.getByTestId('orders-open-count')).toHaveTextContent('3');
  });

  it('asks first when the user prefers it, then cancels by the id, says so, and drops the row', async () => {
    usePreferences.getState().setPreference('cancelMode', 'confirm');
    const open = [btcBuy, btcStop];
    const { calls } = stubOpenOrders(open, {
      [`POST /v1/orders/${btcBuy.id}/cancel`]: () => {
        open.splice(open.indexOf(btcBuy), 1);
        return json(200, { ...btcBuy, status: 'cancelled', updated_at: '2026-11-24T10:05:00.000Z' });
      },
    });
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId(`order-cancel-${btcBuy.id}`));
    const dialog = await screen.findByTestId('order-cancel-dialog');
    expect(dialog).toHaveTextContent('Buy 0.01 BTC/USD at 60,000.00');
    // "Keep order" closes it and sends nothing.
    await user.click(within(dialog).getByText('Keep order'));
    expect(screen.queryByTestId('order-cancel-dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(screen.getByTestId(`order-cancel-${btcBuy.id}`));
    await user.click(await screen.findByTestId('order-cancel-confirm'));
    expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `/v1/orders/${btcBuy.id}/cancel`,
    ]);
    await waitFor(() => expect(screen.queryByTestId(`order-cancel-${btcBuy.id}`)).not.toBeInTheDocument());
  });

  it('by default waits 5 s before sending a cancel: an undo within them sends nothing', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const open = [btcBuy, btcStop];
      const { calls } = stubOpenOrders(open, {
        [`POST /v1/orders/${btcBuy.id}/cancel`]: () => {
          open.splice(open.indexOf(btcBuy), 1);
          return json(200, { ...btcBuy, status: 'cancelled' });
        },
      });
      const posts = () => calls.filter((call) => call.method === 'POST').map((call) => call.path);
      signIn();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderTabs();
      await user.click(await screen.findByTestId(`order-cancel-${btcBuy.id}`));
      const undo = await screen.findByTestId(`order-undo-${btcBuy.id}`);
      expect(undo).toHaveTextContent('Undo (5)');
      await act(() => vi.advanceTimersByTimeAsync(4_000));
      expect(posts()).toEqual([]);
      await user.click(undo);
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(posts()).toEqual([]);
      expect(screen.getByTestId(`order-cancel-${btcBuy.id}`)).toBeInTheDocument();

      // Not undone: sent when the 5 s are up, and not before.
      await user.click(screen.getByTestId(`order-cancel-${btcBuy.id}`));
      await act(() => vi.advanceTimersByTimeAsync(4_900));
      expect(posts()).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(200));
      await waitFor(() => expect(posts()).toEqual([`/v1/orders/${btcBuy.id}/cancel`]));
      expect(await screen.findByText('Order cancelled')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the server's reason when a cancel fails", async () => {
    usePreferences.getState().setPreference('cancelMode', 'confirm');
    stubOpenOrders(undefined, {
      [`POST /v1/orders/${btcBuy.id}/cancel`]: () =>
        errorResponse(409, 'ORDER_NOT_OPEN', 'This order is no longer open'),
    });
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId(`order-cancel-${btcBuy.id}`));
    await user.click(await screen.findByTestId('order-cancel-confirm'));
    expect(await screen.findByText('This order is no longer open')).toBeInTheDocument();
  });

  it('cancels all the listed orders after a confirmation, one call each', async () => {
    const cancelled = (order: typeof btcBuy) => () => json(200, { ...order, status: 'cancelled' });
    const { calls } = stubOpenOrders(undefined, {
      [`POST /v1/orders/${btcBuy.id}/cancel`]: cancelled(btcBuy),
      [`POST /v1/orders/${btcStop.id}/cancel`]: cancelled(btcStop),
    });
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId('orders-cancel-all'));
    const dialog = await screen.findByTestId('orders-cancel-all-dialog');
    expect(dialog).toHaveTextContent('This cancels your 2 open orders on BTC/USD.');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByTestId('orders-cancel-all-confirm'));
    expect(await screen.findByText('2 orders cancelled')).toBeInTheDocument();
    expect(
      calls
        .filter((call) => call.method === 'POST')
        .map((call) => call.path)
        .sort(),
    ).toEqual([`/v1/orders/${btcBuy.id}/cancel`, `/v1/orders/${btcStop.id}/cancel`].sort());
  });
});

describe('AccountOrdersTabs: modify', () => {
  it('offers only the fields of the type and checks them with the spec texts before sending', async () => {
    const { calls } = stubOpenOrders();
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId(`order-modify-${btcBuy.id}`));
    const dialog = await screen.findByTestId('order-modify-dialog');
    expect(within(dialog).queryByTestId('order-modify-stop-price')).not.toBeInTheDocument();
    const price = within(dialog).getByTestId('order-modify-price');
    const quantity = within(dialog).getByTestId('order-modify-quantity');
    expect(price).toHaveValue('60000');
    expect(quantity).toHaveValue('0.01');

    await user.clear(price);
    await user.click(within(dialog).getByTestId('order-modify-save'));
    expect(within(dialog).getByText('Please fill all required fields')).toBeInTheDocument();

    await user.type(price, '0');
    expect(within(dialog).getByText('Invalid price')).toBeInTheDocument();

    await user.clear(price);
    await user.type(price, '61000');
    await user.clear(quantity);
    await user.type(quantity, '0.002');
    expect(within(dialog).getByText('Invalid amount')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('sends the changed fields and closes on success', async () => {
    const { calls } = stubOpenOrders(undefined, {
      [`PUT /v1/orders/${btcStop.id}/modify`]: (call) =>
        json(200, { ...btcStop, ...(call.body as object), updated_at: '2026-11-24T10:05:00.000Z' }),
    });
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId(`order-modify-${btcStop.id}`));
    const dialog = await screen.findByTestId('order-modify-dialog');
    const stop = within(dialog).getByTestId('order-modify-stop-price');
    await user.clear(stop);
    await user.type(stop, '58600.5');
    await user.click(within(dialog).getByTestId('order-modify-save'));
    await waitFor(() => expect(screen.queryByTestId('order-modify-dialog')).not.toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ stop_price: '58600.5' });
    expect(await screen.findByText('Order modified')).toBeInTheDocument();
  });

  it("keeps the dialog open with the server's reason when the change is refused", async () => {
    stubOpenOrders(undefined, {
      [`PUT /v1/orders/${btcBuy.id}/modify`]: () =>
        errorResponse(400, 'INVALID_PRICE', 'price must be within 10% of the market price'),
    });
    signIn();
    const { user } = renderTabs();
    await user.click(await screen.findByTestId(`order-modify-${btcBuy.id}`));
    const dialog = await screen.findByTestId('order-modify-dialog');
    const price = within(dialog).getByTestId('order-modify-price');
    await user.clear(price);
    await user.type(price, '10000');
    await user.click(within(dialog).getByTestId('order-modify-save'));
    expect(await within(dialog).findByTestId('order-modify-error')).toHaveTextContent(
      'price must be within 10% of the market price',
    );
  });
});

describe('AccountOrdersTabs: histories and sign-in', () => {
  it("shows the pair's closed orders and trades in their tabs", async () => {
    const filled = makeOrder({ status: 'filled', filled_quantity: '0.01', average_price: '60010.5', total: '600.105' });
    const { calls } = stubHistories(filled);
    signIn();
    const { user } = renderTabs();
    await user.click(screen.getByTestId('orders-tab-history'));
    const row = await screen.findByTestId('order-history-row');
    expect(row).toHaveTextContent('Filled');
    expect(row).toHaveTextContent('60,010.50');
    const historyCall = calls.find((call) => call.query.get('status') === 'closed');
    expect(historyCall?.query.get('trading_pair')).toBe('BTC_USD');
    expect(historyCall?.query.get('limit')).toBe('25');

    await user.click(screen.getByTestId('orders-tab-trades'));
    const tradeRow = await screen.findByTestId('trade-history-row');
    expect(tradeRow).toHaveTextContent('Sell');
    expect(tradeRow).toHaveTextContent('Maker');
    expect(tradeRow).toHaveTextContent('600.11');
  });

  it('moves between the tabs with the arrow keys', async () => {
    stubOpenOrders();
    signIn();
    const { user } = renderTabs();
    screen.getByTestId('orders-tab-open').focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByTestId('orders-tab-history')).toHaveFocus();
    expect(screen.getByTestId('orders-tab-history')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByTestId('orders-tab-trades')).toHaveFocus();
  });

  it('asks a visitor to log in and opens the login, coming back here', async () => {
    const { calls } = stubOpenOrders();
    const { user } = renderTabs();
    expect(screen.getByText('Please login to continue')).toBeInTheDocument();
    await user.click(screen.getByTestId('orders-login'));
    expect(useAppStore.getState().showLoginModal).toBe(true);
    expect(useAppStore.getState().loginReturnPath).toBe('/trade?pair=BTC/USD');
    expect(calls.some((call) => call.path.includes('/orders'))).toBe(false);
  });
});

describe('AccountOrdersTabs: in a narrow column (under the chart, phones)', () => {
  /** A column 400 px wide, as ResizeObserver would report it in a browser. */
  beforeEach(() => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 400, 300));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const cellLines = (row: HTMLElement) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) =>
        [...cell.querySelectorAll('.orders-stack-main, .orders-stack-sub')].map((line) => line.textContent),
      );

  it('stacks every figure of an open order in four columns, with its actions', async () => {
    stubOpenOrders();
    signIn();
    renderTabs();
    await waitFor(() => expect(openRows()).toHaveLength(2));
    const [buy, stop] = openRows();
    if (!buy || !stop) throw new Error('no rows');
    expect(within(buy).getAllByRole('cell')).toHaveLength(4);
    expect(cellLines(buy).slice(0, 3)).toEqual([
      ['BTC/USD', 'Buy · Limit', expect.any(String)],
      ['60,000.00', '—'],
      ['0.01', '0.002525%'],
    ]);
    expect(cellLines(stop)[1]).toEqual(['58,000.00', '58,500.00']);
    expect(within(buy).getByTestId(`order-cancel-${btcBuy.id}`)).toBeInTheDocument();
    expect(screen.getByTestId('orders-cancel-all')).toBeInTheDocument();
  });

  it('stacks the closed orders and the trades too', async () => {
    const filled = makeOrder({
      type: 'stop_limit',
      status: 'filled',
      stop_price: '59900.00',
      filled_quantity: '0.01',
      average_price: '60010.5',
      total: '600.105',
    });
    stubHistories(filled);
    signIn();
    const { user } = renderTabs();
    await user.click(screen.getByTestId('orders-tab-history'));
    const row = await screen.findByTestId('order-history-row');
    expect(cellLines(row).slice(1)).toEqual([
      ['60,000.00', '60,010.50', 'Stop 59,900.00'],
      ['0.01', '0.01100%'],
      ['Filled', '600.11'],
    ]);
    expect(cellLines(row)[0]?.slice(0, 2)).toEqual(['BTC/USD', 'Buy · Stop limit']);

    await user.click(screen.getByTestId('orders-tab-trades'));
    const tradeRow = await screen.findByTestId('trade-history-row');
    expect(cellLines(tradeRow).slice(0, 1)[0]?.slice(0, 2)).toEqual(['BTC/USD', 'Sell · Maker']);
    expect(cellLines(tradeRow).slice(1)).toEqual([['60,010.50'], ['0.01', '600.11'], [expect.any(String), 'USD']]);
  });
});
