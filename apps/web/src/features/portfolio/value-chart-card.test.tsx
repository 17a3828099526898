import type { PortfolioHistory, PortfolioHistoryPoint } from '@platform/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { createChart } from 'lightweight-charts';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeMarket, signIn } from '../futures/futures-test-fixtures.ts';
import { chartPoints, rangeChange } from './portfolio-history-model.ts';
import { makeSummary } from './portfolio-test-fixtures.ts';

/** The chart library draws on a canvas jsdom does not have: a recording stand-in. */
const charts = vi.hoisted(() => ({
  series: [] as Array<{ setData: ReturnType<typeof vi.fn>; applyOptions: ReturnType<typeof vi.fn> }>,
  crosshair: [] as Array<(param: { time?: number }) => void>,
  removed: 0,
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
    AreaSeries: 'Area',
    createChart: vi.fn(() => ({
      addSeries: vi.fn(series),
      priceScale: () => ({ applyOptions: vi.fn() }),
      applyOptions: vi.fn(),
      timeScale: () => ({ fitContent: vi.fn() }),
      subscribeCrosshairMove: vi.fn((handler: (param: { time?: number }) => void) => charts.crosshair.push(handler)),
      unsubscribeCrosshairMove: vi.fn(),
      remove: vi.fn(() => {
        charts.removed++;
      }),
    })),
  };
});

const LAZY = { timeout: 5000 };
const H = Date.UTC(2026, 10, 20, 0, 0, 0);
const HOUR = 3_600_000;

function point(atMs: number, total: string, flow: string, live = false): PortfolioHistoryPoint {
  return {
    at: new Date(atMs).toISOString(),
    total_value: total,
    spot_value: total,
    futures_equity: '0',
    net_flow: flow,
    live,
  };
}

/** A week: 10,000.5 at first, a deposit of 2,500 on the way, 13,085.41 now (a gain of 584.91: 5.85 % of the first value, half to even). */
function history(range = '1W', points?: PortfolioHistoryPoint[]): PortfolioHistory {
  return {
    currency: 'USD',
    range: range as PortfolioHistory['range'],
    granularity: range === '1D' || range === '1W' ? 'hour' : 'day',
    points: points ?? [
      point(H, '10000.5', '10000.5'),
      point(H + HOUR, '12600.123456789', '2500'),
      point(H + 2 * HOUR, '13085.41', '0', true),
    ],
  };
}

/** The app's reads answered; `answer` gives the history. Returns the ranges asked for, in order. */
function stub(answer: () => Response): () => string[] {
  signIn();
  const { fetchMock } = stubFetch({
    'GET /v1/portfolio': () => json(200, makeSummary()),
    'GET /v1/portfolio/history': () => answer(),
    'GET /v1/futures/markets': () => json(200, { markets: [makeMarket()] }),
    'GET /v1/trading-pairs': () => json(200, []),
  });
  return () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === '/v1/portfolio/history')
      .map((url) => url.searchParams.get('range') ?? '');
}

