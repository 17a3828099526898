import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { json, type RecordedCall, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeLightning, makePayment } from './payment-test-fixtures.ts';

const balances = [
  { currency: 'BTC', available: '0', locked: '0' },
  { currency: 'USDT', available: '10', locked: '0' },
  { currency: 'USD', available: '0', locked: '0' },
];

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const invoice = 'lntb400u1pjsandboxinvoice9qxpqysgq0000000000000000000000000000000000000000000000000000';

function stubPayments(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /v1/wallet/balances': () => json(200, { balances }),
    ...extra,
  });
}

async function openPayments() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const app = renderApp('/wallet?tab=payment');
  expect(await screen.findByTestId('payment-section', undefined, { timeout: 5_000 })).toBeInTheDocument();
  return app;
}

const posts = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'POST');

describe('Create Payment tab (spec §2.7, §3.5, §7.4)', () => {
  it('creates a payment and shows its card: reference, status, live expiry, checkout link', async () => {
    const created = makePayment({ expiresAt: inMinutes(25) });
    const { calls } = stubPayments({
      'POST /v1/triple-a/payment': () => json(201, created),
      'GET /v1/triple-a/payment/p-1': () => json(200, created),
      'GET /v1/triple-a/payment/p-1/crypto': () =>
        json(200, {
          id: 'p-1',
          crypto_currency: 'BTC',
          crypto_address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
          crypto_amount: '0.00041',
          exchange_rate: '60975.60',
          expiresAt: created.expiresAt,
          status: 'waiting',
        }),
      'POST /v1/triple-a/payment/batch/status': () => json(200, { payments: [created], not_found: [] }),
    });
    const { user } = await openPayments();
    expect(screen.getByRole('tab', { name: 'Create Payment' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('payment-recent-empty')).toHaveTextContent('Payments you create show here.');

    await user.click(screen.getByTestId('payment-submit'));
    expect(screen.getByText('Amount must be greater than zero')).toBeInTheDocument();
    expect(screen.getByTestId('payment-amount')).toHaveFocus();
    await user.type(screen.getByTestId('payment-description'), 'Order 42');
    await user.type(screen.getByTestId('payment-amount'), '25');
    await user.selectOptions(screen.getByTestId('payment-pay-with'), 'BTC');
    await user.dblClick(screen.getByTestId('payment-submit'));

    const card = await screen.findByTestId('payment-card');
    expect(posts(calls).filter((call) => call.path === '/v1/triple-a/payment')).toHaveLength(1);
    const sent = posts(calls)[0];
    expect(sent?.body).toEqual({ description: 'Order 42', amount: '25', currency: 'usd', crypto_currency: 'btc' });
    expect(sent?.headers['Idempotency-Key']).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);

    expect(within(card).getByRole('heading', { name: '25 USD' })).toBeInTheDocument();
    expect(within(card).getByTestId('payment-reference')).toHaveTextContent('p-1');
    expect(within(card).getByTestId('payment-status')).toHaveTextContent('Waiting for payment');
    expect(within(card).getByTestId('payment-countdown')).toHaveTextContent(/^2[45]:\d\d$/);
    expect(within(card).getByRole('timer')).toHaveAccessibleName(/^Expires in 2[45]:\d\d$/);
    expect(within(card).getByTestId('payment-checkout-link')).toHaveAttribute(
      'href',
      'http://localhost/sandbox/checkout/p-1',
    );
    await waitFor(() => expect(within(card).getByTestId('payment-pay-with')).toHaveTextContent('0.00041 BTC'));
    expect(within(card).getByTestId('payment-crypto-address-value')).toHaveTextContent('tb1qw508d6');

    // The payment is remembered for the list beside the form.
    await waitFor(() => expect(screen.getByTestId('payment-row-p-1')).toHaveTextContent('25 USD'));
    expect(localStorage.getItem(`wallet.payments.${accountId}`)).toContain('p-1');
  });

  it('pays with Lightning: the BOLT11 invoice to copy, its QR code and hash, followed until paid', async () => {
    const waiting = makePayment({ expiresAt: inMinutes(25) });
    const lightning = { invoice, payment_hash: 'cd'.repeat(32), amount: '0.0004', expires_at: inMinutes(60) };
    const { calls } = stubPayments({
      'POST /v1/triple-a/payment': () => json(201, waiting),
      'GET /v1/triple-a/payment/p-1': [
        () => json(200, waiting),
        () => json(200, { ...waiting, crypto_currency: 'LNBC', lightning }),
        () =>
          json(200, {
            ...waiting,
            crypto_currency: 'LNBC',
            lightning,
            status: 'paid',
            final: true,
            finalAmount: '25',
          }),
      ],
      'GET /v1/triple-a/payment/p-1/crypto': () =>
        json(200, {
          id: 'p-1',
          crypto_currency: null,
          crypto_address: null,
          crypto_amount: null,
          exchange_rate: null,
          expiresAt: waiting.expiresAt,
          status: 'waiting',
        }),
      'POST /v1/triple-a/payment/p-1/select': () =>
        json(200, { id: 'p-1', crypto_currency: 'LNBC', ...lightning, status: 'waiting' }),
      'POST /v1/triple-a/payment/batch/status': () => json(200, { payments: [waiting], not_found: [] }),
    });
    const { user } = await openPayments();
    await user.type(screen.getByTestId('payment-amount'), '25');
    await user.click(screen.getByTestId('payment-submit'));
    const card = await screen.findByTestId('payment-card');
    expect(within(card).getByTestId('payment-pay-with')).toHaveTextContent('Chosen by the payer at checkout');

    await user.click(within(card).getByTestId('payment-pay-lightning'));
    const block = await within(card).findByTestId('lightning-invoice');
    expect(posts(calls).find((call) => call.path.endsWith('/select'))?.body).toEqual({ crypto_currency: 'LNBC' });
    expect(within(block).getByTestId('lightning-bolt11-value')).toHaveTextContent(invoice);
    expect(within(block).getByTestId('lightning-bolt11-value')).toHaveClass('mono');
    expect(within(block).getByTestId('lightning-hash-value')).toHaveTextContent('cd'.repeat(32));
    expect(within(block).getByRole('img', { name: `QR code of the Lightning invoice ${invoice}` })).toBeInTheDocument();
    expect(within(block).getByTestId('lightning-qr').querySelector('svg')).toHaveAttribute(
      'data-value',
      `LIGHTNING:${invoice.toUpperCase()}`,
    );
    expect(within(card).queryByTestId('payment-pay-lightning')).not.toBeInTheDocument();

    // Polled every 3 s until final.
    await waitFor(() => expect(within(card).getByTestId('payment-status')).toHaveTextContent('Paid'), {
      timeout: 8_000,
    });
    expect(within(card).getByTestId('payment-final-amount')).toHaveTextContent('25 USD');
    expect(card).toHaveTextContent('Payment received and credited to your wallet.');
  }, 15_000);

  it('creates a Lightning-only invoice and follows it', async () => {
    const created = makeLightning({ expires_at: inMinutes(60) });
    const { calls } = stubPayments({
      'POST /v1/triple-a/lightning/payment': () => json(201, created),
      'GET /v1/triple-a/lightning/payment/l-1': [
        () => json(200, created),
        () => json(200, { ...created, status: 'paid' }),
      ],
    });
    const { user } = await openPayments();
    await user.click(screen.getByTestId('payment-kind-lightning'));
    await user.type(screen.getByTestId('lightning-amount'), '0.00004');
    await user.type(screen.getByTestId('lightning-description'), 'Coffee');
    await user.click(screen.getByTestId('lightning-submit'));
    const card = await screen.findByTestId('lightning-card');
    expect(posts(calls)[0]?.body).toEqual({ amount: '0.00004', description: 'Coffee' });
    expect(within(card).getByRole('heading', { name: '0.00004 BTC' })).toBeInTheDocument();
    expect(within(card).getByTestId('lightning-bolt11-value')).toHaveTextContent(created.invoice);
    expect(within(card).getByTestId('lightning-status')).toHaveTextContent('Waiting for payment');
    await waitFor(() => expect(within(card).getByTestId('lightning-status')).toHaveTextContent('Paid'), {
      timeout: 8_000,
    });
    expect(card).toHaveTextContent('Invoice paid and credited to your wallet.');
  }, 12_000);

  it("says 'Failed to create payment' when the provider fails", async () => {
    stubPayments({ 'POST /v1/triple-a/payment': () => new Response('down', { status: 502 }) });
    const { user } = await openPayments();
    await user.type(screen.getByTestId('payment-amount'), '25');
    await user.click(screen.getByTestId('payment-submit'));
    expect(await screen.findByTestId('payment-form-error')).toHaveTextContent('Failed to create payment');
  });

  it('reads the remembered payments back in one batch call and opens one', async () => {
    localStorage.setItem(
      `wallet.payments.${accountId}`,
      JSON.stringify([
        { kind: 'payment', id: 'p-7' },
        { kind: 'payment', id: 'gone' },
        { kind: 'lightning', id: 'l-1' },
      ]),
    );
    const expired = makePayment({
      id: 'p-7',
      reference: 'p-7',
      status: 'expired',
      final: true,
      description: 'Old order',
    });
    const { calls } = stubPayments({
      'POST /v1/triple-a/payment/batch/status': () => json(200, { payments: [expired], not_found: ['gone'] }),
      'GET /v1/triple-a/lightning/payment/l-1': () => json(200, makeLightning({ status: 'expired' })),
      'GET /v1/triple-a/payment/p-7': () => json(200, expired),
    });
    const { user } = await openPayments();
    const row = await screen.findByTestId('payment-row-p-7');
    expect(row).toHaveTextContent('25 USD');
    expect(row).toHaveTextContent('Old order');
    expect(row).toHaveTextContent('Expired');
    expect(screen.queryByTestId('payment-row-gone')).not.toBeInTheDocument();
    expect(screen.getByTestId('payment-row-l-1')).toHaveTextContent('0.00004 BTC');
    expect(posts(calls)[0]?.body).toEqual({ payment_references: ['p-7', 'gone'] });

    await user.click(row);
    const card = await screen.findByTestId('payment-card');
    expect(within(card).getByTestId('payment-status')).toHaveTextContent('Expired');
    expect(within(card).queryByTestId('payment-checkout-link')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('payment-new'));
    expect(screen.getByTestId('payment-form')).toBeInTheDocument();
  });
});
