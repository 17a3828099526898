/**
 * Local and session storage that never throw: private windows, full quotas and disabled storage
 * make the browser throw on access. A failed save or load is logged (spec §8, silent handling)
 * and the caller carries on with defaults.
 */
type StorageArea = 'local' | 'session';

const areaName = { local: 'local storage', session: 'session storage' } as const;

/** Reading the property itself throws where storage is blocked, so it is read inside the try. */
function storageOf(area: StorageArea): Storage | undefined {
  return area === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
}

function read(area: StorageArea, key: string): string | null {
  try {
    return storageOf(area)?.getItem(key) ?? null;
  } catch (error) {
    console.warn(`Could not read ${key} from ${areaName[area]}`, error);
    return null;
  }
}

function write(area: StorageArea, key: string, value: string): void {
  try {
    storageOf(area)?.setItem(key, value);
  } catch (error) {
    console.warn(`Could not save ${key} to ${areaName[area]}`, error);
  }
}

function remove(area: StorageArea, key: string): void {
  try {
    storageOf(area)?.removeItem(key);
  } catch (error) {
    console.warn(`Could not remove ${key} from ${areaName[area]}`, error);
  }
}

export function readStorage(key: string): string | null {
  return read('local', key);
}

export function writeStorage(key: string, value: string): void {
  write('local', key, value);
}

export function removeStorage(key: string): void {
  remove('local', key);
}

export function readJsonStorage(key: string): unknown {
  const raw = readStorage(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch (error) {
    console.warn(`Ignoring unreadable ${key} in local storage`, error);
    return null;
  }
}

export function readSessionStorage(key: string): string | null {
  return read('session', key);
}

export function writeSessionStorage(key: string, value: string): void {
  write('session', key, value);
}

export function removeSessionStorage(key: string): void {
  remove('session', key);
}
