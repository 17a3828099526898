import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';
import { FuturesChart } from './futures-chart.tsx';
import { futuresRoutes, markets } from './futures-test-fixtures.ts';

const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);
const CANDLES_PATH = '/v1/futures/markets/BTC_USD_PERP/candles';
const perpCandles = {
  pair_id: 'BTC_USD_PERP',
  interval: '1h',
  candles: [{ time: T0, open: '60000', high: '60010.5', low: '59990', close: '60005', volume: '0.25' }],
};

function renderChart(candles: unknown) {
  const server = new FakeWebSocketServer();
  replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
  const { calls, fetchMock } = stubFetch({
    ...futuresRoutes(),
    'GET /v1/trading-pairs': () => json(200, []),
    [`GET ${CANDLES_PATH}`]: () => json(200, candles),
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <FuturesChart marketId="BTC_USD_PERP" market={markets[0]} />
    </QueryClientProvider>,
  );
  /** The query strings the chart sent to the perpetual's candles. */
  const candleQueries = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === CANDLES_PATH)
      .map((url) => url.search);
  return { server, calls, candleQueries, user: userEvent.setup() };
}

describe('FuturesChart', () => {
  it("asks for the perpetual's own candles, never the spot pair's, and follows the range", async () => {
    const { calls, candleQueries, user } = renderChart(perpCandles);
    await waitFor(() => expect(candleQueries()).toEqual(['?range=1h']));
    expect(calls.some((call) => call.path.startsWith('/v1/market/'))).toBe(false);
    await user.click(await screen.findByTestId('chart-range-1d'));
    await waitFor(() => expect(candleQueries()).toEqual(['?range=1h', '?range=1d']));
    expect(screen.queryByText(/spot/i)).not.toBeInTheDocument();
  });

  it('says that nobody traded the perpetual yet when it has no candle', async () => {
    renderChart({ pair_id: 'BTC_USD_PERP', interval: '1h', candles: [] });
    expect(await screen.findByTestId('price-chart-empty')).toHaveTextContent('No trades yet on this perpetual');
    expect(screen.getByTestId('futures-chart-mark')).toHaveTextContent('Mark');
  });

  it('moves the last candle with the perpetual trades, not with spot price updates', async () => {
    const { server } = renderChart(perpCandles);
    await waitFor(() => expect(screen.getByTestId('price-chart')).toHaveAttribute('data-last-close', '60005'));
    act(() => server.latest.acceptOpen());
    const channels = server.latest.sentOfType('subscribe').map((message) => (message as { channel: string }).channel);
    expect(channels).toContain('trades.BTC_USD_PERP');
    expect(channels.filter((channel) => channel.startsWith('price.'))).toEqual([]);
    act(() =>
      server.latest.receive({
        type: 'trade_update',
        channel: 'trades.BTC_USD_PERP',
        seq: 1,
        payload: {
          id: 'BTC_USD_PERP:7:0',
          trading_pair: 'BTC_USD_PERP',
          symbol: 'BTCUSD-PERP',
          price: '60020.5',
          quantity: '0.5',
          total: '30010.25',
          side: 'buy',
          timestamp: T0 + 60_000,
        },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('price-chart')).toHaveAttribute('data-last-close', '60020.5'));
    // Volume summed exactly in the legend: 0.25 + 0.5.
    expect(screen.getByText('0.750 BTC')).toBeInTheDocument();
  });
});
