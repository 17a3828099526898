import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { OrderHistoryPage, TradeHistoryPage } from './index.ts';
import { type ApiCall, stubApi } from './orders-test-api.ts';
import { makeOrder, makePair, makeTrade } from './orders-test-fixtures.ts';

const ORDERS_PATH = `GET /v1/accounts/${accountId}/orders`;
const TRADES_PATH = `GET /v1/accounts/${accountId}/trades/history`;

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/orders', element: <OrderHistoryPage /> },
      { path: '/trades', element: <TradeHistoryPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

const pairs = () => json(200, [makePair(), makePair({ id: 'ETH_USD', symbol: 'ETH/USD', base_currency: 'ETH' })]);

/** History reads (not the open-orders list the page also shows). */
const historyCalls = (calls: ApiCall[]) =>
  calls.filter((call) => call.path.endsWith('/orders') && call.query.get('status') !== 'open');

describe('/orders', () => {
  it('applies the filters of the link and sends them, days as unix ms with an exclusive end', async () => {
    const { calls } = stubApi({
      'GET /v1/trading-pairs': pairs,
      [ORDERS_PATH]: () => json(200, { orders: [], pagination: { page: 2, limit: 25, total: 30 } }),
    });
    signIn();
    renderAt('/orders?pair=eth/usd&side=sell&type=limit&status=cancelled&from=2026-11-01&to=2026-11-24&page=2');
    await waitFor(() => expect(historyCalls(calls)).not.toHaveLength(0));
    const query = historyCalls(calls)[0]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({
      trading_pair: 'ETH_USD',
      side: 'sell',
      type: 'limit',
      status: 'cancelled',
      from: String(new Date(2026, 10, 1).getTime()),
      to: String(new Date(2026, 10, 25).getTime()),
      limit: '25',
      page: '2',
    });
    expect(await screen.findByTestId('history-filter-pair')).toHaveValue('ETH_USD');
    expect(screen.getByTestId('history-filter-status')).toHaveValue('cancelled');
    expect(screen.getByTestId('history-filter-from')).toHaveValue('2026-11-01');
  });

  it('keeps filter changes in the URL and starts again from page 1', async () => {
    stubApi({
      'GET /v1/trading-pairs': pairs,
      [ORDERS_PATH]: (call) =>
        json(200, {
          orders: call.query.get('status') === 'open' ? [] : [makeOrder({ status: 'filled' })],
          pagination: { page: 1, limit: 25, total: 60 },
        }),
    });
    signIn();
    const { router, user } = renderAt('/orders?page=2');
    await screen.findAllByTestId('order-history-row');
    expect(screen.getByTestId('history-page')).toHaveTextContent('Page 2 of 3');
    expect(screen.getByTestId('history-total')).toHaveTextContent('60 rows');
    await user.click(screen.getByTestId('history-page-next'));
    expect(router.state.location.search).toBe('?page=3');
    expect(screen.getByTestId('history-page-next')).toBeDisabled();

    await user.selectOptions(screen.getByTestId('history-filter-side'), 'buy');
    expect(router.state.location.search).toBe('?side=buy');
    await user.selectOptions(await screen.findByTestId('history-filter-pair'), 'BTC_USD');
    expect(new URLSearchParams(router.state.location.search).get('pair')).toBe('BTC_USD');
    await user.click(screen.getByTestId('history-filter-reset'));
    expect(router.state.location.search).toBe('');
  });

  it('lists the rows with the spec labels, and says when there are none', async () => {
    stubApi({
      'GET /v1/trading-pairs': pairs,
      [ORDERS_PATH]: (call) =>
        json(200, {
          orders:
            call.query.get('side') === 'sell'
              ? []
              : [
                  makeOrder({
                    status: 'filled',
                    filled_quantity: '0.01',
                    average_price: '60000',
                    total: '600',
                    fee: '0.6',
                  }),
                ],
          pagination: { page: 1, limit: 25, total: call.query.get('side') === 'sell' ? 0 : 1 },
        }),
    });
    signIn();
    const { user } = renderAt('/orders');
    const table = await screen.findByTestId('order-history-table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual([
      'Time',
      'Pair',
      'Side',
      'Type',
      'Price',
      'Stop price',
      'Avg. price',
      'Amount',
      'Filled',
      'Total',
      'Fee',
      'Status',
    ]);
    expect(within(table).getByTestId('order-history-row')).toHaveTextContent('0.60 USD');
    await user.selectOptions(screen.getByTestId('history-filter-side'), 'sell');
    expect(await screen.findByText('No orders match these filters.')).toBeInTheDocument();
  });

  it('offers a retry when the history cannot be read', async () => {
    let fail = true;
    stubApi({
      'GET /v1/trading-pairs': pairs,
      [ORDERS_PATH]: (call) =>
        call.query.get('status') !== 'open' && fail
          ? errorResponse(500, 'INTERNAL', '')
          : json(200, { orders: [makeOrder({ status: 'cancelled' })], pagination: { page: 1, limit: 25, total: 1 } }),
    });
    signIn();
    const { user } = renderAt('/orders');
    const failure = await screen.findByText('Failed to load orders');
    fail = false;
    await user.click(
      within(failure.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByTestId('order-history-row')).toBeInTheDocument();
  });

  it('asks a visitor to log in and reads nothing', async () => {
    const { calls } = stubApi({ 'GET /v1/trading-pairs': pairs });
    renderAt('/orders');
    expect(await screen.findByText('Please login to continue')).toBeInTheDocument();
    expect(screen.getByTestId('orders-login')).toBeInTheDocument();
    expect(calls.some((call) => call.path.includes('/accounts/'))).toBe(false);
  });
});

describe('/trades', () => {
  it('exports every row matching the filters as CSV, 500 a call', async () => {
    const trades = Array.from({ length: 501 }, (_, at) =>
      makeTrade({ id: String(at + 1), price: '60000.10', quantity: '0.00000001', fee: '0.000000000001' }),
    );
    const { calls } = stubApi({
      'GET /v1/trading-pairs': pairs,
      [TRADES_PATH]: (call) => {
        const limit = Number(call.query.get('limit'));
        const page = Number(call.query.get('page'));
        return json(200, {
          trades: trades.slice((page - 1) * limit, page * limit),
          pagination: { page, limit, total: trades.length },
        });
      },
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    signIn();
    const { user } = renderAt('/trades?side=buy');
    await screen.findAllByTestId('trade-history-row');
    expect(screen.queryByTestId('history-filter-type')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('history-export-csv'));
    expect(await screen.findByText('Exported 501 rows')).toBeInTheDocument();

    const exportCalls = calls.filter(
      (call) => call.path.endsWith('/trades/history') && call.query.get('limit') === '500',
    );
    expect(exportCalls.map((call) => [call.query.get('page'), call.query.get('side')])).toEqual([
      ['1', 'buy'],
      ['2', 'buy'],
    ]);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]).toMatch(/^meridian-trades-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await blobs[0]?.text())?.split('\r\n') ?? [];
    expect(lines[0]).toBe('Time,Trade ID,Order ID,Pair,Side,Role,Price,Amount,Total,Fee,Fee currency');
    expect(lines).toHaveLength(503);
    expect(lines[1]).toContain(',60000.10,0.00000001,600.00,0.000000000001,USD');
  });
});
