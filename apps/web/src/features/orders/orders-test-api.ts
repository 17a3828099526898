import { vi } from 'vitest';
import { json } from '../../test/fetch-mock.ts';

/**
 * A fetch stub for this folder's tests that, unlike test/fetch-mock.ts, hands each handler the
 * query string too: the open orders and the order history share one path and differ by status.
 */

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: ApiCall) => Response | Promise<Response>;

export function stubApi(routes: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call: ApiCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    return handler ? handler(call) : json(404, { error: { code: 'NOT_FOUND', message: `No stub for ${call.path}` } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A request that never gets an answer, to see what the screen shows without one. */
export function never(): Promise<Response> {
  return new Promise<Response>(() => {});
}
