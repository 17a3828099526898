import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { signIn } from '../futures/futures-test-fixtures.ts';
import { calendarWeeks, isValidRange, presetRange } from './analytics-model.ts';
import { emptyAnalytics, makeAnalytics } from './analytics-test-fixtures.ts';

const LAZY = { timeout: 5000 };

function stub(answer: unknown | (() => Response) = makeAnalytics()) {
  signIn();
  return stubFetch({
    'GET /v1/analytics': typeof answer === 'function' ? (answer as () => Response) : () => json(200, answer),
    'GET /v1/trading-pairs': () => json(200, []),
  });
}

const analyticsUrls = (fetchMock: ReturnType<typeof stub>['fetchMock']) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/v1/analytics');

describe('/analytics', () => {
  it('shows every tile as the API figure at USD precision', async () => {
    stub();
    renderApp('/analytics');
    const tile = async (key: string) => (await screen.findByTestId(`analytics-tile-${key}`, {}, LAZY)).textContent;
    expect(await tile('pnl')).toBe('-$305.57');
    expect(screen.getByTestId('analytics-tile-pnl')).toHaveClass('down');
    expect(await tile('win-rate')).toBe('66.67%');
    expect(await tile('profit-factor')).toBe('0.26');
    expect(await tile('volume')).toBe('$18,810.12');
    expect(await tile('trades')).toBe('6');
    expect(await tile('fees')).toBe('$18.20');
    expect(await tile('funding-paid')).toBe('$0.06');
    expect(await tile('funding-received')).toBe('$0.00');
    expect(await tile('average-win')).toBe('$52.35');
    expect(await tile('average-loss')).toBe('-$410.00');
    // No liquidation in the period: no tile for it.
    expect(screen.queryByTestId('analytics-tile-liquidation-fees')).toBeNull();
    expect(screen.queryByTestId('analytics-tile-insurance-cleared')).toBeNull();
    expect(screen.getByTestId('analytics-twr')).toHaveTextContent('-1.00%');
    expect(screen.getByTestId('analytics-drawdown')).toHaveTextContent('10.00%');
    expect(screen.getByTestId('analytics-equity-chart')).toHaveAttribute(
      'aria-label',
      'Time-weighted return from 2026-03-12 to 2026-03-14 -1.00%; maximum drawdown 10.00%.',
    );
  });

  it('shows liquidation fees and what the insurance fund covered when the period had them', async () => {
    stub(makeAnalytics({ liquidation_fees: '20', insurance_cleared: '0.005' }));
    renderApp('/analytics');
    const fees = await screen.findByTestId('analytics-tile-liquidation-fees', {}, LAZY);
    expect(fees).toHaveTextContent('$20.00');
    expect(fees.closest('.an-tile')).toHaveAttribute('title', expect.stringContaining('included in the realised P&L'));
    expect(screen.getByTestId('analytics-tile-insurance-cleared')).toHaveTextContent('$0.01');
    expect(screen.getByText('Liquidation fees')).toBeInTheDocument();
    expect(screen.getByText('Covered by the insurance fund')).toBeInTheDocument();
  });

  it('draws the heat map: one cell per day of the period, coloured and labelled', async () => {
    stub();
    renderApp('/analytics');
    const calendar = await screen.findByTestId('analytics-calendar', {}, LAZY);
    // 1–14 March 2026: Sunday to Saturday, three Monday-first weeks, 14 days labelled.
    expect(within(calendar).getAllByRole('listitem')).toHaveLength(14);
    const loss = screen.getByTestId('analytics-day-2026-03-05');
    expect(loss).toHaveClass('an-loss');
    expect(loss).toHaveAttribute('data-level', '4');
    expect(loss).toHaveAttribute('aria-label', '2026-03-05: -$410.00, 1 closed trades');
    expect(loss).toHaveAttribute('title', '2026-03-05: -$410.00, 1 closed trades');
    expect(loss).toHaveAttribute('tabindex', '0');
    const gain = screen.getByTestId('analytics-day-2026-03-03');
    expect(gain).toHaveClass('an-gain');
    expect(gain).toHaveAttribute('data-level', '1');
    expect(gain).toHaveAttribute('aria-label', '2026-03-03: +$94.90, 1 closed trades');
    const quiet = screen.getByTestId('analytics-day-2026-03-02');
    expect(quiet).toHaveAttribute('aria-label', '2026-03-02: no realised P&L');
    expect(quiet).not.toHaveAttribute('tabindex');
  });

  it('lists P&L by asset as bars and the best and worst trades', async () => {
    stub();
    renderApp('/analytics');
    const perp = await screen.findByTestId('analytics-asset-futures:BTC_USD_PERP', {}, LAZY);
    expect(perp).toHaveTextContent('BTC-PERP');
    expect(perp).toHaveTextContent('+$9.53');
    expect(screen.getByTestId('analytics-asset-spot:BTC')).toHaveTextContent('-$315.10');
    expect(screen.getByTestId('analytics-best-trade')).toHaveTextContent('+$94.90');
    expect(screen.getByTestId('analytics-best-trade')).toHaveTextContent('2026-03-03 10:15 UTC');
    expect(screen.getByTestId('analytics-worst-trade')).toHaveTextContent('-$410.00');
  });

  it('an account that never traded sees the empty state with a link to trade', async () => {
    stub(emptyAnalytics());
    renderApp('/analytics');
    expect(await screen.findByTestId('analytics-empty', {}, LAZY)).toBeInTheDocument();
    expect(screen.getByTestId('analytics-empty-trade')).toHaveAttribute('href', '/trade');
    expect(screen.queryByTestId('analytics-tiles')).not.toBeInTheDocument();
  });

  it('shows a skeleton while loading, then an error with a retry that reads again', async () => {
    signIn();
    // Two failures: the first read and its one retry.
    stubFetch({
      'GET /v1/analytics': [
        () => errorResponse(500, 'INTERNAL_ERROR', 'boom'),
        () => errorResponse(500, 'INTERNAL_ERROR', 'boom'),
        () => json(200, makeAnalytics()),
      ],
      'GET /v1/trading-pairs': () => json(200, []),
    });
    const { user } = renderApp('/analytics');
    expect(await screen.findByTestId('analytics-loading', {}, LAZY)).toHaveAttribute('aria-busy', 'true');
    const failed = await screen.findByTestId('analytics-error', {}, { timeout: 8000 });
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('analytics-tile-pnl', {}, LAZY)).toHaveTextContent('-$305.57');
  });

  it('reads the period picked: a preset, then a custom one', async () => {
    const { fetchMock } = stub();
    const { user } = renderApp('/analytics');
    await screen.findByTestId('analytics-tiles', {}, LAZY);
    const first = analyticsUrls(fetchMock)[0];
    const thirty = presetRange('30d', new Date());
    expect([first?.searchParams.get('from'), first?.searchParams.get('to')]).toEqual([thirty.from, thirty.to]);
    expect(screen.getByTestId('analytics-period-30d')).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('analytics-period-7d'));
    const seven = presetRange('7d', new Date());
    await waitFor(() => expect(analyticsUrls(fetchMock).at(-1)?.searchParams.get('from')).toBe(seven.from));
    expect(screen.getByTestId('analytics-period-7d')).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('analytics-period-custom'));
    const from = screen.getByTestId('analytics-custom-from');
    await user.clear(from);
    await user.type(from, '2026-01-10');
    const to = screen.getByTestId('analytics-custom-to');
    await user.clear(to);
    await user.type(to, '2026-01-05');
    expect(screen.getByTestId('analytics-custom-apply')).toBeDisabled();
    await user.clear(to);
    await user.type(to, '2026-02-10');
    await user.click(screen.getByTestId('analytics-custom-apply'));
    await waitFor(() => {
      const last = analyticsUrls(fetchMock).at(-1);
      expect([last?.searchParams.get('from'), last?.searchParams.get('to')]).toEqual(['2026-01-10', '2026-02-10']);
    });
    expect(screen.getByTestId('analytics-period-custom')).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('analytics model', () => {
  it('pads the heat map to whole Monday-first weeks', () => {
    const weeks = calendarWeeks({ from: '2026-03-01', to: '2026-03-14' }, []);
    expect(weeks).toHaveLength(3);
    expect(weeks[0]?.[0]).toMatchObject({ date: '2026-02-23', outside: true });
    expect(weeks[0]?.[6]).toMatchObject({ date: '2026-03-01', outside: false, level: 0 });
    expect(weeks[2]?.[6]).toMatchObject({ date: '2026-03-15', outside: true });
  });

  it('accepts only periods the server takes', () => {
    expect(isValidRange({ from: '2026-01-01', to: '2026-01-01' })).toBe(true);
    expect(isValidRange({ from: '2026-01-02', to: '2026-01-01' })).toBe(false);
    expect(isValidRange({ from: '2024-01-01', to: '2024-12-31' })).toBe(true);
    expect(isValidRange({ from: '2024-01-01', to: '2025-01-01' })).toBe(false);
    expect(isValidRange({ from: '2026-02-30', to: '2026-03-01' })).toBe(false);
    expect(isValidRange({ from: '', to: '' })).toBe(false);
  });
});
