import { NOTIFICATIONS_STORAGE_KEY } from '@platform/contracts';
import { z } from 'zod';
import { capNewest, type StoredNotification, storedNotificationSchema } from './notification-model.ts';

/**
 * The bell's list on this device (spec §9: local storage, under its own key). It is the cache
 * shown at once when the page starts, and the whole store while the server cannot be reached. It
 * holds one account's list, the last signed in here; another account starts from an empty list.
 * Spec §8 silent handling: a failed load or save is logged and leaves an empty list.
 */

export interface CachedNotifications {
  notifications: StoredNotification[];
  /** Whether this account was given its welcome notification on this device (seeded only once). */
  welcomeSeeded: boolean;
}

export interface NotificationCache {
  load(accountId: string): CachedNotifications;
  save(accountId: string, cached: CachedNotifications): void;
}

/** Accounts remembered as already welcomed on this device; the oldest are forgotten first. */
export const WELCOMED_ACCOUNTS_MAX = 20;

const STORAGE_FORMAT_VERSION = 1;

const cacheFileSchema = z.object({
  version: z.literal(STORAGE_FORMAT_VERSION),
  accountId: z.string(),
  // Items are checked one by one below: one damaged item does not cost the whole list.
  notifications: z.array(z.unknown()),
  welcomedAccountIds: z.array(z.string()).catch([]),
});
type CacheFile = z.infer<typeof cacheFileSchema>;

const EMPTY: CachedNotifications = { notifications: [], welcomeSeeded: false };

function readFile(storage: Storage): CacheFile | null {
  const raw = storage.getItem(NOTIFICATIONS_STORAGE_KEY);
  if (raw === null) return null;
  const parsed = cacheFileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`unexpected content: ${parsed.error.message}`);
  return parsed.data;
}

function parseItems(items: readonly unknown[]): StoredNotification[] {
  const valid: StoredNotification[] = [];
  for (const item of items) {
    const parsed = storedNotificationSchema.safeParse(item);
    if (parsed.success) valid.push(parsed.data);
  }
  if (valid.length < items.length) {
    console.warn(`Dropped ${items.length - valid.length} unreadable stored notifications`);
  }
  return capNewest(valid);
}

/** Reading the property itself throws where storage is blocked, so it is read inside the try. */
function localStorageArea(): Storage {
  const storage = globalThis.localStorage as Storage | undefined;
  if (!storage) throw new Error('local storage is not available');
  return storage;
}

export const localNotificationCache: NotificationCache = {
  load(accountId) {
    try {
      const file = readFile(localStorageArea());
      if (!file) return { ...EMPTY };
      const welcomeSeeded = file.welcomedAccountIds.includes(accountId);
      if (file.accountId !== accountId) return { notifications: [], welcomeSeeded };
      return { notifications: parseItems(file.notifications), welcomeSeeded };
    } catch (error) {
      console.warn('Could not load the stored notifications; starting from an empty list', error);
      return { ...EMPTY };
    }
  },

  save(accountId, cached) {
    let storage: Storage;
    try {
      storage = localStorageArea();
    } catch (error) {
      console.warn('Could not save the notifications', error);
      return;
    }
    try {
      const welcomed = welcomedAccounts(storage).filter((id) => id !== accountId);
      if (cached.welcomeSeeded) welcomed.push(accountId);
      const file: CacheFile = {
        version: STORAGE_FORMAT_VERSION,
        accountId,
        notifications: cached.notifications,
        welcomedAccountIds: welcomed.slice(-WELCOMED_ACCOUNTS_MAX),
      };
      storage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify(file));
    } catch (error) {
      // A stale copy would come back at the next start as if current: the stored list is emptied.
      console.warn('Could not save the notifications; the stored list is emptied', error);
      try {
        storage.removeItem(NOTIFICATIONS_STORAGE_KEY);
      } catch {
        // Storage refuses every access: there is nothing stale to come back.
      }
    }
  },
};

function welcomedAccounts(storage: Storage): string[] {
  try {
    return readFile(storage)?.welcomedAccountIds ?? [];
  } catch {
    return [];
  }
}
