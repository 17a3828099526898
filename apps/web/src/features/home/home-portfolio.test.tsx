import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../test/fetch-mock.ts';
import { renderApp } from '../../test/render-app.tsx';
import { signIn } from '../futures/futures-test-fixtures.ts';
import { emptySummary, makeSummary } from '../portfolio/portfolio-test-fixtures.ts';

const LAZY = { timeout: 5000 };

function stub(summary: unknown) {
  signIn();
  return stubFetch({
    'GET /v1/portfolio': () => json(200, summary),
    'GET /v1/trading-pairs': () => json(200, []),
    'GET /v1/watchlist': () => json(200, { pair_ids: [] }),
  });
}

describe('/ (signed in): the portfolio card', () => {
  it('shows the same total and 24 h change as /portfolio, and the largest holdings', async () => {
    const calls = stub(makeSummary());
    renderApp('/');
    expect(await screen.findByTestId('home-portfolio-total', {}, LAZY)).toHaveTextContent('$10,585.41');
    expect(screen.getByTestId('home-portfolio-change')).toHaveTextContent('+$185.31 (+1.78%)');
    const rows = within(screen.getByTestId('home-portfolio-holdings')).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('BTC');
    expect(rows[0]).toHaveTextContent('$7,422.41');
    expect(rows[0]).toHaveTextContent('70.12%');
    expect(rows.at(-1)).toHaveTextContent('Futures');
    expect(rows.at(-1)).toHaveTextContent('$1,115.00');
    expect(screen.getByTestId('home-portfolio-open')).toHaveAttribute('href', '/portfolio');
    expect(calls.calls.filter((call) => call.path === '/v1/portfolio').length).toBeGreaterThan(0);
  });

  it('invites a new account to deposit instead of showing zeros', async () => {
    stub(emptySummary());
    renderApp('/');
    expect(await screen.findByTestId('home-portfolio-empty', {}, LAZY)).toHaveTextContent('Deposit');
    expect(screen.queryByTestId('home-portfolio-total')).toBeNull();
  });

  it('is not shown signed out', async () => {
    stubFetch({ 'GET /v1/trading-pairs': () => json(200, []) });
    renderApp('/');
    expect(await screen.findByTestId('hero-register', {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByTestId('home-portfolio')).toBeNull();
  });
});
