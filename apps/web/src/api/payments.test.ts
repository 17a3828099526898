import { describe, expect, it } from 'vitest';
import { makePayment } from '../features/payments/payment-test-fixtures.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { depositsApi, paymentsApi } from './payments.ts';

describe('deposits api', () => {
  it('asks for the deposit address of a lower-cased currency, on a network when given', async () => {
    const address = {
      currency: 'USDT',
      code: 'usdttrc20',
      network: 'TRX',
      address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
      memo: null,
      memo_label: null,
      qr: 'data:image/png;base64,AAAA',
      min_confirmations: 20,
    };
    const { fetchMock } = stubFetch({ 'GET /api/v1/wallet/deposit-address/usdt': () => json(200, address) });
    await expect(depositsApi.address('USDT', 'TRX')).resolves.toEqual(address);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/wallet/deposit-address/usdt?network=TRX');
  });

  it('creates a checkout deposit paid in crypto, with its idempotency key', async () => {
    const { calls } = stubFetch({
      'POST /api/v1/wallet/deposit': () =>
        json(201, {
          id: 'd-1',
          status: 'pending',
          payment_status: 'waiting',
          currency: 'BTC',
          amount: '0.5',
          credited_amount: null,
          checkout_url: 'http://localhost/sandbox/checkout/d-1',
          expires_at: '2099-01-01T00:00:00.000Z',
          crypto_currency: 'BTC',
          crypto_address: null,
          crypto_amount: '0.5',
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        }),
    });
    await expect(depositsApi.createCheckout({ currency: 'BTC', amount: '0.5' }, 'key-9')).resolves.toMatchObject({
      checkout_url: 'http://localhost/sandbox/checkout/d-1',
    });
    expect(calls[0]?.body).toEqual({ currency: 'btc', amount: '0.5', payment_method: 'crypto' });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('key-9');
  });
});

describe('payment-provider api (§7.4)', () => {
  it('creates payments under /v1/triple-a with the codes lower-cased', async () => {
    const { calls } = stubFetch({ 'POST /v1/triple-a/payment': () => json(201, makePayment()) });
    await paymentsApi.create({ description: 'Order 42', amount: '25', currency: 'USD', crypto_currency: 'BTC' }, 'k');
    expect(calls[0]?.body).toEqual({ description: 'Order 42', amount: '25', currency: 'usd', crypto_currency: 'btc' });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('k');
  });

  it('selects Lightning with LNBC and reads the batch status', async () => {
    const { calls } = stubFetch({
      'POST /v1/triple-a/payment/p-1/select': () =>
        json(200, {
          id: 'p-1',
          crypto_currency: 'LNBC',
          invoice: 'lntb1invoice',
          payment_hash: 'ab'.repeat(32),
          amount: '0.0004',
          expires_at: '2099-01-01T00:00:00.000Z',
          status: 'waiting',
        }),
      'POST /v1/triple-a/payment/batch/status': () => json(200, { payments: [makePayment()], not_found: ['zz'] }),
    });
    await expect(paymentsApi.selectLightning('p-1')).resolves.toMatchObject({ invoice: 'lntb1invoice' });
    expect(calls[0]?.body).toEqual({ crypto_currency: 'LNBC' });
    await expect(paymentsApi.batchStatus(['p-1', 'zz'])).resolves.toMatchObject({ not_found: ['zz'] });
    expect(calls[1]?.body).toEqual({ payment_references: ['p-1', 'zz'] });
  });
});
