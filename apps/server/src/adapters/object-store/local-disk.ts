import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  assertContentType,
  assertObjectKey,
  type ObjectBody,
  type ObjectStore,
  ObjectStoreArgumentError,
  type StoredObject,
} from './types.ts';

/**
 * Temp files older than this are left over from a crash (a write in progress takes seconds at
 * most) and are swept when the store opens.
 */
const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

type Metadata = { contentType: string; sizeBytes: number };

/**
 * The embedded object store: one folder (config.kycStorageDir) holding
 *   data/<key>  the bytes, exactly as uploaded, with no extension;
 *   meta/<key>  {contentType, sizeBytes} as JSON;
 *   tmp/        writes in progress.
 * Files are created 0600 and folders 0700: only the server's user reads them. An object appears by
 * renaming its finished temp files into place (meta first, data last), so a reader sees all of it
 * or none, and a crash mid-write leaves only temp files behind.
 */
export class LocalDiskObjectStore implements ObjectStore {
  private readonly dataDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;
  private ready: Promise<void> | undefined;

  constructor(readonly root: string) {
    this.dataDir = path.join(root, 'data');
    this.metaDir = path.join(root, 'meta');
    this.tmpDir = path.join(root, 'tmp');
  }

  async put(key: string, body: ObjectBody, contentType: string): Promise<{ sizeBytes: number }> {
    const dataPath = this.pathOf(this.dataDir, key);
    const metaPath = this.pathOf(this.metaDir, key);
    assertContentType(contentType);
    await this.open();

    const tempName = crypto.randomBytes(12).toString('hex');
    const tempData = path.join(this.tmpDir, `${tempName}-data`);
    const tempMeta = path.join(this.tmpDir, `${tempName}-meta`);
    let metaInPlace = false;
    try {
      const sizeBytes = await writeDurably(tempData, body);
      await writeDurably(tempMeta, Buffer.from(JSON.stringify({ contentType, sizeBytes } satisfies Metadata)));
      await fs.rename(tempMeta, metaPath);
      metaInPlace = true;
      await fs.rename(tempData, dataPath);
      return { sizeBytes };
    } catch (error) {
      await removeQuietly(tempData);
      await removeQuietly(tempMeta);
      if (metaInPlace) await removeQuietly(metaPath);
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const dataPath = this.pathOf(this.dataDir, key);
    const metaPath = this.pathOf(this.metaDir, key);
    let metadata: Metadata;
    try {
      metadata = JSON.parse(await fs.readFile(metaPath, 'utf8')) as Metadata;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    // Open before answering, so that a delete racing with the read either wins (null) or waits
    // until the open descriptor is done with (POSIX keeps unlinked files readable).
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(dataPath, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), contentType: metadata.contentType, sizeBytes: size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // Data first: an object without data reads as absent, whereas data without meta would linger.
    await removeQuietly(this.pathOf(this.dataDir, key));
    await removeQuietly(this.pathOf(this.metaDir, key));
  }

  /** Creates the folders once and sweeps temp files a crash left behind. */
  open(): Promise<void> {
    this.ready ??= (async () => {
      for (const dir of [this.root, this.dataDir, this.metaDir, this.tmpDir]) {
        await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      }
      const now = Date.now();
      for (const name of await fs.readdir(this.tmpDir)) {
        const file = path.join(this.tmpDir, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && now - stat.mtimeMs > STALE_TEMP_AGE_MS) await removeQuietly(file);
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** The file of a key inside `dir`; the key pattern already rules out '..' and '/', this checks again. */
  private pathOf(dir: string, key: string): string {
    assertObjectKey(key);
    const resolved = path.resolve(dir, key);
    if (path.dirname(resolved) !== path.resolve(dir)) {
      throw new ObjectStoreArgumentError(`object key escapes the store: ${JSON.stringify(key)}`);
    }
    return resolved;
  }
}

/** Writes a new file (0600, refusing to reuse an existing one) and flushes it to disk; returns its size. */
async function writeDurably(file: string, body: ObjectBody): Promise<number> {
  const handle = await fs.open(file, 'wx', 0o600);
  let sizeBytes = 0;
  try {
    const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = body instanceof Uint8Array ? [body] : body;
    for await (const chunk of chunks) {
      // A write may take part of the chunk; the rest follows at the next offset.
      for (let offset = 0; offset < chunk.byteLength; ) {
        const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
        offset += bytesWritten;
      }
      sizeBytes += chunk.byteLength;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return sizeBytes;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

async function removeQuietly(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
