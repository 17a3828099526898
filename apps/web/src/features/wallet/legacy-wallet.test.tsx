import type { Conversion, ConversionQuote, QuickTrade, WalletBalance } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';

const balances: WalletBalance[] = [
  { currency: 'BTC', available: '0.5', locked: '0' },
  { currency: 'ETH', available: '0', locked: '0' },
  { currency: 'USDT', available: '10.509', locked: '0' },
];

const spread = { percent: '0.5', amount: '0.00000041', currency: 'BTC' };

function makeQuote(overrides: Partial<ConversionQuote> = {}): ConversionQuote {
  return {
    quote_id: 'q-1',
    from_currency: 'USDT',
    to_currency: 'BTC',
    from_amount: '5',
    to_amount: '0.00008250',
    rate: '0.0000165',
    spread,
    price_source: 'order_book',
    route: ['USDT', 'BTC'],
    expires_at: '2030-01-01T00:00:15.000Z',
    valid_for_seconds: 15,
    ...overrides,
  };
}

const conversion: Conversion = {
  id: 'c-1',
  kind: 'conversion',
  status: 'completed',
  quote_id: 'q-1',
  from_currency: 'USDT',
  to_currency: 'BTC',
  from_amount: '5',
  to_amount: '0.0000825',
  rate: '0.0000165',
  spread,
  price_source: 'order_book',
  route: ['USDT', 'BTC'],
  created_at: '2026-01-01T10:00:00.000Z',
};

const trade: QuickTrade = {
  id: 't-1',
  status: 'completed',
  trade_type: 'market',
  sell_currency: 'USDT',
  buy_currency: 'BTC',
  sell_amount: '5',
  buy_amount: '0.0000825',
  target_amount: '0.00008',
  rate: '0.0000165',
  spread,
  price_source: 'order_book',
  route: ['USDT', 'BTC'],
  created_at: '2026-01-01T11:00:00.000Z',
};

/** The quote answers what was asked (pair and amount), as the server does. */
const quoteFor = (url: URL, overrides: Partial<ConversionQuote> = {}) =>
  makeQuote({
    from_currency: (url.searchParams.get('from_currency') ?? 'usdt').toUpperCase(),
    to_currency: (url.searchParams.get('to_currency') ?? 'btc').toUpperCase(),
    from_amount: url.searchParams.get('from_amount') ?? '5',
    ...overrides,
  });

function stubDesk(extra: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances }),
    'GET /v1/wallet/transactions': () => json(200, { transactions: [], total: 0, page: 1, limit: 20 }),
    'GET /api/v1/conversions/pairs': () =>
      json(200, {
        currencies: ['BTC', 'ETH', 'USDT'],
        pairs: [
          { from_currency: 'USDT', to_currency: 'BTC', route: ['USDT', 'BTC'] },
          { from_currency: 'BTC', to_currency: 'USDT', route: ['BTC', 'USDT'] },
          { from_currency: 'USDT', to_currency: 'ETH', route: ['USDT', 'ETH'] },
          { from_currency: 'ETH', to_currency: 'BTC', route: ['ETH', 'USD', 'BTC'] },
        ],
      }),
    'GET /api/v1/conversions/supported': () => json(200, { supported: true }),
    'GET /api/v1/conversions/history': () => json(200, { conversions: [] }),
    'GET /api/v1/trade/history': () => json(200, { trades: [] }),
    ...extra,
  });
  return stub;
}

const estimateCalls = (fetchMock: ReturnType<typeof stubFetch>['fetchMock']) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/v1/conversions/estimate');

async function openLegacy() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const app = renderApp('/wallet?tab=legacy');
  expect(await screen.findByTestId('legacy-wallet', undefined, { timeout: 5_000 })).toBeInTheDocument();
  return app;
}

/**
 * An estimate handler that answers for the pair and amount asked: stubFetch hands handlers no query
 * string, so fetch is wrapped to note the last URL (the handler runs in the same tick).
 */
function echoEstimate(overrides: Partial<ConversionQuote> = {}) {
  let lastUrl = new URL('http://localhost/');
  const originalFetch = globalThis.fetch;
  return {
    install() {
      const wrapped = globalThis.fetch;
      globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
        lastUrl = new URL(String(input), 'http://localhost');
        return wrapped(input, init);
      }) as typeof fetch;
      return () => {
        globalThis.fetch = originalFetch;
      };
    },
    handler: () => json(200, quoteFor(lastUrl, overrides)),
  };
}

