import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeWithdrawal } from '../payments/payment-test-fixtures.ts';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const balances = [
  { currency: 'BTC', available: '1', locked: '0' },
  { currency: 'USDT', available: '100', locked: '0' },
  { currency: 'XRP', available: '500', locked: '0' },
  { currency: 'USD', available: '0', locked: '0' },
];

const feeEstimate = (currency: string, amount: string, fee: string, total: string) =>
  json(200, { currency, amount, fee, total_amount: total });

function stubWithdraw(extra: Parameters<typeof stubFetch>[0] = {}, twoFactor = false) {
  return stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances }),
    'GET /v1/wallet/transactions': () => json(200, { transactions: [], total: 0, page: 1, limit: 20 }),
    'GET /api/v1/wallet/transfers/history': () => json(200, { transfers: [], total: 0, page: 1, limit: 20 }),
    [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount({ two_factor_enabled: twoFactor })),
    'GET /api/v1/wallet/minimum-amounts': () => json(200, { minimums: { BTC: '0.01', XRP: '100' }, default: '0.001' }),
    'GET /api/v1/wallet/withdrawal-fee-estimate': () => feeEstimate('BTC', '0.5', '0.0005', '0.5005'),
    'GET /api/v1/wallet/withdrawal-limits': () =>
      json(200, { kyc_tier: 'unverified', daily_limit_usd: '2000', used_usd: '50', remaining_usd: '1950' }),
    'GET /v1/wallet/payouts': () => json(200, { withdrawals: [], total: 0, page: 1, limit: 5 }),
    ...extra,
  });
}

async function openWithdraw() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const app = renderApp('/wallet?action=withdraw');
  expect(await screen.findByTestId('withdraw-section', undefined, { timeout: 5_000 })).toBeInTheDocument();
  // The balances have come once the picker shows the available amount.
  await waitFor(() => expect(screen.getByTestId('withdraw-currency')).toHaveTextContent('1.00000000'));
  return app;
}

const posts = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST');

