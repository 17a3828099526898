import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EncodedCache, EncodedSnapshot, encodeBody, sendEncoded } from './encoded-body.ts';

describe('pre-encoded bodies', () => {
  it('encodes once per change: readers between two changes share one encoding', () => {
    let builds = 0;
    let price = '1';
    const snapshot = new EncodedSnapshot(() => {
      builds++;
      return { price };
    });
    expect(snapshot.get().bytes.toString()).toBe('{"price":"1"}');
    snapshot.get();
    expect(builds).toBe(1);
    price = '2';
    expect(snapshot.get().bytes.toString()).toBe('{"price":"1"}');
    snapshot.invalidate();
    expect(snapshot.get().bytes.toString()).toBe('{"price":"2"}');
    expect(builds).toBe(2);
  });

  it('rebuilds a keyed entry when its version moves, and stays within its bound', () => {
    const cache = new EncodedCache<string>(2);
    let builds = 0;
    const build = (value: number) => () => {
      builds++;
      return value;
    };
    cache.get('a', 1, build(1));
    cache.get('a', 1, build(1));
    expect(builds).toBe(1);
    expect(cache.get('a', 2, build(2)).bytes.toString()).toBe('2');
    cache.get('b', 1, build(3));
    cache.get('c', 1, build(4));
    cache.get('a', 2, build(5));
    expect(builds).toBe(5);
  });

  it('answers 304 to a client that holds the current tag, and the body otherwise', async () => {
    const app = Fastify();
    const body = encodeBody({ ok: true });
    app.get('/x', (request, reply) => sendEncoded(request, reply, body));
    const first = await app.inject({ url: '/x' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = String(first.headers.etag);
    const again = await app.inject({ url: '/x', headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const changed = await app.inject({ url: '/x', headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
    await app.close();
  });
});
