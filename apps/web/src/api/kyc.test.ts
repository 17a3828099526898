import { describe, expect, it } from 'vitest';
import { makeKycStatus, makeKycSubmission } from '../features/payments/payment-test-fixtures.ts';
import { useAppStore } from '../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../test/fetch-mock.ts';
import { kycApi } from './kyc.ts';

const submission = makeKycSubmission({ document_type: 'passport', documents: ['documentFront'] });

describe('kyc api (spec §3.4, §7.4)', () => {
  it('reads the status on the wallet service', async () => {
    useAppStore.getState().setAccessToken('token');
    const { calls } = stubFetch({
      'GET /api/v1/kyc/status': () => json(200, makeKycStatus()),
    });
    await expect(kycApi.status()).resolves.toMatchObject({ tier: 'unverified', can_submit: true });
    expect(calls[0]?.headers.Authorization).toBe('Bearer token');
  });

  it('submits multipart to the payment-provider base, letting the browser write the Content-Type', async () => {
    const { fetchMock } = stubFetch({
      'POST /v1/triple-a/kyc/submit': () =>
        json(201, { id: 'kyc-1', status: 'pending', submitted_at: '2026-01-01T00:00:00.000Z' }),
    });
    const body = new FormData();
    body.append('firstName', 'Ada');
    await expect(kycApi.submit(body)).resolves.toMatchObject({ id: 'kyc-1', status: 'pending' });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.body).toBe(body);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('reads one submission from the payment-provider API', async () => {
    stubFetch({ 'GET /v1/triple-a/kyc/kyc-1': () => json(200, submission) });
    await expect(kycApi.submission('kyc-1')).resolves.toMatchObject({ document_number: '•••••1234' });
  });

  it("keeps the server's error for the caller", async () => {
    stubFetch({ 'POST /v1/triple-a/kyc/submit': () => errorResponse(413, 'FILE_TOO_LARGE', 'File size too large') });
    await expect(kycApi.submit(new FormData())).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });
});
