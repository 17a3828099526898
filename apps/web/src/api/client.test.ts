import { ACCESS_TOKEN_STORAGE_KEY } from '@platform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { useAppStore } from '../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../test/fetch-mock.ts';
import { makeAccount, makeSession } from '../test/fixtures.ts';
import { ApiError, attachmentFilename, createApiClient, shouldRefreshOn401 } from './client.ts';
import { apiClient } from './http.ts';

const okSchema = z.object({ ok: z.boolean() });

function makeClient(token = 'old-token') {
  let current: string | null = token;
  const onAccessToken = vi.fn((next: string) => {
    current = next;
  });
  const onSessionExpired = vi.fn();
  const client = createApiClient({ getAccessToken: () => current, onAccessToken, onSessionExpired });
  return { client, onAccessToken, onSessionExpired };
}

describe('api client: 401 handling (spec §7.8)', () => {
  afterEach(() => vi.useRealTimers());

  it('refreshes once and retries with the new token', async () => {
    const { calls } = stubFetch({
      'GET /v1/accounts/a': [() => errorResponse(401, 'TOKEN_EXPIRED', 'expired'), () => json(200, { ok: true })],
      'POST /v1/auth/refresh': () => json(200, makeSession('new-token')),
    });
    const { client, onAccessToken, onSessionExpired } = makeClient();
    await expect(client.request('/v1/accounts/a', { schema: okSchema })).resolves.toEqual({ ok: true });
    expect(onAccessToken).toHaveBeenCalledWith('new-token');
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /v1/accounts/a',
      'POST /v1/auth/refresh',
      'GET /v1/accounts/a',
    ]);
    expect(calls[0]?.headers.Authorization).toBe('Bearer old-token');
    expect(calls[2]?.headers.Authorization).toBe('Bearer new-token');
  });

  it('a client with a base path (the payment provider) still refreshes at the main API', async () => {
    const { calls } = stubFetch({
      'GET /v1/triple-a/payment/p1': [
        () => errorResponse(401, 'TOKEN_EXPIRED', 'expired'),
        () => json(200, { ok: true }),
      ],
      'POST /v1/auth/refresh': () => json(200, makeSession('new-token')),
    });
    let current: string | null = 'old-token';
    const client = createApiClient({
      baseUrl: '/v1/triple-a',
      getAccessToken: () => current,
      onAccessToken: (next) => {
        current = next;
      },
      onSessionExpired: vi.fn(),
    });
    await expect(client.request('/payment/p1', { schema: okSchema })).resolves.toEqual({ ok: true });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /v1/triple-a/payment/p1',
      'POST /v1/auth/refresh',
      'GET /v1/triple-a/payment/p1',
    ]);
  });

  it('sends a FormData body as multipart, without a JSON content type', async () => {
    const { calls } = stubFetch({ 'POST /v1/triple-a/kyc/submit': () => json(201, { ok: true }) });
    const client = createApiClient({
      baseUrl: '/v1/triple-a',
      getAccessToken: () => 't',
      onAccessToken: vi.fn(),
      onSessionExpired: vi.fn(),
    });
    const form = new FormData();
    form.set('firstName', 'Ada');
    await client.request('/kyc/submit', { method: 'POST', body: form, schema: okSchema });
    expect(calls[0]?.headers['Content-Type']).toBeUndefined();
  });

  it('ends the session when the refresh fails', async () => {
    stubFetch({
      'GET /v1/accounts/a': () => errorResponse(401, 'TOKEN_EXPIRED', 'Your session has expired. Please log in again.'),
      'POST /v1/auth/refresh': () => errorResponse(401, 'REFRESH_TOKEN_INVALID', 'invalid'),
    });
    const { client, onSessionExpired } = makeClient();
    const failure = client.request('/v1/accounts/a');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('never refreshes on auth calls: a 401 there is a wrong password or a 2FA prompt', async () => {
    const { calls } = stubFetch({
      'POST /v1/auth/login': () => errorResponse(401, 'INVALID_CREDENTIALS', 'Invalid credentials'),
    });
    const { client, onSessionExpired } = makeClient();
    await expect(client.request('/v1/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Invalid credentials',
    });
    expect(calls).toHaveLength(1);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('leaves futures calls alone on 401', async () => {
    const { calls } = stubFetch({ 'GET /v1/futures/positions': () => errorResponse(401, 'UNAUTHORIZED', 'no') });
    const { client, onSessionExpired } = makeClient();
    await expect(client.request('/v1/futures/positions')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(shouldRefreshOn401('/v1/futures/positions')).toBe(false);
    expect(shouldRefreshOn401('/v1/auth/refresh')).toBe(false);
    expect(shouldRefreshOn401('/v1/accounts/x')).toBe(true);
    expect(shouldRefreshOn401('/v1/auth/sessions')).toBe(true);
    expect(shouldRefreshOn401('/v1/auth/sessions/revoke-others')).toBe(true);
    expect(shouldRefreshOn401('/v1/auth/password-reset/confirm')).toBe(false);
  });

  it('keeps the session on a 401 that is about what the user typed, not the token', async () => {
    // An older server answered a wrong 2FA code in Settings with 401: that must not log the user out.
    const { calls } = stubFetch({
      'POST /v1/accounts/a/2fa/disable': () =>
        errorResponse(401, 'TWO_FACTOR_INVALID', 'Invalid two-factor authentication code'),
    });
    const { client, onSessionExpired } = makeClient();
    await expect(client.request('/v1/accounts/a/2fa/disable', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 401,
      code: 'TWO_FACTOR_INVALID',
    });
    expect(calls).toHaveLength(1);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('keeps the session on a wrong 2FA code in Settings (403), without a refresh', async () => {
    const { calls } = stubFetch({
      'POST /v1/accounts/a/2fa/enable': () =>
        errorResponse(403, 'TWO_FACTOR_CODE_INVALID', 'Invalid two-factor authentication code'),
    });
    const { client, onSessionExpired } = makeClient();
    await expect(
      client.request('/v1/accounts/a/2fa/enable', { method: 'POST', body: { code: '000000' } }),
    ).rejects.toMatchObject({ status: 403, code: 'TWO_FACTOR_CODE_INVALID' });
    expect(calls).toHaveLength(1);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('refreshes on a revoked session (its sessions were ended) and ends it when the refresh fails', async () => {
    stubFetch({
      'GET /v1/auth/sessions': () => errorResponse(401, 'SESSION_REVOKED', 'This session was revoked.'),
      'POST /v1/auth/refresh': () => errorResponse(401, 'REFRESH_TOKEN_INVALID', 'invalid'),
    });
    const { client, onSessionExpired } = makeClient();
    await expect(client.request('/v1/auth/sessions')).rejects.toMatchObject({ code: 'SESSION_REVOKED' });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('treats a 401 without our error envelope as a session failure', async () => {
    stubFetch({
      'GET /v1/accounts/a': () => new Response('Unauthorized', { status: 401 }),
      'POST /v1/auth/refresh': () => errorResponse(401, 'REFRESH_TOKEN_INVALID', 'invalid'),
    });
    const { client, onSessionExpired } = makeClient();
    await expect(client.request('/v1/accounts/a')).rejects.toMatchObject({ status: 401 });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const { calls } = stubFetch({
      'GET /v1/a': [() => errorResponse(401, 'TOKEN_EXPIRED', 'x'), () => json(200, { ok: true })],
      'GET /v1/b': [() => errorResponse(401, 'TOKEN_EXPIRED', 'x'), () => json(200, { ok: true })],
      'POST /v1/auth/refresh': () => json(200, makeSession('fresh')),
    });
    const { client } = makeClient();
    await Promise.all([client.request('/v1/a', { schema: okSchema }), client.request('/v1/b', { schema: okSchema })]);
    expect(calls.filter((call) => call.path === '/v1/auth/refresh')).toHaveLength(1);
  });

  it('turns the error envelope into an ApiError with its validation issues', async () => {
    stubFetch({
      'POST /v1/accounts': () =>
        errorResponse(400, 'VALIDATION_ERROR', 'Invalid request', {
          issues: [{ path: 'email', message: 'Invalid email address', key: 'validation.emailAddressInvalid' }],
        }),
    });
    const { client } = makeClient();
    const error = await client.request('/v1/accounts', { method: 'POST', body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues).toEqual([
      { path: 'email', message: 'Invalid email address', key: 'validation.emailAddressInvalid' },
    ]);
  });

  it('rejects an answer that does not match the schema', async () => {
    stubFetch({ 'GET /v1/x': () => json(200, { ok: 'yes' }) });
    const { client } = makeClient();
    await expect(client.request('/v1/x', { schema: okSchema })).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('gives up after the 5 second timeout', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_input: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const { client } = makeClient();
    const pending = client.request('/v1/slow').catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(pending).resolves.toMatchObject({ status: 0, code: 'TIMEOUT' });
  });
});

describe('api client: extra headers', () => {
  it('sends them, and sends them again on the retry after a refresh (an Idempotency-Key must survive it)', async () => {
    const { calls } = stubFetch({
      'POST /api/v1/wallet/transfer': [
        () => errorResponse(401, 'TOKEN_EXPIRED', 'expired'),
        () => json(201, { ok: true }),
      ],
      'POST /v1/auth/refresh': () => json(200, makeSession('new-token')),
    });
    const { client } = makeClient();
    await client.request('/api/v1/wallet/transfer', {
      method: 'POST',
      body: {},
      headers: { 'Idempotency-Key': 'k-1' },
      schema: okSchema,
    });
    const sends = calls.filter((call) => call.path === '/api/v1/wallet/transfer');
    expect(sends.map((call) => call.headers['Idempotency-Key'])).toEqual(['k-1', 'k-1']);
    expect(sends[1]?.headers.Authorization).toBe('Bearer new-token');
  });
});

describe('the app client wiring', () => {
  it('removes the stored token and logs the user out when the session cannot be refreshed', async () => {
    stubFetch({
      'GET /v1/accounts/a': () => errorResponse(401, 'TOKEN_EXPIRED', 'expired'),
      'POST /v1/auth/refresh': () => errorResponse(401, 'REFRESH_TOKEN_INVALID', 'invalid'),
    });
    useAppStore.getState().setAccessToken('stale');
    useAppStore.getState().setUser(makeAccount());
    await expect(apiClient.request('/v1/accounts/a')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY)).toBeNull();
    expect(useAppStore.getState().isAuthenticated).toBe(false);
    expect(useAppStore.getState().user).toBeNull();
  });

  it('stores the refreshed token in the state', async () => {
    stubFetch({
      'GET /v1/accounts/a': [() => errorResponse(401, 'TOKEN_EXPIRED', 'expired'), () => json(200, { ok: true })],
      'POST /v1/auth/refresh': () => json(200, makeSession('rotated')),
    });
    useAppStore.getState().setAccessToken('stale');
    await apiClient.request('/v1/accounts/a', { schema: okSchema });
    expect(useAppStore.getState().accessToken).toBe('rotated');
    expect(localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY)).toBe('rotated');
  });
});

describe('api client: file downloads', () => {
  it('sends the bearer token, refreshes once on 401, and returns the body and the suggested name', async () => {
    const { calls } = stubFetch({
      'GET /v1/exports/trades.csv': [
        () => errorResponse(401, 'TOKEN_EXPIRED', 'expired'),
        () =>
          new Response('Date\r\n', {
            status: 200,
            headers: {
              'Content-Type': 'text/csv',
              'Content-Disposition': 'attachment; filename="meridian-trades.csv"',
            },
          }),
      ],
      'POST /v1/auth/refresh': () => json(200, makeSession('new-token')),
    });
    const { client } = makeClient();
    const file = await client.download('/v1/exports/trades.csv');
    expect(file.filename).toBe('meridian-trades.csv');
    expect(await file.blob.text()).toBe('Date\r\n');
    expect(calls.map((call) => call.headers.Authorization)).toEqual([
      'Bearer old-token',
      undefined,
      'Bearer new-token',
    ]);
  });

  it('turns an error answer into an ApiError with the server’s words', async () => {
    stubFetch({
      'GET /v1/exports/trades.csv': () => errorResponse(400, 'VALIDATION_ERROR', 'Invalid request parameters'),
    });
    const { client } = makeClient();
    await expect(client.download('/v1/exports/trades.csv')).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Invalid request parameters',
    });
  });

  it('reads only a plain file name from Content-Disposition', () => {
    expect(attachmentFilename('attachment; filename="a-b.csv"')).toBe('a-b.csv');
    expect(attachmentFilename('attachment; filename="../x.csv"')).toBeNull();
    expect(attachmentFilename('attachment')).toBeNull();
    expect(attachmentFilename(null)).toBeNull();
  });
});