describe('Legacy Wallet: convert (spec §3.5 Conversion, §7.3, §7.8)', { timeout: 20_000 }, () => {
  it('quotes the typed amount after a pause and shows rate, receive, spread and validity, then converts once', async () => {
    const echo = echoEstimate();
    const { fetchMock, calls } = stubDesk({
      'GET /api/v1/conversions/estimate': echo.handler,
      'POST /api/v1/conversions': () => json(201, conversion),
    });
    echo.install();
    const { user } = await openLegacy();

    expect(await screen.findByTestId('convert-from-available')).toHaveTextContent('Available 10.50 USDT');
    expect(screen.getByTestId('convert-quote')).toHaveTextContent('Enter an amount to get a quote.');
    await user.type(screen.getByTestId('convert-amount'), '5');

    const figures = await screen.findByTestId('convert-figures', undefined, { timeout: 3_000 });
    expect(within(figures).getByTestId('convert-rate')).toHaveTextContent('1 USDT = 0.0000165 BTC');
    expect(within(figures).getByTestId('convert-receive')).toHaveTextContent('0.0000825 BTC');
    expect(within(figures).getByTestId('convert-spread')).toHaveTextContent('0.5% · 0.00000041 BTC, included');
    expect(screen.getByTestId('convert-countdown')).toHaveTextContent(/Quote valid for 1[45] seconds/);
    expect(screen.getByTestId('convert-readout')).toHaveTextContent('0.0000825');
    const asked = estimateCalls(fetchMock);
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]?.searchParams ?? [])).toEqual({
      from_currency: 'usdt',
      to_currency: 'btc',
      from_amount: '5',
    });

    await user.click(screen.getByTestId('convert-submit'));
    expect(await screen.findByTestId('convert-result')).toHaveTextContent('Paid 5 USDT · Received 0.0000825 BTC');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ from_currency: 'usdt', to_currency: 'btc', from_amount: '5', quote_id: 'q-1' });
    expect(posts[0]?.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);
    expect(screen.getByTestId('convert-amount')).toHaveValue('');
  });

  it('offers the balance through Max, and checks decimals and the balance in the spec words', async () => {
    stubDesk({ 'GET /api/v1/conversions/estimate': () => json(200, makeQuote({ from_amount: '10.5' })) });
    const { user } = await openLegacy();
    await screen.findByTestId('convert-from-available');
    await user.click(screen.getByTestId('convert-from-max'));
    // USDT has 2 decimals: 10.509 is offered as 10.50, never rounded up.
    expect(screen.getByTestId('convert-amount')).toHaveValue('10.5');

    await user.clear(screen.getByTestId('convert-amount'));
    await user.type(screen.getByTestId('convert-amount'), '11');
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();

    await user.clear(screen.getByTestId('convert-amount'));
    await user.type(screen.getByTestId('convert-amount'), '1.005');
    await user.tab();
    expect(await screen.findByText('Amount has more than 2 decimals for USDT')).toBeInTheDocument();
  });

  it('says a pair is not supported when the check says no, or fails (§7.8), and asks no estimate', async () => {
    const { fetchMock } = stubDesk({
      'GET /api/v1/conversions/supported': () => errorResponse(500, 'INTERNAL_ERROR', 'Something went wrong'),
      'GET /api/v1/conversions/estimate': () => json(200, makeQuote()),
    });
    const { user } = await openLegacy();
    expect(await screen.findByTestId('convert-not-supported')).toHaveTextContent(
      'Converting USDT to BTC is not supported.',
    );
    await user.type(screen.getByTestId('convert-amount'), '5');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(estimateCalls(fetchMock)).toHaveLength(0);
  });

  it('counts a quote down and offers a new one when it expires', async () => {
    const echo = echoEstimate({ valid_for_seconds: 1 });
    const { fetchMock } = stubDesk({ 'GET /api/v1/conversions/estimate': echo.handler });
    echo.install();
    const { user } = await openLegacy();
    await user.type(screen.getByTestId('convert-amount'), '5');
    expect(await screen.findByTestId('convert-requote', undefined, { timeout: 4_000 })).toBeInTheDocument();
    expect(screen.getByTestId('convert-countdown')).toHaveTextContent('Quote expired');
    expect(screen.getByTestId('convert-submit')).toBeDisabled();
    await user.click(screen.getByTestId('convert-requote'));
    await waitFor(() => expect(estimateCalls(fetchMock)).toHaveLength(2));
  });

  it("shows the server's text on QUOTE_EXPIRED and gets a new quote on request", async () => {
    const echo = echoEstimate();
    const { fetchMock } = stubDesk({
      'GET /api/v1/conversions/estimate': echo.handler,
      'POST /api/v1/conversions': () =>
        errorResponse(409, 'QUOTE_EXPIRED', 'The quote has expired. Please get a new estimate.'),
    });
    echo.install();
    const { user } = await openLegacy();
    await user.type(screen.getByTestId('convert-amount'), '5');
    await screen.findByTestId('convert-figures', undefined, { timeout: 3_000 });
    await user.click(screen.getByTestId('convert-submit'));
    expect(await screen.findByTestId('convert-error')).toHaveTextContent(
      'The quote has expired. Please get a new estimate.',
    );
    await user.click(screen.getByTestId('convert-new-quote'));
    await waitFor(() => expect(estimateCalls(fetchMock)).toHaveLength(2));
    expect(screen.queryByTestId('convert-error')).not.toBeInTheDocument();
  });

  it("falls back to the spec's texts when the estimate or the conversion fails without a message", async () => {
    stubDesk({
      'GET /api/v1/conversions/estimate': () => json(200, { nonsense: true }),
    });
    const { user } = await openLegacy();
    await user.type(screen.getByTestId('convert-amount'), '5');
    expect(await screen.findByTestId('convert-estimate-error', undefined, { timeout: 3_000 })).toHaveTextContent(
      'Failed to get conversion estimate',
    );
  });

  it('says when the pairs cannot be read, and keeps offering the wallet currencies', async () => {
    stubDesk({ 'GET /api/v1/conversions/pairs': () => json(200, { nonsense: true }) });
    await openLegacy();
    expect(await screen.findByTestId('convert-pairs-error')).toHaveTextContent('Failed to get conversion pairs');
    const options = within(screen.getByTestId('convert-from')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['BTC', 'ETH', 'USDT']);
  });
});

