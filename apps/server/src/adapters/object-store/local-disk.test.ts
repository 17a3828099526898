import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDiskObjectStore } from './local-disk.ts';
import { newObjectKey, ObjectStoreArgumentError } from './types.ts';

describe('local-disk object store', () => {
  const roots: string[] = [];
  const newStore = () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'object-store-'));
    roots.push(parent);
    return new LocalDiskObjectStore(path.join(parent, 'store'));
  };
  /** Every file under the store, relative to its root. */
  const filesOf = (store: LocalDiskObjectStore) =>
    (fs.readdirSync(store.root, { recursive: true }) as string[])
      .filter((name) => fs.statSync(path.join(store.root, name)).isFile())
      .sort();
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  it('round-trips bytes and streams, with the content type, and deletes idempotently', async () => {
    const store = newStore();
    const key = newObjectKey();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect(await store.put(key, bytes, 'image/png')).toEqual({ sizeBytes: 7 });

    const found = await store.get(key);
    expect(found).toMatchObject({ contentType: 'image/png', sizeBytes: 7 });
    expect(new Uint8Array(await buffer(found!.stream))).toEqual(bytes);

    async function* chunks() {
      yield Buffer.from('hello ');
      yield Buffer.from('world');
    }
    const streamed = newObjectKey();
    expect(await store.put(streamed, chunks(), 'image/jpeg')).toEqual({ sizeBytes: 11 });
    const read = await store.get(streamed);
    expect(read?.contentType).toBe('image/jpeg');
    expect((await buffer(read!.stream)).toString()).toBe('hello world');

    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key);
    expect(await store.get(newObjectKey())).toBeNull();
  });

  it('writes files only the server user can read, with no extension, and no temp file left', async () => {
    const store = newStore();
    const key = newObjectKey();
    await store.put(key, Buffer.from('x'), 'image/png');
    expect(filesOf(store)).toEqual([path.join('data', key), path.join('meta', key)]);
    for (const file of filesOf(store)) {
      expect(fs.statSync(path.join(store.root, file)).mode & 0o777).toBe(0o600);
    }
    for (const dir of ['', 'data', 'meta', 'tmp']) {
      expect(fs.statSync(path.join(store.root, dir)).mode & 0o777).toBe(0o700);
    }
  });

  it('refuses keys that could be paths or carry an extension, before touching the disk', async () => {
    const store = newStore();
    const outside = path.join(path.dirname(store.root), 'escaped');
    for (const key of ['../escaped', '..', 'a/b', '/etc/passwd', '.hidden', 'shell.php', 'x\\y', '', 'a'.repeat(129)]) {
      await expect(store.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow(ObjectStoreArgumentError);
      await expect(store.get(key)).rejects.toThrow(ObjectStoreArgumentError);
      await expect(store.delete(key)).rejects.toThrow(ObjectStoreArgumentError);
    }
    expect(fs.existsSync(outside)).toBe(false);
    await expect(store.put(newObjectKey(), Buffer.from('x'), 'text/html; charset=utf-8')).rejects.toThrow(
      ObjectStoreArgumentError,
    );
    expect(fs.existsSync(store.root) ? filesOf(store) : []).toEqual([]);
  });

  it('leaves nothing behind when the body fails mid-way, and keeps the previous object whole', async () => {
    const store = newStore();
    const key = newObjectKey();
    await store.put(key, Buffer.from('first'), 'image/png');
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(store.put(key, failing(), 'image/jpeg')).rejects.toThrow('client went away');
    await expect(store.put(newObjectKey(), failing(), 'image/jpeg')).rejects.toThrow('client went away');
    expect(filesOf(store)).toEqual([path.join('data', key), path.join('meta', key)]);
    const kept = await store.get(key);
    expect(kept?.contentType).toBe('image/png');
    expect((await buffer(kept!.stream)).toString()).toBe('first');
  });

  it('sweeps temp files a crash left behind when it opens', async () => {
    const store = newStore();
    fs.mkdirSync(path.join(store.root, 'tmp'), { recursive: true });
    const stale = path.join(store.root, 'tmp', 'stale-data');
    const fresh = path.join(store.root, 'tmp', 'fresh-data');
    fs.writeFileSync(stale, 'old');
    fs.writeFileSync(fresh, 'new');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    await store.open();
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
