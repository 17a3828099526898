import net from 'node:net';
import { errorEnvelopeSchema } from '@platform/contracts';
import { expect, it } from 'vitest';
import { signUp } from '../modules/auth/test-support.ts';
import { describeEachDatabase, type TestServer } from '../test/harness.ts';

type Raw = { status: number; contentType: string | null; body: unknown };

async function raw(server: TestServer, path: string, init: RequestInit = {}): Promise<Raw> {
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), body: JSON.parse(text) };
}

/** Exactly the envelope: `{ error: { code, message, details? } }` and nothing else. */
function expectEnvelope(response: Raw, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.contentType).toMatch(/^application\/json/);
  expect(errorEnvelopeSchema.strict().safeParse(response.body).success).toBe(true);
  const error = (response.body as { error: Record<string, unknown> }).error;
  expect(Object.keys(error).every((key) => ['code', 'message', 'details'].includes(key))).toBe(true);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
}

/** Sends raw bytes (what fetch refuses to send) and parses the answer's status and JSON body. */
function rawHttp(server: TestServer, request: string): Promise<Raw> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? null;
      try {
        resolve({ status, contentType, body: JSON.parse(body) });
      } catch (error) {
        reject(new Error(`not JSON: ${data.slice(0, 200)} (${String(error)})`));
      }
    });
  });
}

describeEachDatabase(
  "Fastify's own refusals in the one error envelope",
  (server) => {
    it('answers an over-long path parameter with 414 URI_TOO_LONG', async () => {
      const { session } = await signUp(server());
      const headers = { authorization: `Bearer ${session.token}` };
      expectEnvelope(await raw(server(), `/v1/orders/${'a'.repeat(500)}`, { headers }), 414, 'URI_TOO_LONG');
      expectEnvelope(await raw(server(), `/v1/ticker/${'B'.repeat(500)}`), 414, 'URI_TOO_LONG');
    });

    it('answers a path that does not decode with 400 URL_INVALID', async () => {
      expectEnvelope(await raw(server(), '/v1/orders/%E0%A4%A'), 400, 'URL_INVALID');
    });

    it('answers a body over the limit with 413, a wrong media type with 415 and bad JSON with 400', async () => {
      const post = (body: string, contentType: string) =>
        raw(server(), '/v1/auth/login', { method: 'POST', headers: { 'content-type': contentType }, body });
      expectEnvelope(await post(`"${'a'.repeat(1_100_000)}"`, 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
      expectEnvelope(await post('<login/>', 'application/xml'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectEnvelope(await post('email=a', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectEnvelope(await post('{"login_type":', 'application/json'), 400, 'VALIDATION_ERROR');
      expectEnvelope(await post('', 'application/json'), 400, 'VALIDATION_ERROR');
      expectEnvelope(await post('{"__proto__":{"admin":true}}', 'application/json'), 400, 'VALIDATION_ERROR');
    });

    it('answers an unknown route and an unknown method with 404 NOT_FOUND', async () => {
      expectEnvelope(await raw(server(), '/v1/no-such-thing'), 404, 'NOT_FOUND');
      expectEnvelope(await raw(server(), '/v1/auth/login'), 404, 'NOT_FOUND');
      expectEnvelope(await raw(server(), '/v1/auth/login', { method: 'DELETE' }), 404, 'NOT_FOUND');
    });

    it("answers what Node's HTTP parser refuses (headers too large, a malformed request) in the envelope", async () => {
      const huge = `GET /v1/trading-pairs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`;
      expectEnvelope(await rawHttp(server(), huge), 431, 'REQUEST_HEADERS_TOO_LARGE');
      expectEnvelope(await rawHttp(server(), 'NOT A REQUEST\r\n\r\n'), 400, 'MALFORMED_REQUEST');
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
