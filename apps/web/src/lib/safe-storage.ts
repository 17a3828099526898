/**
 * Local storage that never throws: private windows, full quotas and disabled storage make the
 * browser throw on access. A failed save or load is logged (spec §8, silent handling) and the
 * caller carries on with defaults.
 */
export function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch (error) {
    console.warn(`Could not read ${key} from local storage`, error);
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch (error) {
    console.warn(`Could not save ${key} to local storage`, error);
  }
}

export function removeStorage(key: string): void {
  try {
    globalThis.localStorage?.removeItem(key);
  } catch (error) {
    console.warn(`Could not remove ${key} from local storage`, error);
  }
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
