import { NOTIFICATIONS_STORAGE_KEY } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { localNotificationCache } from './notification-cache.ts';
import { makeNotification } from './notification-fixtures.ts';

const ACCOUNT = 'account-a';
const OTHER = 'account-b';

describe('the notifications kept on this device (spec §9, §8 silent handling)', () => {
  it('keeps one account’s list under the list key, apart from the settings', () => {
    const item = makeNotification();
    localNotificationCache.save(ACCOUNT, { notifications: [item], welcomeSeeded: true });
    expect(JSON.parse(localStorage.getItem(NOTIFICATIONS_STORAGE_KEY) ?? 'null')).toMatchObject({
      accountId: ACCOUNT,
      notifications: [item],
    });
    expect(localNotificationCache.load(ACCOUNT)).toEqual({ notifications: [item], welcomeSeeded: true });
  });

  it('shows another account nothing of the last one, but remembers who was welcomed', () => {
    localNotificationCache.save(ACCOUNT, { notifications: [makeNotification()], welcomeSeeded: true });
    expect(localNotificationCache.load(OTHER)).toEqual({ notifications: [], welcomeSeeded: false });
    localNotificationCache.save(OTHER, { notifications: [], welcomeSeeded: true });
    expect(localNotificationCache.load(ACCOUNT)).toEqual({ notifications: [], welcomeSeeded: true });
    expect(localNotificationCache.load(OTHER).welcomeSeeded).toBe(true);
  });

  it('starts empty, with a warning, from unreadable content', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, '{not json');
    expect(localNotificationCache.load(ACCOUNT)).toEqual({ notifications: [], welcomeSeeded: false });
    localStorage.setItem(NOTIFICATIONS_STORAGE_KEY, JSON.stringify({ version: 9, list: [] }));
    expect(localNotificationCache.load(ACCOUNT).notifications).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('starts empty, with a warning, when storage refuses to be read', () => {
    localNotificationCache.save(ACCOUNT, { notifications: [makeNotification()], welcomeSeeded: true });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(localNotificationCache.load(ACCOUNT)).toEqual({ notifications: [], welcomeSeeded: false });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Could not load'), expect.any(Error));
  });

  it('drops damaged items one by one', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const good = makeNotification();
    localStorage.setItem(
      NOTIFICATIONS_STORAGE_KEY,
      JSON.stringify({
        version: 1,
        accountId: ACCOUNT,
        notifications: [good, { ...good, id: 'x', severity: 'loud' }],
        welcomedAccountIds: [],
      }),
    );
    expect(localNotificationCache.load(ACCOUNT).notifications).toEqual([good]);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('empties the stored list, with a warning, when a save fails', () => {
    localNotificationCache.save(ACCOUNT, { notifications: [makeNotification()], welcomeSeeded: true });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    localNotificationCache.save(ACCOUNT, { notifications: [makeNotification()], welcomeSeeded: true });
    expect(warn).toHaveBeenCalledOnce();
    expect(localStorage.getItem(NOTIFICATIONS_STORAGE_KEY)).toBeNull();
    expect(localNotificationCache.load(ACCOUNT).notifications).toEqual([]);
  });
});
