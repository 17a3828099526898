import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';

describeEachDatabase('system routes', (server, kind) => {
  it('GET /health reports the database it runs on', async () => {
    const response = await server().request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', database: { kind, ok: true } });
  });

  it('answers an unknown API path with the error envelope', async () => {
    const response = await server().request('GET', '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /v1/nothing-here' } });
  });

  it('sets security headers', async () => {
    const response = await server().request('GET', '/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const response = await server().request('GET', '/docs/json');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ openapi: '3.0.3', paths: { '/health': { get: expect.any(Object) } } });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await server().request('POST', '/v1/auth/login', {
      rawBody: 'login_type=email',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(response.body.error).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the request body as JSON (Content-Type: application/json)',
    });
  });

  it("refuses malformed JSON on a JSON route with 400 and the parser's message", async () => {
    const response = await server().request('POST', '/v1/auth/login', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: "Body is not valid JSON but content-type is set to 'application/json'",
      },
    });
  });
});
