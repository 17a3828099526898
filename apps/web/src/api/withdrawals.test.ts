import { describe, expect, it } from 'vitest';
import { makeWithdrawal } from '../features/payments/payment-test-fixtures.ts';
import { useAppStore } from '../state/app-store.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { withdrawalsApi } from './withdrawals.ts';

describe('withdrawals api', () => {
  it('asks the fee with the currency lower-cased (spec §5)', async () => {
    const { fetchMock } = stubFetch({
      'GET /api/v1/wallet/withdrawal-fee-estimate': () =>
        json(200, { currency: 'BTC', amount: '0.5', fee: '0.0005', total_amount: '0.5005' }),
    });
    await expect(withdrawalsApi.feeEstimate('BTC', '0.5')).resolves.toMatchObject({ fee: '0.0005' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/wallet/withdrawal-fee-estimate?currency=btc&amount=0.5');
  });

  it('sends a withdrawal with its idempotency key', async () => {
    useAppStore.getState().setAccessToken('token');
    const { calls } = stubFetch({ 'POST /api/v1/wallet/withdraw': () => json(201, makeWithdrawal()) });
    await withdrawalsApi.create({ currency: 'BTC', amount: '0.5', address: 'addr', two_factor_code: '123456' }, 'k-1');
    expect(calls[0]?.body).toEqual({ currency: 'btc', amount: '0.5', address: 'addr', two_factor_code: '123456' });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('k-1');
    expect(calls[0]?.headers.Authorization).toBe('Bearer token');
  });

  it('reads a status answered as the withdrawal or as its payout', async () => {
    stubFetch({
      'GET /api/v1/wallet/payout-status/w-1': [
        () => json(200, makeWithdrawal({ status: 'completed' })),
        () =>
          json(200, {
            id: 'w-1',
            status: 'failed',
            withdrawals: [makeWithdrawal({ status: 'failed', reason: 'rejected' })],
            created_at: '2026-01-01T00:00:00.000Z',
          }),
      ],
    });
    await expect(withdrawalsApi.status('w-1')).resolves.toMatchObject({ status: 'completed' });
    await expect(withdrawalsApi.status('w-1')).resolves.toMatchObject({ status: 'failed', reason: 'rejected' });
  });

  it('lists withdrawals with paging on the main API', async () => {
    const { fetchMock } = stubFetch({
      'GET /v1/wallet/payouts': () => json(200, { withdrawals: [makeWithdrawal()], total: 1, page: 1, limit: 5 }),
    });
    await expect(withdrawalsApi.list({ limit: 5, page: 1 })).resolves.toMatchObject({ total: 1 });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/v1/wallet/payouts?limit=5&page=1');
  });

  it('rejects an answer that does not match the contract', async () => {
    stubFetch({ 'GET /api/v1/wallet/minimum-amounts': () => json(200, { minimums: { BTC: 1 } }) });
    await expect(withdrawalsApi.minimumAmounts()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });
});
