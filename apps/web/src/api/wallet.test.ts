import { describe, expect, it } from 'vitest';
import { useAppStore } from '../state/app-store.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { ApiError } from './client.ts';
import { walletApi, withQuery } from './wallet.ts';

const transfer = {
  id: 't-1',
  status: 'CREATED',
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

describe('wallet api', () => {
  it('leaves unset query parameters out', () => {
    expect(withQuery('/x', { a: 1, b: undefined, c: '', d: 'y z' })).toBe('/x?a=1&d=y+z');
    expect(withQuery('/x', {})).toBe('/x');
  });

  it('sends the transfer with its key and the currency lower-cased (spec §5)', async () => {
    useAppStore.getState().setAccessToken('token');
    const { calls } = stubFetch({ 'POST /api/v1/wallet/transfer': () => json(201, transfer) });
    await expect(
      walletApi.createTransfer({ to_username: 'bob', currency: 'USDT', amount: '5' }, 'key-1'),
    ).resolves.toMatchObject({ id: 't-1', status: 'CREATED' });
    expect(calls[0]?.body).toEqual({ to_username: 'bob', currency: 'usdt', amount: '5' });
    expect(calls[0]?.headers['Idempotency-Key']).toBe('key-1');
  });

  it('reads a transfer status it does not know yet instead of failing (spec §4)', async () => {
    stubFetch({
      'GET /api/v1/wallet/transfer/t-1/status': () => json(200, { result: { ...transfer, status: 'SETTLING' } }),
    });
    await expect(walletApi.transferStatus('t-1')).resolves.toMatchObject({ status: 'SETTLING' });
  });

  it('parses every answer with the contract schema', async () => {
    stubFetch({ 'GET /v1/wallet/balances': () => json(200, { balances: [{ currency: 'BTC', available: 1 }] }) });
    await expect(walletApi.balances()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    await expect(walletApi.balances()).rejects.toBeInstanceOf(ApiError);
  });
});