describe('value over time on /portfolio', () => {
  it('draws the points, shows the change over the range without the deposit, and the value under the crosshair', async () => {
    const asked = stub(() => json(200, history()));
    renderApp('/portfolio');
    expect(await screen.findByTestId('portfolio-history-change', {}, LAZY)).toHaveTextContent('+$584.91 (+5.85%)');
    expect(screen.getByTestId('portfolio-history-change')).toHaveClass('up');
    expect(screen.getByTestId('portfolio-history-flows')).toHaveTextContent('+$2,500.00');
    expect(screen.getByTestId('portfolio-history-value')).toHaveTextContent('Value now $13,085.41');
    expect(screen.getByTestId('portfolio-history-range-1W')).toHaveAttribute('aria-pressed', 'true');
    const area = charts.series.at(-1)!;
    await waitFor(() =>
      expect(area.setData).toHaveBeenLastCalledWith([
        { time: H / 1000, value: 10000.5 },
        { time: (H + HOUR) / 1000, value: 12600.123456789 },
        { time: (H + 2 * HOUR) / 1000, value: 13085.41 },
      ]),
    );
    act(() => charts.crosshair.at(-1)!({ time: (H + HOUR) / 1000 }));
    expect(screen.getByTestId('portfolio-history-value')).toHaveTextContent('$12,600.12');
    expect(screen.getByTestId('portfolio-history-value')).toHaveTextContent(/^Value on /);
    act(() => charts.crosshair.at(-1)!({}));
    expect(screen.getByTestId('portfolio-history-value')).toHaveTextContent('Value now');
    expect(asked()).toEqual(['1W']);
  });

  it('asks for the range chosen and says which one is pressed', async () => {
    const asked = stub(() => json(200, history()));
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-history-change', {}, LAZY);
    for (const range of ['1D', '1M', '3M', '1Y', 'all']) {
      await user.click(screen.getByTestId(`portfolio-history-range-${range}`));
      expect(screen.getByTestId(`portfolio-history-range-${range}`)).toHaveAttribute('aria-pressed', 'true');
      expect(screen.getByTestId('portfolio-history-range-1W')).toHaveAttribute('aria-pressed', 'false');
      await waitFor(() => expect(asked().at(-1)).toBe(range));
    }
    expect(screen.getByTestId('portfolio-history-range-all')).toHaveTextContent('All');
  });

  it('a loss is shown down, in the API’s figures', async () => {
    stub(() => json(200, history('1D', [point(H, '500', '0'), point(H + HOUR, '-20.25', '0', true)])));
    renderApp('/portfolio');
    const change = await screen.findByTestId('portfolio-history-change', {}, LAZY);
    expect(change).toHaveTextContent('-$520.25 (-104.05%)');
    expect(change).toHaveClass('down');
  });

  it('with only the live point: the history starts today', async () => {
    stub(() => json(200, history('1W', [point(H, '250', '0', true)])));
    renderApp('/portfolio');
    expect(await screen.findByTestId('portfolio-history-empty', {}, LAZY)).toHaveTextContent(
      'Your history starts today',
    );
    expect(screen.queryByTestId('portfolio-history-chart')).not.toBeInTheDocument();
  });

  it('says so when the history cannot be read, and reads it again on request', async () => {
    let failures = 2;
    stub(() => {
      if (failures-- > 0) return errorResponse(500, 'INTERNAL_ERROR', 'boom');
      return json(200, history());
    });
    const { user } = renderApp('/portfolio');
    expect(await screen.findByTestId('portfolio-history-error', {}, LAZY)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('portfolio-history-change', {}, LAZY)).toBeInTheDocument();
  });
});

describe('portfolio history model', () => {
  it('keeps the line strictly increasing: a point in the same second replaces the one before', () => {
    const points = [point(H, '1', '0'), point(H + 400, '2', '0', true)];
    expect(chartPoints(points)).toEqual([{ time: H / 1000, value: 2 }]);
  });

  it('computes the change exactly, flows after the first point left out, and no percent from zero', () => {
    const change = rangeChange([point(H, '0', '0'), point(H + HOUR, '100.000000000000000001', '100', true)]);
    expect(change).toMatchObject({ gain: '0.000000000000000001', percent: null, flows: '100' });
    expect(rangeChange([point(H, '1', '0', true)])).toBeNull();
  });
});

describe('the value chart speaks the interface language', () => {
  it('writes its axes in the language and follows a switch without being made again', async () => {
    stub(() => json(200, history()));
    renderApp('/portfolio');
    await screen.findByTestId('portfolio-history-change', {}, LAZY);
    const made = vi.mocked(createChart).mock.calls.at(-1)?.[1] as {
      localization: { locale: string; priceFormatter: (value: number) => string; timeFormatter: unknown };
      timeScale: { tickMarkFormatter: unknown };
    };
    expect(made.localization.locale).toBe('en');
    expect(made.localization.priceFormatter(12600.123456789)).toBe('12,600.12');
    expect(made.localization.timeFormatter).toBeTypeOf('function');
    expect(made.timeScale.tickMarkFormatter).toBeTypeOf('function');
    const chart = vi.mocked(createChart).mock.results.at(-1)?.value as { applyOptions: ReturnType<typeof vi.fn> };
    const count = vi.mocked(createChart).mock.calls.length;
    try {
      await act(() => i18n.changeLanguage('de'));
      expect(chart.applyOptions).toHaveBeenCalledWith({ localization: { locale: 'de' } });
      expect(vi.mocked(createChart).mock.calls.length).toBe(count);
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
