import type { DepositAddress, DepositHistoryItem } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { checkoutNavigation } from './deposit-section.tsx';

const balances = [
  { currency: 'BTC', available: '0', locked: '0' },
  { currency: 'USDT', available: '10', locked: '0' },
  { currency: 'XRP', available: '0', locked: '0' },
  { currency: 'USD', available: '0', locked: '0' },
];

const btcAddress: DepositAddress = {
  currency: 'BTC',
  code: 'btc',
  network: 'BTC',
  address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  memo: null,
  memo_label: null,
  qr: 'data:image/png;base64,AAAA',
  min_confirmations: 2,
};

const xrpAddress: DepositAddress = {
  currency: 'XRP',
  code: 'xrp',
  network: 'XRP',
  address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh',
  memo: '104729',
  memo_label: 'Destination tag',
  qr: 'data:image/png;base64,AAAA',
  min_confirmations: 1,
};

function deposit(overrides: Partial<DepositHistoryItem> = {}): DepositHistoryItem {
  return {
    id: 'd-1',
    method: 'address',
    currency: 'BTC',
    network: 'BTC',
    amount: '0.25',
    status: 'pending',
    confirmations: 1,
    required_confirmations: 2,
    txid: 'tx',
    address: btcAddress.address,
    memo: null,
    checkout_url: null,
    created_at: '2026-01-02T10:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

const history = (deposits: DepositHistoryItem[]) => json(200, { deposits, total: deposits.length, page: 1, limit: 5 });

function stubDeposit(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances }),
    'GET /v1/wallet/transactions': () => json(200, { transactions: [], total: 0, page: 1, limit: 20 }),
    'GET /api/v1/wallet/transfers/history': () => json(200, { transfers: [], total: 0, page: 1, limit: 20 }),
    'GET /api/v1/wallet/deposit-address/btc': () => json(200, btcAddress),
    'GET /api/v1/wallet/deposits': () => history([]),
    ...extra,
  });
}

async function openDeposit(path = '/wallet?action=deposit') {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const app = renderApp(path);
  expect(await screen.findByTestId('deposit-section', undefined, { timeout: 5_000 })).toBeInTheDocument();
  return app;
}

const posts = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST');

