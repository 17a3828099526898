import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeMarket, signIn } from '../futures/futures-test-fixtures.ts';
import { makeSummary } from './portfolio-test-fixtures.ts';

const LAZY = { timeout: 5000 };
const CSV_HEADER = 'Date,Product,Market,Side,Role,Price,Amount,Total,Fee,Fee Currency,Realised P&L,Order ID,Trade ID';

function csv(body: string, filename: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
    },
  });
}

/** The screen's reads, the export routes given, and the browser's file saving watched. */
function setUp(exportRoutes: Record<string, () => Response | Promise<Response>>) {
  signIn();
  const stubbed = stubFetch({
    'GET /v1/portfolio': () => json(200, makeSummary()),
    'GET /v1/futures/markets': () => json(200, { markets: [makeMarket()] }),
    'GET /v1/trading-pairs': () => json(200, []),
    ...exportRoutes,
  });
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:export';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  const urls = () => stubbed.fetchMock.mock.calls.map(([input]) => String(input));
  return { ...stubbed, blobs, saved, urls };
}

describe('/portfolio exports card', () => {
  it('downloads a period of trades with the token and saves it under the server’s name', async () => {
    const body = `${CSV_HEADER}\r\n2026-01-05T10:00:00Z,spot,BTC/USD,buy,taker,50000,0.1,5000,5,USD,,o1,t1\r\n`;
    const { blobs, saved, urls, calls } = setUp({
      'GET /v1/exports/trades.csv': () => csv(body, 'meridian-trades-2026-01-01-to-2026-01-31.csv'),
    });
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-exports', {}, LAZY);
    await user.type(screen.getByTestId('exports-from'), '2026-01-01');
    await user.type(screen.getByTestId('exports-to'), '2026-01-31');
    await user.click(screen.getByTestId('export-trades'));
    expect(await screen.findByText('Your trades file is downloading.')).toBeInTheDocument();
    expect(urls()).toContain('/v1/exports/trades.csv?from=2026-01-01&to=2026-01-31');
    const call = calls.find((entry) => entry.path === '/v1/exports/trades.csv');
    expect(call?.headers.Authorization).toBe('Bearer token');
    expect(saved).toEqual(['meridian-trades-2026-01-01-to-2026-01-31.csv']);
    expect(await blobs[0]?.text()).toBe(body);
  });

  it('without dates asks for the whole history; one download at a time, busy in words', async () => {
    let answer: (response: Response) => void = () => {};
    const { urls, saved } = setUp({
      'GET /v1/exports/withdrawals.csv': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-exports', {}, LAZY);
    await user.click(screen.getByTestId('export-withdrawals'));
    expect(await screen.findByText('Preparing your withdrawals file…')).toBeInTheDocument();
    for (const id of ['export-trades', 'export-transfers', 'export-deposits', 'export-withdrawals', 'export-tax']) {
      expect(screen.getByTestId(id)).toBeDisabled();
    }
    expect(screen.getByTestId('export-withdrawals')).toHaveAttribute('aria-busy', 'true');
    expect(urls()).toContain('/v1/exports/withdrawals.csv');
    answer(csv('Date\r\n', 'meridian-withdrawals-start-to-2026-11-26.csv'));
    expect(await screen.findByText('Your withdrawals file is downloading.')).toBeInTheDocument();
    expect(screen.getByTestId('export-trades')).toBeEnabled();
    expect(saved).toEqual(['meridian-withdrawals-start-to-2026-11-26.csv']);
  });

  it('refuses a period that ends before it starts', async () => {
    const { urls } = setUp({});
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-exports', {}, LAZY);
    await user.type(screen.getByTestId('exports-from'), '2026-03-02');
    await user.type(screen.getByTestId('exports-to'), '2026-03-01');
    expect(screen.getByTestId('exports-period-error')).toHaveTextContent(
      'The start date must not be after the end date.',
    );
    expect(screen.getByTestId('export-deposits')).toBeDisabled();
    expect(urls().some((url) => url.includes('/v1/exports/'))).toBe(false);
  });

  it('downloads the tax report of the chosen year and lot method', async () => {
    const year = new Date().getUTCFullYear() - 1;
    const { urls, saved } = setUp({
      'GET /v1/portfolio/tax-report.csv': () => csv('Date Acquired\r\n', `realised-gains-${year}-hifo.csv`),
    });
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-exports', {}, LAZY);
    expect(screen.getByTestId('exports-year')).toHaveValue(String(year + 1));
    await user.selectOptions(screen.getByTestId('exports-year'), String(year));
    await user.selectOptions(screen.getByTestId('exports-method'), 'hifo');
    await user.click(screen.getByTestId('export-tax'));
    expect(await screen.findByText('Your tax report file is downloading.')).toBeInTheDocument();
    expect(urls()).toContain(`/v1/portfolio/tax-report.csv?year=${year}&method=hifo`);
    expect(saved).toEqual([`realised-gains-${year}-hifo.csv`]);
  });

  it('says what went wrong in words: the server’s message, else a plain one', async () => {
    setUp({
      'GET /v1/exports/deposits.csv': () => errorResponse(400, 'VALIDATION_ERROR', 'Invalid request parameters'),
      'GET /v1/exports/transfers.csv': () => new Response('oops', { status: 502 }),
    });
    const { user } = renderApp('/portfolio');
    await screen.findByTestId('portfolio-exports', {}, LAZY);
    await user.click(screen.getByTestId('export-deposits'));
    expect(await screen.findByTestId('exports-error')).toHaveTextContent('Invalid request parameters');
    await user.click(screen.getByTestId('export-transfers'));
    await waitFor(() =>
      expect(screen.getByTestId('exports-error')).toHaveTextContent(
        'The file could not be prepared. Please try again.',
      ),
    );
  });
});
