import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callProvider, type ProviderClientOptions } from './http.ts';
import { ProviderError } from './types.ts';

/**
 * Whether a failed call may have been acted on decides whether a payout may be sent again to a
 * provider that does not recognise a repeated reference (withdrawals/processor.ts).
 */
describe('provider calls: may a failed request have been acted on?', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 500);
      const status = Number(request.url?.slice(1));
      response.writeHead(status, { 'content-type': 'application/json' }).end('{"message":"no"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = (baseUrl: string, timeoutMs = 2_000): ProviderClientOptions => ({
    provider: 'nowpayments',
    baseUrl,
    timeoutMs,
    describeError: () => ({}),
  });
  const failure = async (baseUrl: string, path: string, timeoutMs?: number) => {
    const error = await callProvider(options(baseUrl, timeoutMs), { method: 'POST', path, json: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    return (error as ProviderError).details;
  };

  it('a refused connection surely was not: retryable and not delivered', async () => {
    // Nothing listens on this port once the probe server is closed.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await failure(closed, '/payout')).toMatchObject({ retryable: true, delivered: 'no' });
  });

  it('a timeout or a 5xx may have been', async () => {
    expect(await failure(base, '/slow', 100)).toMatchObject({ retryable: true, delivered: 'maybe' });
    expect(await failure(base, '/502')).toMatchObject({ status: 502, retryable: true, delivered: 'maybe' });
  });

  it('a 4xx or 429 answer was refused: not delivered', async () => {
    expect(await failure(base, '/400')).toMatchObject({ status: 400, retryable: false, delivered: 'no' });
    expect(await failure(base, '/429')).toMatchObject({ status: 429, retryable: true, delivered: 'no' });
  });
});