describe('deposit address (spec §2.7, §7.3, §9)', () => {
  it('shows the address with a copy button, QR code, network, confirmations and the help texts', async () => {
    stubDeposit();
    await openDeposit();
    const panel = await screen.findByTestId('deposit-address-panel');
    expect(within(panel).getByTestId('deposit-address-value')).toHaveTextContent(btcAddress.address);
    expect(within(panel).getByTestId('deposit-address-copy')).toHaveAccessibleName('Copy Your BTC deposit address');
    expect(within(panel).getByRole('img', { name: new RegExp(btcAddress.address) })).toBeInTheDocument();
    expect(within(panel).getByTestId('deposit-network')).toHaveTextContent('Bitcoin');
    expect(within(panel).getByTestId('deposit-confirmations')).toHaveTextContent('2');
    const help = within(panel).getByTestId('deposit-help');
    expect(help).toHaveTextContent('Crypto deposits confirm in 15-30 minutes');
    expect(help).toHaveTextContent('Crypto deposits are free');
    expect(help).toHaveTextContent('Your balance is credited after 2 network confirmations');
    expect(within(panel).queryByTestId('deposit-memo-warning')).not.toBeInTheDocument();
  });

  it('copies the address to the clipboard', async () => {
    stubDeposit();
    // user-event gives the page a clipboard of its own to read back.
    const { user } = await openDeposit();
    await user.click(await screen.findByTestId('deposit-address-copy'));
    await expect(navigator.clipboard.readText()).resolves.toBe(btcAddress.address);
    expect(screen.getByTestId('deposit-address-copy')).toHaveTextContent('Copied');
  });

  it('finds a currency by search and warns that a deposit without the tag is lost', async () => {
    const { calls } = stubDeposit({ 'GET /api/v1/wallet/deposit-address/xrp': () => json(200, xrpAddress) });
    const { user } = await openDeposit();
    await screen.findByTestId('deposit-address-panel');
    // Crypto only: the quote dollar is not offered for deposits.
    await user.click(screen.getByTestId('deposit-currency'));
    expect(screen.queryByTestId('deposit-currency-option-USD')).not.toBeInTheDocument();
    await user.type(screen.getByTestId('deposit-currency-search'), 'xr');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('deposit-currency')).toHaveFocus();
    expect(screen.getByTestId('deposit-currency')).toHaveTextContent('XRP');

    const warning = await screen.findByTestId('deposit-memo-warning');
    expect(warning).toHaveTextContent('Destination tag required.');
    expect(warning).toHaveTextContent('Deposits without it are lost');
    expect(screen.getByTestId('deposit-memo-value')).toHaveTextContent('104729');
    expect(calls.some((call) => call.path === '/api/v1/wallet/deposit-address/xrp')).toBe(true);
  });

  it('offers the networks of a stablecoin and asks for the address on the chosen one', async () => {
    const { fetchMock } = stubDeposit({
      'GET /api/v1/wallet/deposit-address/usdt': () =>
        json(200, { ...btcAddress, currency: 'USDT', code: 'usdtbsc', network: 'BSC', min_confirmations: 15 }),
    });
    const { user } = await openDeposit();
    await user.click(screen.getByTestId('deposit-currency'));
    await user.click(screen.getByTestId('deposit-currency-option-USDT'));
    expect(screen.getByRole('radio', { name: 'Tron (TRC20)' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('radio', { name: 'BNB Smart Chain (BEP20)' }));
    expect(await screen.findByTestId('deposit-network')).toHaveTextContent('BNB Smart Chain (BEP20)');
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).toContain('/api/v1/wallet/deposit-address/usdt?network=TRX');
    expect(urls).toContain('/api/v1/wallet/deposit-address/usdt?network=BSC');
  });

  it("says 'Failed to create deposit address' when the address cannot be made", async () => {
    stubDeposit({ 'GET /api/v1/wallet/deposit-address/btc': () => new Response('Bad gateway', { status: 502 }) });
    await openDeposit();
    const failure = await screen.findByTestId('deposit-address-error', undefined, { timeout: 4_000 });
    expect(failure).toHaveTextContent('Failed to create deposit address');
    expect(within(failure).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('pay by checkout (spec §7.3, §7.8)', () => {
  it('checks the amount, shows the estimate, and opens the hosted checkout once', async () => {
    const open = vi.spyOn(checkoutNavigation, 'open').mockImplementation(() => undefined);
    const { calls } = stubDeposit({
      'GET /api/v1/wallet/deposit-estimate': () =>
        json(200, { currency: 'BTC', amount: '0.5', estimated_amount: '0.5', fee: '0', total: '0.5' }),
      'POST /api/v1/wallet/deposit': () =>
        json(201, {
          id: 'd-9',
          status: 'pending',
          payment_status: 'waiting',
          currency: 'BTC',
          amount: '0.5',
          credited_amount: null,
          checkout_url: 'http://localhost/sandbox/checkout/d-9',
          expires_at: '2099-01-01T00:00:00.000Z',
          crypto_currency: 'BTC',
          crypto_address: null,
          crypto_amount: '0.5',
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        }),
    });
    const { user } = await openDeposit();
    await user.click(screen.getByTestId('deposit-method-checkout'));
    await user.click(screen.getByTestId('deposit-checkout-submit'));
    expect(screen.getByText('Amount must be greater than zero')).toBeInTheDocument();
    expect(screen.getByTestId('deposit-amount')).toHaveFocus();
    await user.type(screen.getByTestId('deposit-amount'), '0.123456789');
    expect(screen.getByText('Amount has more than 8 decimals for BTC')).toBeInTheDocument();
    await user.clear(screen.getByTestId('deposit-amount'));
    await user.type(screen.getByTestId('deposit-amount'), '0.5');
    await waitFor(() => expect(screen.getByTestId('deposit-estimate-receive')).toHaveTextContent('0.5 BTC'));
    expect(screen.getByTestId('deposit-estimate')).toHaveTextContent('Free');

    await user.dblClick(screen.getByTestId('deposit-checkout-submit'));
    await waitFor(() => expect(open).toHaveBeenCalledWith('http://localhost/sandbox/checkout/d-9'));
    // Remembered for the way back from the checkout.
    expect(JSON.parse(sessionStorage.getItem('wallet.deposit.checkout') ?? 'null')).toEqual({
      id: 'd-9',
      currency: 'BTC',
      amount: '0.5',
    });
    const sent = posts(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ currency: 'btc', amount: '0.5', payment_method: 'crypto' });
    expect(sent[0]?.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);
  });

  it("falls back to the free local estimate and says 'Failed to create payment checkout'", async () => {
    stubDeposit({
      'GET /api/v1/wallet/deposit-estimate': () => new Response('down', { status: 503 }),
      'POST /api/v1/wallet/deposit': () => new Response('down', { status: 502 }),
    });
    const { user } = await openDeposit();
    await user.click(screen.getByTestId('deposit-method-checkout'));
    await user.type(screen.getByTestId('deposit-amount'), '0.5');
    await waitFor(() => expect(screen.getByTestId('deposit-estimate-receive')).toHaveTextContent('0.5 BTC'));
    expect(
      screen.getByText('Estimated from the standard fee schedule: the live estimate is unavailable.'),
    ).toBeVisible();
    await user.click(screen.getByTestId('deposit-checkout-submit'));
    expect(await screen.findByTestId('deposit-checkout-error')).toHaveTextContent('Failed to create payment checkout');
  });

  it('follows the checkout deposit after the way back until it is credited', async () => {
    sessionStorage.setItem('wallet.deposit.checkout', JSON.stringify({ id: 'd-9', currency: 'USDT', amount: '250' }));
    const checkoutDeposit = (status: string, paymentStatus: string, credited: string | null) =>
      json(200, {
        id: 'd-9',
        status,
        payment_status: paymentStatus,
        currency: 'USDT',
        amount: '250',
        credited_amount: credited,
        checkout_url: 'http://localhost/sandbox/checkout/d-9',
        expires_at: '2099-01-01T00:00:00.000Z',
        crypto_currency: 'USDT',
        crypto_address: null,
        crypto_amount: '250',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      });
    stubDeposit({
      'GET /api/v1/wallet/deposit/d-9': [
        () => checkoutDeposit('pending', 'confirming', null),
        () => checkoutDeposit('completed', 'paid', '250'),
      ],
    });
    const { user } = await openDeposit();
    const banner = await screen.findByTestId('deposit-checkout-return');
    await waitFor(() =>
      expect(banner).toHaveTextContent('Payment received: your deposit of 250 USDT is being confirmed'),
    );
    await waitFor(() => expect(banner).toHaveTextContent('Deposit confirmed: 250 USDT credited to your wallet.'), {
      timeout: 4_000,
    });
    await user.click(within(banner).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('deposit-checkout-return')).not.toBeInTheDocument();
    expect(sessionStorage.getItem('wallet.deposit.checkout')).toBeNull();
  });

  it('says so when the payer cancelled at the checkout', async () => {
    stubDeposit();
    sessionStorage.setItem('wallet.deposit.checkout', JSON.stringify({ id: 'd-9', currency: 'USDT', amount: '250' }));
    await openDeposit('/wallet?action=deposit&cancelled=true');
    expect(screen.queryByTestId('deposit-checkout-return')).not.toBeInTheDocument();
    // Forgotten in an effect, after the first paint.
    await waitFor(() => expect(sessionStorage.getItem('wallet.deposit.checkout')).toBeNull());
    expect(screen.getByTestId('deposit-cancelled')).toHaveTextContent('The checkout was cancelled');
    expect(screen.getByTestId('deposit-checkout-form')).toBeInTheDocument();
  });
});

describe('recent deposits', () => {
  it('follows a pending deposit to completed and says so', async () => {
    stubDeposit({
      'GET /api/v1/wallet/deposits': [
        () => history([deposit(), deposit({ id: 'd-2', method: 'checkout', network: null, status: 'failed' })]),
        () => history([deposit({ status: 'completed', confirmations: 2 })]),
      ],
    });
    await openDeposit();
    const row = await screen.findByTestId('deposit-d-1');
    expect(row).toHaveTextContent('+0.25 BTC');
    expect(row).toHaveTextContent('On Bitcoin');
    expect(within(row).getByTestId('deposit-d-1-status')).toHaveTextContent('Pending');
    expect(row).toHaveTextContent('1/2 confirmations');
    expect(within(screen.getByTestId('deposit-d-2')).getByText('Failed')).toBeInTheDocument();
    expect(screen.getByTestId('deposit-d-2')).toHaveTextContent('Checkout');

    // Pending deposits are read again every 3 s.
    await waitFor(() => expect(screen.getByTestId('deposit-d-1-status')).toHaveTextContent('Completed'), {
      timeout: 4_500,
    });
    // One message per event: the server's 'Deposit confirmed' notification toasts; the list does not.
    expect(screen.queryByText('Deposit confirmed')).not.toBeInTheDocument();
  });

  it('has an empty state', async () => {
    stubDeposit();
    await openDeposit();
    expect(await screen.findByTestId('deposit-recent-empty')).toHaveTextContent('No deposits yet.');
  });
});

describe('errors', () => {
  it("shows the server's own words when it has them", async () => {
    stubDeposit({
      'GET /api/v1/wallet/deposit-address/btc': () =>
        errorResponse(502, 'PROVIDER_UNAVAILABLE', 'The payment provider is unavailable. Please try again.'),
    });
    await openDeposit();
    expect(await screen.findByTestId('deposit-address-error', undefined, { timeout: 4_000 })).toHaveTextContent(
      'The payment provider is unavailable. Please try again.',
    );
  });
});