describe('Legacy Wallet: quick trade (spec §3.5 Trade, §8)', { timeout: 20_000 }, () => {
  it("executes a market trade with an optional minimum and says 'trade executed'", async () => {
    const { calls } = stubDesk({
      'GET /api/v1/conversions/estimate': () => json(200, makeQuote()),
      'POST /api/v1/trade/execute': [
        () => errorResponse(409, 'SLIPPAGE_EXCEEDED', 'The price moved beyond your target. Please try again.'),
        () => json(201, { message: 'trade executed', trade }),
      ],
    });
    const { user } = await openLegacy();
    await user.click(screen.getByTestId('desk-mode-trade'));
    expect(screen.getByRole('heading', { name: 'Quick trade' })).toBeInTheDocument();

    await user.click(screen.getByTestId('trade-submit'));
    expect(await screen.findByText('Amount must be greater than zero')).toBeInTheDocument();

    await user.type(screen.getByTestId('trade-amount'), '5');
    expect(await screen.findByTestId('trade-estimate', undefined, { timeout: 3_000 })).toHaveTextContent(
      'At the market now: ≈ 0.0000825 BTC',
    );
    await user.type(screen.getByTestId('trade-target'), '0.00009');
    await user.click(screen.getByTestId('trade-submit'));
    expect(await screen.findByText('The price moved beyond your target. Please try again.')).toBeInTheDocument();

    await user.clear(screen.getByTestId('trade-target'));
    await user.type(screen.getByTestId('trade-target'), '0.00008');
    await user.click(screen.getByTestId('trade-submit'));
    expect(await screen.findByText('trade executed')).toBeInTheDocument();
    expect(screen.getByTestId('trade-result')).toHaveTextContent('Paid 5 USDT · Received 0.0000825 BTC');

    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => call.body)).toEqual([
      { sell_currency: 'usdt', buy_currency: 'btc', sell_amount: '5', target_amount: '0.00009', trade_type: 'market' },
      { sell_currency: 'usdt', buy_currency: 'btc', sell_amount: '5', target_amount: '0.00008', trade_type: 'market' },
    ]);
    // A changed trade is a new payload: it carries a new key.
    expect(posts[0]?.headers['Idempotency-Key']).not.toBe(posts[1]?.headers['Idempotency-Key']);
  });

  it("falls back to 'Failed to execute trade'", async () => {
    stubDesk({
      'GET /api/v1/conversions/estimate': () => json(200, makeQuote()),
      'POST /api/v1/trade/execute': () => json(201, { nonsense: true }),
    });
    const { user } = await openLegacy();
    await user.click(screen.getByTestId('desk-mode-trade'));
    await user.type(screen.getByTestId('trade-amount'), '5');
    await user.click(screen.getByTestId('trade-submit'));
    expect(await screen.findByTestId('trade-error')).toHaveTextContent('Failed to execute trade');
  });
});

