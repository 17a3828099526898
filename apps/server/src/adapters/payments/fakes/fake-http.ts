import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The plumbing the provider fakes share: a node:http server on a free port that records every
 * request, answers scripted failures first, and hands the rest to the fake's router.
 */

export type FakeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | undefined>;
  rawBody: string;
  /** JSON object or form body, parsed; empty when absent or unreadable. */
  body: Record<string, unknown>;
};

export type FakeAnswer = { status: number; body?: unknown; text?: string };

export type ScriptedFailure = {
  status: number;
  body?: unknown;
  /** Answer only requests whose path starts with this (all when absent). */
  pathPrefix?: string;
  /** Wait this long first (a timeout test). */
  delayMs?: number;
  /** Answer a 200 that is not JSON. */
  garbage?: boolean;
};

export class FakeHttpServer {
  /** Every request, in order. */
  readonly requests: FakeRequest[] = [];
  readonly #scripted: ScriptedFailure[] = [];
  readonly #server: http.Server;
  #baseUrl = '';

  constructor(route: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>) {
    this.#server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void this.#answer(request, Buffer.concat(chunks).toString('utf8'), response, route);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#baseUrl = `http://127.0.0.1:${port}`;
    return this.#baseUrl;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The next matching request gets this answer instead of the real one. */
  failNext(failure: ScriptedFailure): void {
    this.#scripted.push(failure);
  }

  async #answer(
    request: http.IncomingMessage,
    rawBody: string,
    response: http.ServerResponse,
    route: (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>,
  ): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const fakeRequest: FakeRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody,
      body: parseBody(rawBody, headers['content-type']),
    };
    this.requests.push(fakeRequest);
    const scriptedAt = this.#scripted.findIndex(
      (failure) => !failure.pathPrefix || url.pathname.startsWith(failure.pathPrefix),
    );
    if (scriptedAt >= 0) {
      const [failure] = this.#scripted.splice(scriptedAt, 1);
      if (failure!.delayMs) await new Promise((resolve) => setTimeout(resolve, failure!.delayMs));
      if (failure!.garbage) {
        send(response, { status: 200, text: '<html>not json</html>' });
        return;
      }
      send(response, { status: failure!.status, body: failure!.body ?? { message: 'scripted failure' } });
      return;
    }
    send(response, await route(fakeRequest));
  }
}

/**
 * What the provider fakes share: their server with its test controls, and the bearer tokens they
 * issue, which a test can revoke to play a provider ending them early.
 */
export abstract class FakeProviderServer {
  tokensIssued = 0;
  readonly #tokens = new Set<string>();
  readonly #server = new FakeHttpServer((request) => this.route(request));

  start(): Promise<string> {
    return this.#server.start();
  }

  stop(): Promise<void> {
    return this.#server.stop();
  }

  get baseUrl(): string {
    return this.#server.baseUrl;
  }

  /** Every request, in order. */
  get requests(): FakeRequest[] {
    return this.#server.requests;
  }

  /** The next matching request gets this answer instead of the real one. */
  failNext(failure: ScriptedFailure): void {
    this.#server.failNext(failure);
  }

  /** Every token issued so far stops working. */
  revokeTokens(): void {
    this.#tokens.clear();
  }

  protected abstract route(request: FakeRequest): Promise<FakeAnswer>;

  protected issueToken(token: string): void {
    this.#tokens.add(token);
    this.tokensIssued++;
  }

  /** Whether the request carries a bearer token this fake issued and has not revoked. */
  protected hasLiveToken(request: FakeRequest): boolean {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return token !== undefined && this.#tokens.has(token);
  }
}

function parseBody(rawBody: string, contentType: string | undefined): Record<string, unknown> {
  if (rawBody === '') return {};
  if ((contentType ?? '').includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(rawBody));
  }
  try {
    const parsed: unknown = JSON.parse(rawBody);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A field the fake reads as text (numbers as JavaScript prints them). */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function send(response: http.ServerResponse, answer: FakeAnswer): void {
  if (response.destroyed) return;
  if (answer.text !== undefined) {
    response.writeHead(answer.status, { 'content-type': 'text/plain' });
    response.end(answer.text);
    return;
  }
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
}

/** POSTs a signed webhook as a provider would; answers the receiver's status. */
export async function postWebhook(url: string, rawBody: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: rawBody,
  });
  await response.arrayBuffer();
  return response.status;
}