describe('withdraw form (spec §5, §9)', () => {
  it('checks every field in the spec words before anything is sent', async () => {
    const { calls } = stubWithdraw();
    const { user } = await openWithdraw();
    const form = screen.getByTestId('withdraw-form');
    await user.click(screen.getByTestId('withdraw-review'));
    expect(within(form).getByText('Amount must be greater than zero')).toBeInTheDocument();
    expect(within(form).getByText('Please enter a valid wallet address')).toBeInTheDocument();
    expect(screen.getByTestId('withdraw-amount')).toHaveFocus();

    await user.type(screen.getByTestId('withdraw-amount'), '0.005');
    expect(within(form).getByText('Minimum withdrawal amount is 0.01 BTC')).toBeInTheDocument();
    await user.clear(screen.getByTestId('withdraw-amount'));
    await user.type(screen.getByTestId('withdraw-amount'), '1');
    // 1 BTC and its fee do not fit in 1 BTC.
    expect(within(form).getByText('Insufficient balance')).toBeInTheDocument();
    await user.type(screen.getByTestId('withdraw-address'), '0x52908400098527886E0F7030069857D2E4169EE7');
    expect(within(form).getByText('Invalid BTC address format')).toBeInTheDocument();
    expect(posts(calls)).toEqual([]);
    expect(screen.getByTestId('withdraw-help')).toHaveTextContent('Crypto withdrawals take 15-60 minutes');
    expect(screen.getByTestId('withdraw-limit')).toHaveTextContent(
      'Daily withdrawal limit left: $1,950.00 of $2,000.00',
    );
  });

  it('shows the live fee and total, falls back to §9 when the estimate fails, and fills Max', async () => {
    let failFee = false;
    const { fetchMock } = stubWithdraw({
      'GET /api/v1/wallet/withdrawal-fee-estimate': () =>
        failFee ? new Response('down', { status: 503 }) : feeEstimate('BTC', '0.5', '0.0007', '0.5007'),
    });
    const { user } = await openWithdraw();
    await user.type(screen.getByTestId('withdraw-amount'), '0.5');
    await waitFor(() => expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('0.0007 BTC'));
    expect(screen.getByTestId('withdraw-total')).toHaveTextContent('0.5007 BTC');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(
      '/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=0.5',
    );

    failFee = true;
    await user.clear(screen.getByTestId('withdraw-amount'));
    await user.type(screen.getByTestId('withdraw-amount'), '0.2');
    // §9: the larger of 0.0001 and 0.1 % of 0.2.
    await waitFor(() =>
      expect(screen.getByText('Fee from the standard schedule: the live estimate is unavailable.')).toBeVisible(),
    );
    expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('0.0002 BTC');
    expect(screen.getByTestId('withdraw-total')).toHaveTextContent('0.2002 BTC');

    await user.click(screen.getByTestId('withdraw-max'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('0.99900099');
  });

  it('asks for the destination tag on XRP', async () => {
    stubWithdraw();
    const { user } = await openWithdraw();
    expect(screen.queryByTestId('withdraw-extraId')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('withdraw-currency'));
    await user.click(screen.getByTestId('withdraw-currency-option-XRP'));
    expect(screen.getByLabelText('Destination tag (optional)')).toBeInTheDocument();
    await user.type(screen.getByTestId('withdraw-extraId'), 'abc');
    await user.tab();
    expect(screen.getByText('Invalid destination tag')).toBeInTheDocument();
  });
});

describe('withdraw with two-factor, confirm and follow (spec §5, §4)', () => {
  it('reviews, asks the 6-digit code, sends once, and follows the withdrawal to completed', async () => {
    const { calls } = stubWithdraw(
      {
        'POST /api/v1/wallet/withdraw': () => json(201, makeWithdrawal()),
        'GET /api/v1/wallet/payout-status/w-1': [
          () => json(200, makeWithdrawal({ provider_status: 'sending' })),
          () => json(200, makeWithdrawal({ status: 'completed', provider_status: 'finished', hash: '0xhash' })),
        ],
      },
      true,
    );
    const { user } = await openWithdraw();
    await user.type(screen.getByTestId('withdraw-amount'), '0.5');
    await user.type(screen.getByTestId('withdraw-address'), BTC_ADDRESS);
    await waitFor(() => expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('0.0005 BTC'));
    expect(screen.getByTestId('withdraw-help')).toHaveTextContent('Two-factor authentication is on');
    await user.click(screen.getByTestId('withdraw-review'));

    const confirm = screen.getByTestId('withdraw-confirm');
    expect(within(confirm).getByTestId('withdraw-confirm-amount')).toHaveTextContent('0.5 BTC');
    expect(within(confirm).getByTestId('withdraw-confirm-fee')).toHaveTextContent('0.0005 BTC');
    expect(within(confirm).getByTestId('withdraw-confirm-total')).toHaveTextContent('0.5005 BTC');
    expect(within(confirm).getByTestId('withdraw-confirm-address')).toHaveTextContent(BTC_ADDRESS);

    await user.click(screen.getByTestId('withdraw-submit'));
    expect(within(confirm).getByText('Two-factor code is required')).toBeInTheDocument();
    await user.type(screen.getByTestId('withdraw-twoFactorCode'), '12345');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(within(confirm).getByText('Code must be 6 digits')).toBeInTheDocument();
    await user.type(screen.getByTestId('withdraw-twoFactorCode'), '6');
    await user.dblClick(screen.getByTestId('withdraw-submit'));

    const tracker = await screen.findByTestId('withdraw-tracker');
    // One message per event: the tracker shows it; the server's notification is the one toast.
    expect(screen.queryByText('Withdrawal submitted')).not.toBeInTheDocument();
    expect(within(tracker).getByTestId('withdraw-status')).toHaveTextContent('Pending');
    const sent = posts(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ currency: 'btc', amount: '0.5', address: BTC_ADDRESS, two_factor_code: '123456' });
    expect(sent[0]?.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);

    await waitFor(() => expect(within(tracker).getByTestId('withdraw-status')).toHaveTextContent('Completed'), {
      timeout: 6_000,
    });
    expect(tracker).toHaveTextContent('Withdrawal completed');
    expect(tracker).toHaveTextContent('0xhash');
    await user.click(within(tracker).getByTestId('withdraw-new'));
    expect(screen.getByTestId('withdraw-amount')).toHaveValue('');
  }, 15_000);

  it('shows the code field when the server asks for it, and sends the code with the retry', async () => {
    const { calls } = stubWithdraw({
      'POST /api/v1/wallet/withdraw': [
        () => errorResponse(403, 'WITHDRAWAL_TWO_FACTOR_REQUIRED', 'Two-factor authentication required'),
        () => json(201, makeWithdrawal({ status: 'failed', provider_status: 'rejected', reason: 'Address blocked' })),
      ],
      'GET /api/v1/wallet/payout-status/w-1': () =>
        json(200, makeWithdrawal({ status: 'failed', provider_status: 'rejected', reason: 'Address blocked' })),
    });
    const { user } = await openWithdraw();
    await user.type(screen.getByTestId('withdraw-amount'), '0.5');
    await user.type(screen.getByTestId('withdraw-address'), BTC_ADDRESS);
    await user.click(screen.getByTestId('withdraw-review'));
    expect(screen.queryByTestId('withdraw-twoFactorCode')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('withdraw-submit'));

    const code = await screen.findByTestId('withdraw-twoFactorCode');
    expect(screen.getByText('Two-factor authentication required')).toBeInTheDocument();
    await waitFor(() => expect(code).toHaveFocus());
    await user.type(code, '654321');
    await user.click(screen.getByTestId('withdraw-submit'));

    const tracker = await screen.findByTestId('withdraw-tracker');
    await waitFor(() => expect(within(tracker).getByTestId('withdraw-status')).toHaveTextContent('Failed'));
    expect(within(tracker).getByTestId('withdraw-reason')).toHaveTextContent('Address blocked');
    const [first, second] = posts(calls);
    expect(first?.body).not.toHaveProperty('two_factor_code');
    expect(second?.body).toMatchObject({ two_factor_code: '654321' });
  });

  it("puts a refused address back on its field, and says 'Failed to create withdrawal' without a server text", async () => {
    stubWithdraw({
      'POST /api/v1/wallet/withdraw': [
        () => errorResponse(400, 'ADDRESS_FORMAT_INVALID', 'Invalid BTC address format', { field: 'address' }),
        () => new Response('Bad gateway', { status: 502 }),
      ],
    });
    const { user } = await openWithdraw();
    await user.type(screen.getByTestId('withdraw-amount'), '0.5');
    await user.type(screen.getByTestId('withdraw-address'), BTC_ADDRESS);
    await user.click(screen.getByTestId('withdraw-review'));
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(await screen.findByText('Invalid BTC address format')).toBeInTheDocument();
    expect(screen.getByTestId('withdraw-address')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByTestId('withdraw-review'));
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(await screen.findByTestId('withdraw-form-error')).toHaveTextContent('Failed to create withdrawal');
  });
});

describe('payout verification (a provider that sends its own code)', () => {
  it('asks for the code while the provider waits for it, and sends it', async () => {
    const waiting = makeWithdrawal({
      provider_status: 'waiting',
      verification_required: true,
      batch_withdrawal_id: 'b-7',
    });
    const { calls } = stubWithdraw({
      'POST /api/v1/wallet/withdraw': () => json(201, waiting),
      'GET /api/v1/wallet/payout-status/w-1': [
        () => json(200, waiting),
        () => json(200, waiting),
        () => json(200, makeWithdrawal({ status: 'completed', provider_status: 'finished' })),
      ],
      'POST /api/v1/wallet/verify-payout': [
        () => errorResponse(400, 'VERIFICATION_CODE_INVALID', 'Invalid verification code'),
        () => json(200, { success: true, batch_withdrawal_id: 'b-7', withdrawals: [waiting] }),
      ],
    });
    const { user } = await openWithdraw();
    await user.type(screen.getByTestId('withdraw-amount'), '0.5');
    await user.type(screen.getByTestId('withdraw-address'), BTC_ADDRESS);
    await user.click(screen.getByTestId('withdraw-review'));
    await user.click(screen.getByTestId('withdraw-submit'));
    const form = await screen.findByTestId('withdraw-verify');
    await user.click(within(form).getByTestId('withdraw-verify-submit'));
    expect(within(form).getByText('Verification code is required')).toBeInTheDocument();
    await user.type(within(form).getByTestId('withdraw-verify-code'), '111111');
    await user.click(within(form).getByTestId('withdraw-verify-submit'));
    expect(await within(form).findByText('Invalid verification code')).toBeInTheDocument();
    await user.clear(within(form).getByTestId('withdraw-verify-code'));
    await user.type(within(form).getByTestId('withdraw-verify-code'), '222222');
    await user.click(within(form).getByTestId('withdraw-verify-submit'));
    await waitFor(() => expect(screen.getByTestId('withdraw-status')).toHaveTextContent('Completed'), {
      timeout: 5_000,
    });
    const verifications = posts(calls).filter((call) => call.path === '/api/v1/wallet/verify-payout');
    expect(verifications.map((call) => call.body)).toEqual([
      { batch_withdrawal_id: 'b-7', verification_code: '111111' },
      { batch_withdrawal_id: 'b-7', verification_code: '222222' },
    ]);
  }, 12_000);
});

describe('recent withdrawals', () => {
  it('lists them with their status and the reason of a failure', async () => {
    stubWithdraw({
      'GET /v1/wallet/payouts': () =>
        json(200, {
          withdrawals: [
            makeWithdrawal({ id: 'w-2', status: 'failed', reason: 'Address blocked' }),
            makeWithdrawal({ id: 'w-3', status: 'completed' }),
          ],
          total: 2,
          page: 1,
          limit: 5,
        }),
    });
    await openWithdraw();
    const failed = await screen.findByTestId('withdrawal-w-2');
    expect(failed).toHaveTextContent('-0.5 BTC');
    expect(failed).toHaveTextContent('To bc1qar...5mdq');
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('Address blocked');
    expect(screen.getByTestId('withdrawal-w-3')).toHaveTextContent('Completed');
  });
});
