import type { TradingPair } from '@platform/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';
import { OrderBookPanel } from './order-book-panel.tsx';

const BTC_USD: TradingPair = {
  id: 'BTC_USD',
  base_currency: 'BTC',
  quote_currency: 'USD',
  symbol: 'BTC/USD',
  min_trade_amount: '0.00001',
  max_trade_amount: '100',
  price_precision: 2,
  quantity_precision: 7,
  trading_fee: '0.1',
  maker_fee: '0.1',
  taker_fee: '0.1',
  is_active: true,
  is_enabled_by_admin: true,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  supported_by_provider: true,
  current_price: '67270.00',
  volume_24h: '42',
  change_24h: '1.5',
};

const BABYDOGE_USD: TradingPair = {
  ...BTC_USD,
  id: 'BABYDOGE_USD',
  base_currency: 'BABYDOGE',
  symbol: 'BABYDOGE/USD',
  min_trade_amount: '100000000',
  max_trade_amount: '1000000000000000',
  price_precision: 14,
  quantity_precision: 0,
  current_price: '0.00000000209874',
};

function renderPanel(pair: TradingPair = BTC_USD) {
  const server = new FakeWebSocketServer();
  replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
  stubFetch({
    'GET /v1/trading-pairs': () => json(200, [pair]),
    // The HTTP seed never answers here: every row on screen comes from the socket.
    [`GET /v1/orderbook/${pair.id}`]: () => new Promise<Response>(() => {}),
    [`GET /v1/market/${pair.id}/trades`]: () => json(200, []),
  });
  const onPriceClick = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <OrderBookPanel pairId={pair.id} onPriceClick={onPriceClick} />
    </QueryClientProvider>,
  );
  return { server, onPriceClick, user: userEvent.setup() };
}

function bookUpdate(
  seq: number,
  kind: 'snapshot' | 'delta',
  prev: number,
  sequence: number,
  bids: string[][],
  asks: string[][],
  pairId = 'BTC_USD',
) {
  return {
    type: 'orderbook_update',
    channel: `orderbook.${pairId}`,
    seq,
    ...(kind === 'snapshot' ? { snapshot: true } : {}),
    payload: { trading_pair: pairId, kind, sequence, prev_sequence: prev, bids, asks, timestamp: 1_700_000_000_000 },
  };
}

const SNAPSHOT = bookUpdate(
  1,
  'snapshot',
  44,
  44,
  [
    ['67202.70', '0.0059479'],
    ['67202.71', '0.1'],
    ['67135.46', '0.2'],
  ],
  [
    ['67337.27', '0.0059479'],
    ['67404.54', '0.0104089'],
  ],
);

function rowsOf(testId: string) {
  return within(screen.getByTestId(testId))
    .getAllByTestId('order-book-row')
    .map((row) => [
      row.dataset.side,
      row.dataset.price,
      row.textContent?.replace(/^(Ask|Bid) /, '').replaceAll(' ', ''),
    ]);
}

async function openWithSnapshot(server: FakeWebSocketServer) {
  await waitFor(() => expect(server.sockets).toHaveLength(1));
  act(() => server.latest.acceptOpen());
  expect(server.latest.sentOfType('subscribe')).toContainEqual({ type: 'subscribe', channel: 'orderbook.BTC_USD' });
  act(() => server.latest.receive(SNAPSHOT));
  await screen.findAllByTestId('order-book-row');
}

