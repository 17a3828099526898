import { ACCESS_TOKEN_STORAGE_KEY } from '@platform/contracts';
import { readStorage, removeStorage, writeStorage } from '../lib/safe-storage.ts';

/** Spec §7: besides the persisted state, the access token lives under its own key. */
export function readStoredAccessToken(): string | null {
  const token = readStorage(ACCESS_TOKEN_STORAGE_KEY);
  return token && token.length > 0 ? token : null;
}

export function writeStoredAccessToken(token: string | null): void {
  if (token) writeStorage(ACCESS_TOKEN_STORAGE_KEY, token);
  else removeStorage(ACCESS_TOKEN_STORAGE_KEY);
}
