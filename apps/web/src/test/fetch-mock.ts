import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function errorResponse(status: number, code: string, message: string, details?: unknown): Response {
  return json(status, { error: { code, message, details } });
}

/**
 * Replaces fetch with a router of "METHOD /path" handlers (a handler list is used in order, the
 * last one repeating). Unknown routes answer 404 so that a missing stub fails loudly.
 */
export function stubFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: RecordedCall[] = [];
  const counters = new Map<string, number>();
  const fetchMock = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    const entry = routes[key];
    if (!entry) return errorResponse(404, 'NOT_FOUND', `No stub for ${key}`);
    const handlers = Array.isArray(entry) ? entry : [entry];
    const index = counters.get(key) ?? 0;
    counters.set(key, index + 1);
    const handler = handlers[Math.min(index, handlers.length - 1)];
    if (!handler) throw new Error(`Empty handler list for ${key}`);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}
