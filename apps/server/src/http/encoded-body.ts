import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A response body serialised once: the bytes every reader is sent, and their entity tag. Public
 * market data is read far more often than it changes (bots poll it all day), so it is encoded when
 * it changes and a thousand readers cost one `JSON.stringify`.
 */
export type EncodedBody = { readonly bytes: Buffer; readonly etag: string };

/** The body and a strong entity tag from its bytes (same bytes, same tag, across restarts too). */
export function encodeBody(value: unknown): EncodedBody {
  const bytes = Buffer.from(JSON.stringify(value));
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return { bytes, etag };
}

/**
 * Cache-Control of data that changes several times a second (prices, books, trades): a cache may
 * keep it but must ask again every time, and is answered 304 when its copy is still current.
 */
export const LIVE_CACHE_CONTROL = 'public, no-cache';
/** Cache-Control of reference lists that change on an operator's action (currencies, pairs' fixed fields). */
export const SLOW_CACHE_CONTROL = 'public, max-age=10';

/** Whether an If-None-Match header names this tag (a list, weak tags and `*` included). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a pre-encoded JSON body with its ETag and Cache-Control, or 304 with no body when the
 * client already holds it. The bytes go out as they are: no serializer runs per request.
 */
export function sendEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  body: EncodedBody,
  cacheControl: string = LIVE_CACHE_CONTROL,
): FastifyReply {
  reply.header('etag', body.etag).header('cache-control', cacheControl);
  if (matches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body.bytes);
}

/**
 * One value, re-encoded only after it changed: `invalidate()` when the data behind it moves, and
 * the next read builds and encodes it once for every reader until the next change.
 */
export class EncodedSnapshot {
  private encoded: EncodedBody | null = null;
  constructor(private readonly build: () => unknown) {}

  invalidate(): void {
    this.encoded = null;
  }

  get(): EncodedBody {
    this.encoded ??= encodeBody(this.build());
    return this.encoded;
  }
}

/**
 * Encoded bodies by key (a pair, a pair and a depth), each tagged with the version of the data it
 * was built from: a read at a newer version rebuilds it. Bounded: past `maxEntries` the oldest
 * entry goes, so keys a client invents (any depth, any limit) cannot grow memory.
 */
export class EncodedCache<K> {
  private readonly entries = new Map<K, { version: unknown; body: EncodedBody }>();
  constructor(private readonly maxEntries = 1_000) {}

  get(key: K, version: unknown, build: () => unknown): EncodedBody {
    const entry = this.entries.get(key);
    if (entry && entry.version === version) return entry.body;
    const body = encodeBody(build());
    if (!entry && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { version, body });
    return body;
  }

  clear(): void {
    this.entries.clear();
  }
}