describe('Legacy Wallet: records and full history', { timeout: 20_000 }, () => {
  it('lists conversions and quick trades', async () => {
    stubDesk({
      'GET /api/v1/conversions/history': () => json(200, { conversions: [conversion] }),
      'GET /api/v1/trade/history': () => json(200, { trades: [trade] }),
    });
    const { user } = await openLegacy();
    const row = await screen.findByTestId('activity-c-1');
    expect(row).toHaveTextContent('-5 USDT');
    expect(row).toHaveTextContent('+0.0000825 BTC');
    expect(row).toHaveTextContent('1 USDT = 0.0000165 BTC');
    await user.click(screen.getByTestId('activity-view-trades'));
    expect(await screen.findByTestId('activity-t-1')).toHaveTextContent('Minimum 0.00008 BTC');
  });

  it("says 'Failed to get conversion history' and 'Failed to get trade history' on a bad answer", async () => {
    stubDesk({
      'GET /api/v1/conversions/history': () => json(200, { nonsense: true }),
      'GET /api/v1/trade/history': () => json(200, { nonsense: true }),
    });
    const { user } = await openLegacy();
    expect(await screen.findByText('Failed to get conversion history')).toBeInTheDocument();
    await user.click(screen.getByTestId('activity-view-trades'));
    expect(await screen.findByText('Failed to get trade history')).toBeInTheDocument();
  });

  it('filters the full history by type, currency and days', async () => {
    const { fetchMock } = stubDesk({
      'GET /v1/wallet/transactions': () =>
        json(200, {
          transactions: [
            {
              id: 'x-1',
              type: 'conversion',
              currency: 'BTC',
              amount: '0.0000825',
              reference: 'c-1-reference',
              created_at: '2026-01-01T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          limit: 20,
        }),
    });
    const { user } = await openLegacy();
    const history = await screen.findByTestId('legacy-history');
    expect(await within(history).findByTestId('legacy-transactions-table')).toHaveTextContent('+0.0000825 BTC');
    await user.selectOptions(within(history).getByTestId('legacy-history-type'), 'conversion');
    await user.selectOptions(within(history).getByTestId('legacy-history-currency'), 'BTC');
    await user.type(within(history).getByTestId('legacy-history-from'), '2026-01-01');
    await user.type(within(history).getByTestId('legacy-history-to'), '2026-01-31');
    await waitFor(() => {
      const last = fetchMock.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname === '/v1/wallet/transactions')
        .at(-1);
      expect(last?.searchParams.get('type')).toBe('conversion');
      expect(last?.searchParams.get('currency')).toBe('btc');
      expect(last?.searchParams.get('from')).toMatch(/Z$/);
      expect(last?.searchParams.get('to')).toMatch(/Z$/);
    });

    await user.clear(within(history).getByTestId('legacy-history-to'));
    await user.type(within(history).getByTestId('legacy-history-to'), '2025-12-01');
    expect(await within(history).findByTestId('legacy-history-range-error')).toHaveTextContent(
      'The start date is after the end date',
    );
    await user.click(within(history).getByTestId('legacy-history-clear'));
    expect(within(history).getByTestId('legacy-history-type')).toHaveValue('');
  });
});
