import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { createMarketData, FakeWebSocketServer, replaceMarketData } from '../market-data/testing.ts';

/**
 * The chart library draws on a canvas jsdom does not have: a recording stand-in. Like the real
 * library, a removed chart's series throw 'Object is disposed' when called.
 */
type FakeSeries = {
  setData: ReturnType<typeof vi.fn>;
  update: (...args: unknown[]) => void;
  lines: Array<{ price: number; title: string }>;
};
const charts = vi.hoisted(() => ({
  series: [] as FakeSeries[],
  created: 0,
  applied: [] as Array<ReturnType<typeof vi.fn>>,
}));
vi.mock('lightweight-charts', () => {
  const live = (chart: { disposed: boolean }) => {
    if (chart.disposed) throw new Error('Object is disposed');
  };
  const series = (chart: { disposed: boolean }) => () => {
    const lines: Array<{ price: number; title: string }> = [];
    const one = {
      lines,
      setData: vi.fn(() => live(chart)),
      update: vi.fn(() => live(chart)),
      applyOptions: vi.fn(() => live(chart)),
      createPriceLine: vi.fn((options: { price: number; title: string }) => {
        live(chart);
        lines.push(options);
        return options;
      }),
      removePriceLine: vi.fn((line: { price: number; title: string }) => {
        live(chart);
        lines.splice(lines.indexOf(line), 1);
      }),
    };
    charts.series.push(one);
    return one;
  };
  return {
    ColorType: { Solid: 'solid' },
    TickMarkType: { Year: 0, Month: 1, DayOfMonth: 2, Time: 3, TimeWithSeconds: 4 },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    createChart: vi.fn(() => {
      charts.created += 1;
      const chart = { disposed: false };
      const applyOptions = vi.fn(() => live(chart));
      charts.applied.push(applyOptions);
      return {
        addSeries: vi.fn(series(chart)),
        priceScale: () => ({ applyOptions: vi.fn() }),
        applyOptions,
        timeScale: () => ({ fitContent: vi.fn() }),
        subscribeCrosshairMove: vi.fn(),
        unsubscribeCrosshairMove: vi.fn(),
        remove: vi.fn(() => {
          live(chart);
          chart.disposed = true;
        }),
      };
    }),
  };
});

const { PriceChart } = await import('./price-chart.tsx');
type PriceChartProps = Parameters<typeof PriceChart>[0];

const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);
const candles = {
  pair_id: 'BTC_USD',
  interval: '1h',
  candles: [
    { time: T0 - 3_600_000, open: '100.00', high: '110.00', low: '95.00', close: '105.00', volume: '3' },
    { time: T0, open: '105.00', high: '106.00', low: '104.00', close: '105.50', volume: '1.5' },
  ],
};

function renderChart(routes: Parameters<typeof stubFetch>[0], props: Partial<PriceChartProps> = {}) {
  const server = new FakeWebSocketServer();
  replaceMarketData(createMarketData({ createSocket: server.create, url: () => 'ws://test/ws' }));
  const { calls } = stubFetch({ 'GET /v1/trading-pairs': () => json(200, []), ...routes });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <PriceChart pairId="BTC_USD" {...props} />
    </QueryClientProvider>,
  );
  return { server, calls, user: userEvent.setup(), unmount: view.unmount };
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

  it('gives the crosshair the time of day for intraday candles and the date alone for daily ones', async () => {
    const { user } = renderChart({ 'GET /v1/market/BTC_USD/candles': () => json(200, candles) });
    await screen.findByText('105.50');
    const applyOptions = charts.applied.at(-1)!;
    const lastTimeLabel = () => {
      const options = applyOptions.mock.calls
        .map(([given]) => given as { localization?: { timeFormatter?: (time: number) => string } })
        .filter((given) => given.localization?.timeFormatter)
        .at(-1);
      return options?.localization?.timeFormatter?.(T0 / 1000) ?? '';
    };
    expect(lastTimeLabel()).toMatch(/\d\d:\d\d/);
    await user.click(screen.getByTestId('chart-range-1Y'));
    await waitFor(() => expect(lastTimeLabel()).not.toMatch(/\d\d:\d\d/));
    expect(lastTimeLabel()).toMatch(/2026/);
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

describe('PriceChart price line (the futures mark price)', () => {
  const route = { 'GET /v1/market/BTC_USD/candles': () => json(200, candles) };
  const priceLine = { price: '105.25', title: 'Mark' };
  /** Errors thrown by effects and their clean-ups reach the window, as in a browser. */
  function windowErrors() {
    const errors: unknown[] = [];
    const listener = (event: ErrorEvent) => {
      errors.push(event.error);
      event.preventDefault();
    };
    window.addEventListener('error', listener);
    return { errors, stop: () => window.removeEventListener('error', listener) };
  }

  it('draws the line and leaves the removed chart alone on unmount', async () => {
    const watch = windowErrors();
    const { unmount } = renderChart(route, { priceLine });
    await screen.findByText('105.50');
    const [candleSeries] = charts.series.slice(-2);
    expect(candleSeries?.lines).toEqual([expect.objectContaining({ price: 105.25, title: 'Mark' })]);
    unmount();
    watch.stop();
    expect(watch.errors).toEqual([]);
  });

  it('draws the line again on the chart made for a new language', async () => {
    const watch = windowErrors();
    const { unmount } = renderChart(route, { priceLine });
    await screen.findByText('105.50');
    const before = charts.created;
    try {
      await act(() => i18n.changeLanguage('de'));
      expect(charts.created).toBe(before + 1);
      const [candleSeries] = charts.series.slice(-2);
      expect(candleSeries?.lines).toEqual([expect.objectContaining({ price: 105.25 })]);
      // The new chart holds the candles too, not an empty pane.
      expect(candleSeries?.setData).toHaveBeenLastCalledWith([
        { time: (T0 - 3_600_000) / 1000, open: 100, high: 110, low: 95, close: 105 },
        { time: T0 / 1000, open: 105, high: 106, low: 104, close: 105.5 },
      ]);
    } finally {
      await act(() => i18n.changeLanguage('en'));
      unmount();
      watch.stop();
    }
    expect(watch.errors).toEqual([]);
  });
});
