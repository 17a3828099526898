import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';

/** The chart library draws on a canvas jsdom does not have: a recording stand-in. */
const charts = vi.hoisted(() => ({
  series: [] as Array<{ setData: (...args: unknown[]) => void; update: (...args: unknown[]) => void }>,
}));
vi.mock('lightweight-charts', () => {
  const series = () => {
    const one = { setData: vi.fn(), update: vi.fn(), applyOptions: vi.fn() };
    charts.series.push(one);
    return one;
  };
  return {
    ColorType: { Solid: 'solid' },
    TickMarkType: { Year: 0, Month: 1, DayOfMonth: 2, Time: 3, TimeWithSeconds: 4 },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    createChart: vi.fn(() => ({
      addSeries: vi.fn(series),
      priceScale: () => ({ applyOptions: vi.fn() }),
      applyOptions: vi.fn(),
      timeScale: () => ({ fitContent: vi.fn() }),
      subscribeCrosshairMove: vi.fn(),
      unsubscribeCrosshairMove: vi.fn(),
      remove: vi.fn(),
    })),
  };
});

const { PriceChart } = await import('./price-chart.tsx');

const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);
const candles = {
  pair_id: 'BTC_USD',
  interval: '1h',
  candles: [
    { time: T0 - 3_600_000, open: '100.00', high: '110.00', low: '95.00', close: '105.00', volume: '3' },
    { time: T0, open: '105.00', high: '106.00', low: '104.00', close: '105.50', volume: '1.5' },
  ],
};

function renderChart(routes: Parameters<typeof stubFetch>[0]) {
  const server = new FakeWebSocketServer();
  replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
  const { calls } = stubFetch({ 'GET /v1/trading-pairs': () => json(200, []), ...routes });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <PriceChart pairId="BTC_USD" />
    </QueryClientProvider>,
  );
  return { server, calls, user: userEvent.setup() };
}

describe('PriceChart', () => {
  it('offers every range of spec §2.6 and loads the chosen one', async () => {
    const { calls, user } = renderChart({ 'GET /v1/market/BTC_USD/candles': () => json(200, candles) });
    for (const range of ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1M', '3M', '1Y', 'all']) {
      expect(screen.getByTestId(`chart-range-${range}`)).toBeInTheDocument();
    }
    expect(screen.getByTestId('chart-range-1h')).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('chart-range-3M'));
    expect(screen.getByTestId('chart-range-3M')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(calls.filter((call) => call.path === '/v1/market/BTC_USD/candles')).toHaveLength(2));
  });

  it('draws the history, then moves the last candle with a live trade', async () => {
    const { server } = renderChart({ 'GET /v1/market/BTC_USD/candles': () => json(200, candles) });
    await screen.findByText('105.50');
    const [candleSeries] = charts.series.slice(-2);
    expect(candleSeries?.setData).toHaveBeenCalledWith([
      { time: (T0 - 3_600_000) / 1000, open: 100, high: 110, low: 95, close: 105 },
      { time: T0 / 1000, open: 105, high: 106, low: 104, close: 105.5 },
    ]);
    act(() => server.latest.acceptOpen());
    act(() =>
      server.latest.receive({
        type: 'trade_update',
        channel: 'trades.BTC_USD',
        seq: 1,
        payload: {
          id: 't1',
          trading_pair: 'BTC_USD',
          symbol: 'BTC/USD',
          price: '107.25',
          quantity: '0.5',
          total: '53.625',
          side: 'buy',
          timestamp: T0 + 60_000,
        },
      }),
    );
    expect(candleSeries?.update).toHaveBeenCalledWith({
      time: T0 / 1000,
      open: 105,
      high: 107.25,
      low: 104,
      close: 107.25,
    });
    // The legend reads the candle's decimal strings: the volume summed exactly.
    // High and close.
    expect(await screen.findAllByText('107.25', { selector: 'dd' })).toHaveLength(2);
    expect(screen.getByText('2.00 BTC')).toBeInTheDocument();
  });

  it("says 'Failed to load chart' and loads again on retry", async () => {
    const { user } = renderChart({
      'GET /v1/market/BTC_USD/candles': [() => errorResponse(500, 'INTERNAL', 'boom'), () => json(200, candles)],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load chart');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByText('105.50')).toBeInTheDocument();
  });
});
