import type { Notification } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { CachedNotifications, NotificationCache } from './notification-cache.ts';
import { FIXED_NOW_MS, makeNotification, makeServerNotification } from './notification-fixtures.ts';
import { WELCOME_NOTIFICATION_ID } from './notification-model.ts';
import { NotificationCentre, type NotificationsServer } from './notification-store.ts';

const ACCOUNT = 'account-a';

function memoryCache(initial: Record<string, CachedNotifications> = {}) {
  const saved = new Map(Object.entries(initial));
  const cache: NotificationCache = {
    load: (accountId) => saved.get(accountId) ?? { notifications: [], welcomeSeeded: false },
    save: (accountId, cached) => {
      saved.set(accountId, cached);
    },
  };
  return { cache, saved };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

function fakeServer(list: Notification[] = []) {
  const server = {
    list: vi.fn<NotificationsServer['list']>(async () => ({ notifications: list })),
    markRead: vi.fn<NotificationsServer['markRead']>(async () => ({})),
    markAllRead: vi.fn<NotificationsServer['markAllRead']>(async () => ({})),
    remove: vi.fn<NotificationsServer['remove']>(async () => undefined),
    clear: vi.fn<NotificationsServer['clear']>(async () => ({})),
  };
  return server;
}

function setup(options: { list?: Notification[]; cached?: CachedNotifications } = {}) {
  const server = fakeServer(options.list);
  const { cache, saved } = memoryCache(options.cached ? { [ACCOUNT]: options.cached } : {});
  const onActionFailed = vi.fn();
  const centre = new NotificationCentre({
    server,
    cache,
    now: () => FIXED_NOW_MS,
    welcomeTexts: () => ({ title: 'Welcome to Meridian', message: 'Your notifications appear here.' }),
    onActionFailed,
    isNotFound: (error) => error instanceof Error && error.message === 'not found',
  });
  return { centre, server, saved, onActionFailed };
}

const ids = (centre: NotificationCentre) => centre.state.notifications.map((item) => item.id);

describe('notification centre: loading and merging (spec §3.8, §4)', () => {
  it('shows the cached list at once, then the server’s, keeping live arrivals and local-only items', async () => {
    const onServer = makeServerNotification({ timestamp: FIXED_NOW_MS - 2_000, isRead: true });
    const deletedElsewhere = makeNotification({ timestamp: FIXED_NOW_MS - 3_000 });
    const { centre, server } = setup({
      cached: { notifications: [{ ...onServer, isRead: false }, deletedElsewhere], welcomeSeeded: true },
    });
    const answer = deferred<{ notifications: Notification[] }>();
    server.list.mockReturnValueOnce(answer.promise);

    centre.open(ACCOUNT);
    expect(ids(centre)).toEqual([onServer.id, deletedElsewhere.id]);
    expect(centre.state.source).toBe('cache');

    const loading = centre.refresh();
    const live = makeServerNotification({ timestamp: FIXED_NOW_MS });
    expect(centre.receive(live)).toBe(true);
    answer.resolve({ notifications: [onServer] });
    await loading;

    expect(ids(centre)).toEqual([live.id, onServer.id]);
    expect(centre.state.notifications[1]?.isRead).toBe(true);
    expect(centre.state.source).toBe('server');
  });

  it('keeps at most 100, the newest, as items arrive', () => {
    const { centre, saved } = setup();
    centre.open(ACCOUNT);
    for (let index = 0; index < 105; index += 1) {
      centre.receive(makeServerNotification({ timestamp: FIXED_NOW_MS + index }));
    }
    expect(centre.state.notifications).toHaveLength(100);
    expect(centre.state.notifications[0]?.timestamp).toBe(FIXED_NOW_MS + 104);
    expect(saved.get(ACCOUNT)?.notifications).toHaveLength(100);
  });

  it('tells a new live notification from one pushed again', () => {
    const { centre } = setup();
    centre.open(ACCOUNT);
    const item = makeServerNotification();
    expect(centre.receive(item)).toBe(true);
    expect(centre.receive(item)).toBe(false);
    expect(centre.state.notifications).toHaveLength(1);
  });

  it('goes offline on a failed load, with a warning, and keeps this device’s copy', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const cachedItem = makeNotification();
    const { centre, server } = setup({ cached: { notifications: [cachedItem], welcomeSeeded: true } });
    server.list.mockRejectedValueOnce(new Error('offline'));
    centre.open(ACCOUNT);
    await centre.refresh();
    expect(centre.state.source).toBe('offline');
    expect(ids(centre)).toEqual([cachedItem.id]);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('reads the list again when the user changed it while it loaded', async () => {
    const item = makeServerNotification();
    const { centre, server } = setup({ list: [item] });
    const first = deferred<{ notifications: Notification[] }>();
    server.list.mockReturnValueOnce(first.promise);
    centre.open(ACCOUNT);
    centre.receive(item);
    const loading = centre.refresh();
    await centre.remove(item.id);
    first.resolve({ notifications: [item] });
    server.list.mockResolvedValueOnce({ notifications: [] });
    await loading;
    expect(server.list).toHaveBeenCalledTimes(2);
    expect(centre.state.notifications.some((each) => each.id === item.id)).toBe(false);
  });

  it('forgets the account on close and drops a load that answers for it afterwards', async () => {
    const { centre, server } = setup();
    const answer = deferred<{ notifications: Notification[] }>();
    server.list.mockReturnValueOnce(answer.promise);
    centre.open(ACCOUNT);
    const loading = centre.refresh();
    centre.close();
    answer.resolve({ notifications: [makeServerNotification()] });
    await loading;
    expect(centre.state).toMatchObject({ accountId: null, notifications: [] });
  });
});

describe('notification centre: changes (spec §4), sent to the server and undone on failure', () => {
  async function loaded(list: Notification[]) {
    const context = setup({ list, cached: { notifications: [], welcomeSeeded: true } });
    context.centre.open(ACCOUNT);
    await context.centre.refresh();
    return context;
  }

  it('marks one read', async () => {
    const item = makeServerNotification();
    const { centre, server, onActionFailed } = await loaded([item]);
    await centre.markRead(item.id);
    expect(server.markRead).toHaveBeenCalledWith(item.id);
    expect(centre.state.notifications[0]?.isRead).toBe(true);
    expect(onActionFailed).not.toHaveBeenCalled();
  });

  it('undoes a read the server refused and says so', async () => {
    const item = makeServerNotification();
    const { centre, server, onActionFailed } = await loaded([item]);
    const failure = new Error('500');
    server.markRead.mockRejectedValueOnce(failure);
    const pending = centre.markRead(item.id);
    expect(centre.state.notifications[0]?.isRead).toBe(true);
    await pending;
    expect(centre.state.notifications[0]?.isRead).toBe(false);
    expect(onActionFailed).toHaveBeenCalledWith('markRead', failure);
  });

  it('marks all read, and undoes only those it changed', async () => {
    const unread = makeServerNotification({ timestamp: FIXED_NOW_MS });
    const read = makeServerNotification({ timestamp: FIXED_NOW_MS - 1, isRead: true });
    const { centre, server, onActionFailed } = await loaded([unread, read]);
    server.markAllRead.mockRejectedValueOnce(new Error('down'));
    await centre.markAllRead();
    expect(centre.state.notifications.map((item) => item.isRead)).toEqual([false, true]);
    expect(onActionFailed).toHaveBeenCalledWith('markAllRead', expect.any(Error));
    await centre.markAllRead();
    expect(centre.state.notifications.map((item) => item.isRead)).toEqual([true, true]);
    expect(server.markAllRead).toHaveBeenCalledTimes(2);
  });

  it('deletes one, and puts it back in its place when the server refuses', async () => {
    const newer = makeServerNotification({ timestamp: FIXED_NOW_MS });
    const older = makeServerNotification({ timestamp: FIXED_NOW_MS - 1 });
    const { centre, server, onActionFailed } = await loaded([newer, older]);
    await centre.remove(older.id);
    expect(server.remove).toHaveBeenCalledWith(older.id);
    expect(ids(centre)).toEqual([newer.id]);
    server.remove.mockRejectedValueOnce(new Error('down'));
    await centre.remove(newer.id);
    expect(ids(centre)).toEqual([newer.id]);
    expect(onActionFailed).toHaveBeenCalledWith('remove', expect.any(Error));
  });

  it('takes a delete of something already gone on the server as done', async () => {
    const item = makeServerNotification();
    const { centre, server, onActionFailed } = await loaded([item]);
    server.remove.mockRejectedValueOnce(new Error('not found'));
    await centre.remove(item.id);
    expect(centre.state.notifications).toEqual([]);
    expect(onActionFailed).not.toHaveBeenCalled();
  });

  it('clears all, and restores them beside a newer arrival when the server refuses', async () => {
    const item = makeServerNotification({ timestamp: FIXED_NOW_MS - 10 });
    const { centre, server, onActionFailed } = await loaded([item]);
    const answer = deferred<unknown>();
    server.clear.mockReturnValueOnce(answer.promise);
    const clearing = centre.clear();
    expect(centre.state.notifications).toEqual([]);
    const live = makeServerNotification({ timestamp: FIXED_NOW_MS });
    centre.receive(live);
    answer.reject(new Error('down'));
    await clearing;
    expect(ids(centre)).toEqual([live.id, item.id]);
    expect(onActionFailed).toHaveBeenCalledWith('clear', expect.any(Error));
  });

  it('changes only this device’s copy while offline', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const cached = makeNotification();
    const { centre, server } = setup({ cached: { notifications: [cached], welcomeSeeded: true } });
    server.list.mockRejectedValueOnce(new Error('offline'));
    centre.open(ACCOUNT);
    await centre.refresh();
    await centre.markRead(cached.id);
    await centre.clear();
    expect(centre.state.notifications).toEqual([]);
    expect(server.markRead).not.toHaveBeenCalled();
    expect(server.clear).not.toHaveBeenCalled();
  });
});

describe('notification centre: the welcome notification (spec §4 demo, seeded only when empty)', () => {
  it('is seeded, unread and local, when the first load for the account finds nothing', async () => {
    const { centre, saved, server } = setup();
    centre.open(ACCOUNT);
    await centre.refresh();
    expect(centre.state.notifications).toEqual([
      expect.objectContaining({ id: WELCOME_NOTIFICATION_ID, title: 'Welcome to Meridian', isRead: false }),
    ]);
    expect(saved.get(ACCOUNT)?.welcomeSeeded).toBe(true);
    await centre.markRead(WELCOME_NOTIFICATION_ID);
    await centre.remove(WELCOME_NOTIFICATION_ID);
    expect(server.markRead).not.toHaveBeenCalled();
    expect(server.remove).not.toHaveBeenCalled();
  });

  it('is not seeded again once it was, even after the list is cleared', async () => {
    const { centre } = setup();
    centre.open(ACCOUNT);
    await centre.refresh();
    await centre.clear();
    centre.close();
    centre.open(ACCOUNT);
    await centre.refresh();
    expect(centre.state.notifications).toEqual([]);
  });

  it('is not seeded when the account has notifications', async () => {
    const item = makeServerNotification();
    const { centre } = setup({ list: [item] });
    centre.open(ACCOUNT);
    await centre.refresh();
    expect(ids(centre)).toEqual([item.id]);
  });

  it('is not seeded for a list that has had items, though empty now', async () => {
    const { centre } = setup();
    centre.open(ACCOUNT);
    const item = makeServerNotification();
    centre.receive(item);
    await centre.remove(item.id);
    await centre.refresh();
    expect(centre.state.notifications).toEqual([]);
  });

  it('is not seeded while the server cannot tell whether the list is empty', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { centre, server } = setup();
    server.list.mockRejectedValueOnce(new Error('offline'));
    centre.open(ACCOUNT);
    await centre.refresh();
    expect(centre.state.notifications).toEqual([]);
    await centre.refresh();
    expect(ids(centre)).toEqual([WELCOME_NOTIFICATION_ID]);
  });
});
