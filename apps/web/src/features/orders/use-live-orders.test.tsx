import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { json } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';
import { AccountOrdersTabs } from './index.ts';
import { never, stubApi } from './orders-test-api.ts';
import { makeOrder, makePair, orderList } from './orders-test-fixtures.ts';

const resting = makeOrder({ updated_at: '2026-11-24T10:00:00.000Z' });
const other = makeOrder({ price: '59000.00', updated_at: '2026-11-24T10:00:00.000Z' });

function setUp() {
  const server = new FakeWebSocketServer();
  const marketData = createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' });
  replaceMarketData(marketData);
  // The shell's useLiveBalances opens the connection (and proves the account) in the app.
  marketData.socket.connect();
  let openOrderReads = 0;
  stubApi({
    'GET /v1/trading-pairs': () => json(200, [makePair()]),
    [`GET /v1/accounts/${accountId}/orders`]: () => {
      openOrderReads += 1;
      // The first read lists both; any later read never answers, so what changes on screen
      // afterwards can only come from the socket's update.
      return openOrderReads === 1 ? json(200, orderList([resting, other])) : never();
    },
  });
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const router = createMemoryRouter([{ path: '/', element: <AccountOrdersTabs pairId="BTC_USD" /> }]);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { server, reads: () => openOrderReads };
}

const rowIds = () => screen.queryAllByTestId('open-order-row').map((row) => row.dataset.orderId);

describe('useLiveOrders', () => {
  it('subscribes the orders channel and drops an order from open orders when an update says it filled', async () => {
    const { server } = setUp();
    await waitFor(() => expect(rowIds()).toEqual([resting.id, other.id]));
    const socket = server.latest;
    act(() => socket.acceptOpen());
    expect(socket.sentOfType('subscribe')).toContainEqual({ type: 'subscribe', channel: 'orders' });

    act(() =>
      socket.receive({
        type: 'order_update',
        channel: 'orders',
        seq: 1,
        payload: {
          ...resting,
          status: 'filled',
          filled_quantity: '0.01',
          remaining_quantity: '0',
          average_price: '60000.00',
          total: '600.00',
          updated_at: '2026-11-24T10:00:05.000Z',
        },
      }),
    );
    await waitFor(() => expect(rowIds()).toEqual([other.id]));
    expect(screen.getByTestId('orders-open-count')).toHaveTextContent('1');
  });

  it('shows a partial fill in place and a newly placed order at the top', async () => {
    const { server } = setUp();
    await waitFor(() => expect(rowIds()).toHaveLength(2));
    const socket = server.latest;
    act(() => socket.acceptOpen());
    const placed = makeOrder({ price: '58000.00', updated_at: '2026-11-24T10:01:00.000Z' });
    act(() => {
      socket.receive({
        type: 'order_update',
        channel: 'orders',
        seq: 1,
        payload: { ...other, status: 'partial', filled_quantity: '0.005', updated_at: '2026-11-24T10:00:30.000Z' },
      });
      socket.receive({ type: 'order_update', channel: 'orders', seq: 2, payload: placed });
    });
    await waitFor(() => expect(rowIds()).toEqual([placed.id, resting.id, other.id]));
    expect(screen.getByText('Partially filled')).toBeInTheDocument();
  });

  it('reads the lists again over HTTP once the channel is subscribed (it has no snapshot)', async () => {
    const { server, reads } = setUp();
    await waitFor(() => expect(rowIds()).toHaveLength(2));
    const socket = server.latest;
    act(() => socket.acceptOpen());
    const before = reads();
    act(() => socket.receive({ type: 'subscribed', channel: 'orders', seq: 0 }));
    await waitFor(() => expect(reads()).toBe(before + 1));
  });
});