describe('OrderBookPanel', () => {
  it('reads a tiny-price book (BABYDOGE): subscript zeros, shortened amounts, every digit in the label', async () => {
    const { server, onPriceClick, user } = renderPanel(BABYDOGE_USD);
    await waitFor(() => expect(server.sockets).toHaveLength(1));
    act(() => server.latest.acceptOpen());
    const snapshot = bookUpdate(
      1,
      'snapshot',
      7,
      7,
      [['0.00000000209627', '190476190476']],
      [['0.00000000210045', '2380952380952']],
      'BABYDOGE_USD',
    );
    act(() => server.latest.receive(snapshot));
    await screen.findAllByTestId('order-book-row');
    await waitFor(() =>
      expect(rowsOf('order-book-bids')).toEqual([['bid', '0.00000000209627', '0.0₈209627190.48B190.48B']]),
    );
    expect(rowsOf('order-book-asks')).toEqual([['ask', '0.00000000210045', '0.0₈2100452.38T2.38T']]);
    // Named by what it shows (WCAG 2.5.3), the full amounts as its description.
    const row = screen.getByRole('button', {
      name: 'Bid 0.0₈209627 190.48B 190.48B',
      description: 'Bid 0.00000000209627, amount 190,476,190,476 BABYDOGE, total 190,476,190,476 BABYDOGE',
    });
    await user.click(row);
    expect(onPriceClick).toHaveBeenCalledWith('0.00000000209627');
    // 0.00000000210045 - 0.00000000209627, at the tick.
    expect(screen.getByTestId('order-book-spread')).toHaveTextContent('Spread 0.0₁₁418 (0.199%)');
    const grouping = screen.getByTestId('order-book-grouping');
    expect(
      within(grouping)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['0.0₁₃1', '0.0₁₂1', '0.0₁₁1', '0.0₁₀1']);
  });

  it('draws the socket snapshot: asks far to near above the spread, bids best first below', async () => {
    const { server } = renderPanel();
    await openWithSnapshot(server);
    await waitFor(() => expect(screen.getByTestId('order-book')).toHaveAttribute('data-sequence', '44'));
    // Column headings: the label, its unit under it.
    expect(screen.getByText('Price').nextElementSibling).toHaveTextContent('USD');
    expect(screen.getByText('Amount').nextElementSibling).toHaveTextContent('BTC');
    expect(rowsOf('order-book-asks')).toEqual([
      ['ask', '67404.54', '67,404.540.01040890.0163568'],
      ['ask', '67337.27', '67,337.270.00594790.0059479'],
    ]);
    expect(rowsOf('order-book-bids')).toEqual([
      ['bid', '67202.71', '67,202.710.10000000.1000000'],
      ['bid', '67202.70', '67,202.700.00594790.1059479'],
      ['bid', '67135.46', '67,135.460.20000000.3059479'],
    ]);
    // 67337.27 - 67202.71 = 134.56, of the mid 67269.99: 0.200 %.
    expect(screen.getByTestId('order-book-spread')).toHaveTextContent('Spread 134.56 (0.200%)');
  });

  it('hands the exact price string of a clicked row to onPriceClick', async () => {
    const { server, onPriceClick, user } = renderPanel();
    await openWithSnapshot(server);
    const row = screen.getByRole('button', { description: /^Bid 67,202\.70,/ });
    await user.click(row);
    expect(onPriceClick).toHaveBeenCalledWith('67202.70');
  });

  it('applies deltas and removes a level at 0', async () => {
    const { server } = renderPanel();
    await openWithSnapshot(server);
    act(() =>
      server.latest.receive(
        bookUpdate(
          2,
          'delta',
          44,
          46,
          [
            ['67202.71', '0'],
            ['67202.70', '1.5'],
          ],
          [],
        ),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('order-book')).toHaveAttribute('data-sequence', '46'));
    expect(rowsOf('order-book-bids').map(([, price, text]) => [price, text])).toEqual([
      ['67202.70', '67,202.701.50000001.5000000'],
      ['67135.46', '67,135.460.20000001.7000000'],
    ]);
  });

  it('groups levels by the chosen step, exactly', async () => {
    const { server, user } = renderPanel();
    await openWithSnapshot(server);
    const grouping = await screen.findByTestId('order-book-grouping');
    expect(
      within(grouping)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['0.01', '0.1', '1', '10']);
    await user.selectOptions(grouping, '10');
    expect(rowsOf('order-book-bids').map(([, price, text]) => [price, text])).toEqual([
      ['67200', '67,2000.10594790.1059479'],
      ['67130', '67,1300.20000000.3059479'],
    ]);
    expect(rowsOf('order-book-asks').map(([, price]) => price)).toEqual(['67410', '67340']);
  });

  it('gives each side one tab stop and moves along the rows with the arrow keys', async () => {
    const { server, user } = renderPanel();
    await openWithSnapshot(server);
    const bids = within(screen.getByTestId('order-book-bids')).getAllByTestId('order-book-row');
    expect(bids.map((row) => row.tabIndex)).toEqual([0, -1, -1]);
    bids[0]?.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(bids[1]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(bids[2]);
    expect(bids.map((row) => row.tabIndex)).toEqual([-1, -1, 0]);
  });
});
