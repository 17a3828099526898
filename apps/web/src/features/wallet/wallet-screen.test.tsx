import type { Transfer, WalletBalance } from '@platform/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';

const transferId = '0b9f4a52-8d1e-4c57-9a39-2f7c1d6e5a10';

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

const balances: WalletBalance[] = [
  { currency: 'BTC', available: '0', locked: '0' },
  { currency: 'USDT', available: '10', locked: '0' },
  { currency: 'ETH', available: '0', locked: '0.5' },
];

function makeTransfer(status: Transfer['status']): Transfer {
  return {
    id: transferId,
    status,
    direction: 'sent',
    from_username: 'ada',
    to_username: 'bob',
    currency: 'USDT',
    amount: '5',
    memo: null,
    reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

function stubWallet(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances }),
    'GET /v1/wallet/transactions': () => json(200, { transactions: [], total: 0, page: 1, limit: 20 }),
    'GET /api/v1/wallet/transfers/history': () => json(200, { transfers: [], total: 0, page: 1, limit: 20 }),
    ...extra,
  });
}

const posts = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST');

async function openWallet(path = '/wallet') {
  signIn();
  const app = renderApp(path);
  // The wallet screen is a lazy chunk: the first load in a run can take a moment.
  expect(await screen.findByTestId('page-title', undefined, { timeout: 5_000 })).toHaveTextContent('Wallet');
  return app;
}

async function fillSend(user: ReturnType<typeof renderApp>['user'], recipient: string, amount: string) {
  await user.type(screen.getByTestId('send-recipient'), recipient);
  await user.type(screen.getByTestId('send-amount'), amount);
}

