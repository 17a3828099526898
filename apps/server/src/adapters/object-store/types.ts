import crypto from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live (KYC documents). The embedded default is a folder on local disk
 * (local-disk.ts); an S3-compatible store plugs in behind the same interface. Keys are made by the
 * server (newObjectKey), never taken from a user: a key is letters, digits, '_' and '-' only, so it
 * can be neither a path nor carry an extension.
 */

/** What an object is written from: all its bytes, or a stream of them (an upload being received). */
export type ObjectBody = Uint8Array | AsyncIterable<Uint8Array>;

export type StoredObject = {
  /** The bytes, read lazily; the caller consumes or destroys it. */
  stream: Readable;
  contentType: string;
  sizeBytes: number;
};

export interface ObjectStore {
  /**
   * Writes the object whole or not at all: a reader never sees half an object, and a body that
   * fails mid-way leaves nothing behind. Resolves with the size written.
   */
  put(key: string, body: ObjectBody, contentType: string): Promise<{ sizeBytes: number }>;
  /** The object, or null when there is none under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing one that is not there is not an error (a retry is harmless). */
  delete(key: string): Promise<void>;
}

/** Keys the stores accept: no dot, no slash, so never '..', never a path, never an extension. */
export const OBJECT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A content type as stored (type/subtype, lower case, no parameters). */
export const CONTENT_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/** A key that is unguessable and holds nothing the user chose: 128 random bits, hex. */
export function newObjectKey(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** A key or content type outside the patterns above: a bug in the caller, never user input. */
export class ObjectStoreArgumentError extends Error {}

export function assertObjectKey(key: string): void {
  if (!OBJECT_KEY_PATTERN.test(key)) throw new ObjectStoreArgumentError(`invalid object key: ${JSON.stringify(key)}`);
}

export function assertContentType(contentType: string): void {
  if (!CONTENT_TYPE_PATTERN.test(contentType)) {
    throw new ObjectStoreArgumentError(`invalid content type: ${JSON.stringify(contentType)}`);
  }
}