describe('wallet screen tabs (spec §2.7)', () => {
  it('offers the four tabs as a tab list, the Triple-A wallet first', async () => {
    stubWallet();
    const { user } = await openWallet();
    const tabs = within(screen.getByRole('tablist')).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Triple-A Wallet',
      'Legacy Wallet',
      'KYC Verification',
      'Create Payment',
    ]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', tabs[0]?.id);

    tabs[0]?.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Legacy Wallet' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Legacy Wallet' })).toHaveFocus();
    expect(within(screen.getByRole('tabpanel')).getByTestId('legacy-wallet')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'KYC Verification' }));
    expect(within(screen.getByRole('tabpanel')).getByTestId('kyc-section')).toBeInTheDocument();
  });

  it.each([
    ['deposit', 'Deposit'],
    ['withdraw', 'Withdraw'],
  ])('honours ?action=%s with its own section', async (action, title) => {
    stubWallet();
    await openWallet(`/wallet?action=${action}`);
    const section = screen.getByTestId(`wallet-action-${action}`);
    // Focus moves in an effect, which runs after the first paint.
    await waitFor(() => expect(within(section).getByRole('heading', { name: title })).toHaveFocus());
    // The section itself is tested in deposit-section.test.tsx and withdraw-section.test.tsx.
    expect(within(section).getByTestId(`${action}-section`)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Triple-A Wallet' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('wallet balances (spec §2.7, §5)', () => {
  it('hides zero balances at first and shows every currency on request', async () => {
    stubWallet();
    const { user } = await openWallet();
    const table = await screen.findByTestId('wallet-balances-table');
    expect(within(table).getByTestId('wallet-balance-USDT')).toHaveTextContent('USDT');
    expect(within(table).getByTestId('wallet-balance-USDT')).toHaveTextContent('10.00');
    expect(within(table).getByTestId('wallet-balance-ETH')).toHaveTextContent('0.00');
    expect(within(table).queryByTestId('wallet-balance-BTC')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('wallet-hide-zero'));
    expect(within(table).getByTestId('wallet-balance-BTC')).toHaveTextContent('0.00000000');
  });
});

describe('send (spec §5, §4 popup)', () => {
  it('checks the form before sending, in the spec words', async () => {
    const { calls } = stubWallet();
    const { user } = await openWallet();
    await screen.findByTestId('wallet-balances-table');
    await user.click(screen.getByTestId('send-submit'));
    const form = screen.getByTestId('send-form');
    expect(within(form).getByText('Please enter a valid username')).toBeInTheDocument();
    expect(within(form).getByText('Amount must be greater than zero')).toBeInTheDocument();
    expect(screen.getByTestId('send-recipient')).toHaveFocus();

    await fillSend(user, 'bob', '0.5');
    await user.click(screen.getByTestId('send-submit'));
    expect(within(form).getByText('Minimum transfer amount is 1 USDT')).toBeInTheDocument();
    await user.clear(screen.getByTestId('send-amount'));
    await user.type(screen.getByTestId('send-amount'), '11');
    expect(within(form).getByText('Insufficient balance')).toBeInTheDocument();
    expect(posts(calls)).toEqual([]);
  });

  it('sends once with an idempotency key, opens the status popup, and follows it to the end', async () => {
    const { calls } = stubWallet({
      'POST /api/v1/wallet/transfer': () => json(201, makeTransfer('CREATED')),
      [`GET /api/v1/wallet/transfer/${transferId}/status`]: () => json(200, { result: makeTransfer('FINISHED') }),
    });
    const { user } = await openWallet();
    await screen.findByTestId('wallet-balances-table');
    await fillSend(user, ' @bob ', '5');
    await user.dblClick(screen.getByTestId('send-submit'));

    const popup = await screen.findByTestId(`transfer-popup-${transferId}`);
    expect(within(popup).getByTestId('transfer-popup-title')).toHaveTextContent('Transfer created');
    expect(within(popup).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    expect(within(popup).getByText('5 USDT to @bob')).toBeInTheDocument();
    expect(screen.getByTestId('transfer-popups')).toContainElement(popup);

    const sent = posts(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ to_username: 'bob', currency: 'usdt', amount: '5' });
    expect(sent[0]?.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);
    expect(screen.getByTestId('send-amount')).toHaveValue('');

    // Spec §9: the status is polled every 2 s; FINISHED is the success state.
    await waitFor(
      () => expect(within(popup).getByTestId('transfer-popup-title')).toHaveTextContent('Transfer completed'),
      {
        timeout: 3_500,
      },
    );
    expect(within(popup).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const balanceReads = calls.filter((call) => call.path === '/v1/wallet/balances').length;
    expect(balanceReads).toBeGreaterThanOrEqual(3);

    await user.click(within(popup).getByTestId('transfer-popup-close'));
    expect(screen.queryByTestId(`transfer-popup-${transferId}`)).not.toBeInTheDocument();
  });

  it("shows the server's refusal on its field", async () => {
    stubWallet({
      'POST /api/v1/wallet/transfer': () => errorResponse(404, 'RECIPIENT_NOT_FOUND', 'No user with this username'),
    });
    const { user } = await openWallet();
    await screen.findByTestId('wallet-balances-table');
    await fillSend(user, 'nobody', '5');
    await user.click(screen.getByTestId('send-submit'));
    expect(await screen.findByText('No user with this username')).toBeInTheDocument();
    expect(screen.getByTestId('send-recipient')).toHaveAttribute('aria-invalid', 'true');
  });

  it('retries a lost send under the same key, so it cannot go out twice', async () => {
    const { calls } = stubWallet({
      'POST /api/v1/wallet/transfer': [
        () => {
          throw new TypeError('Failed to fetch');
        },
        () => json(200, makeTransfer('WAITING')),
      ],
    });
    const { user } = await openWallet();
    await screen.findByTestId('wallet-balances-table');
    await fillSend(user, 'bob', '5');
    await user.click(screen.getByTestId('send-submit'));
    expect(await screen.findByTestId('send-form-error')).toHaveTextContent(/^Network error occurred\./);
    await user.click(screen.getByTestId('send-submit'));
    expect(await screen.findByTestId(`transfer-popup-${transferId}`)).toBeInTheDocument();
    const [first, second] = posts(calls);
    expect(second?.headers['Idempotency-Key']).toBe(first?.headers['Idempotency-Key']);
  });
});

describe('history (spec §2.7)', () => {
  it('lists transactions, filters by type and currency, and shows the transfers', async () => {
    const { fetchMock } = stubWallet({
      'GET /v1/wallet/transactions': () =>
        json(200, {
          transactions: [
            {
              id: 'e1',
              type: 'transfer_out',
              currency: 'USDT',
              amount: '-5',
              reference: transferId,
              created_at: '2026-01-02T10:00:00.000Z',
            },
          ],
          total: 41,
          page: 1,
          limit: 20,
        }),
      'GET /api/v1/wallet/transfers/history': () =>
        json(200, { transfers: [makeTransfer('REJECTED')], total: 1, page: 1, limit: 20 }),
    });
    const { user } = await openWallet();
    const table = await screen.findByTestId('transactions-table');
    expect(within(table).getByText('Transfer out')).toBeInTheDocument();
    expect(within(table).getByText('-5 USDT')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();

    await user.selectOptions(screen.getByTestId('history-type'), 'transfer_out');
    await user.selectOptions(screen.getByTestId('history-currency'), 'USDT');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    // Spec §5: the currency goes lower-cased; a new filter starts again at page 1.
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(
        expect.arrayContaining([
          '/v1/wallet/transactions?type=transfer_out&currency=usdt&limit=20&page=1',
          '/v1/wallet/transactions?type=transfer_out&currency=usdt&limit=20&page=2',
        ]),
      ),
    );

    await user.click(screen.getByTestId('history-view-transfers'));
    const transfers = await screen.findByTestId('transfers-table');
    const row = within(transfers).getByTestId(`transfer-${transferId}`);
    expect(within(row).getByText('To @bob')).toBeInTheDocument();
    expect(row).toHaveTextContent('-5 USDT');
    // §4: REJECTED is a failed transfer.
    expect(row.querySelector('td.col-status')).toHaveTextContent('Failed');
  });
});
