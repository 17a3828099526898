import type { Notification } from '@platform/contracts';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CachedNotifications, NotificationCache } from './notification-cache.ts';
import {
  capNewest,
  mergeServerList,
  type StoredNotification,
  upsertNotification,
  type WelcomeTexts,
  welcomeNotification,
} from './notification-model.ts';

/**
 * The bell's list for the signed-in account (spec §3.8, §4). The server is the source of truth:
 * the list is loaded from it, new items arrive live (`receive`), and read, read-all, delete and
 * clear are sent to it, shown at once and undone if the server refuses. This device's copy (the
 * cache) is shown at start and is the whole store while the server cannot be reached.
 */

/**
 * - cache: shown from this device; the server has not answered yet.
 * - server: the last load from the server succeeded.
 * - offline: the server could not be reached; changes stay on this device.
 */
export type NotificationSource = 'cache' | 'server' | 'offline';

export interface NotificationCentreState {
  accountId: string | null;
  /** Newest first, at most STORED_NOTIFICATIONS_MAX. */
  notifications: StoredNotification[];
  source: NotificationSource;
  welcomeSeeded: boolean;
}

export type NotificationAction = 'markRead' | 'markAllRead' | 'remove' | 'clear';

/** The calls of notificationsApi the centre needs. */
export interface NotificationsServer {
  list(): Promise<{ notifications: Notification[] }>;
  markRead(id: string): Promise<unknown>;
  markAllRead(): Promise<unknown>;
  remove(id: string): Promise<unknown>;
  clear(): Promise<unknown>;
}

export interface NotificationCentreOptions {
  server: NotificationsServer;
  cache: NotificationCache;
  now?: () => number;
  /** The welcome notification's texts, in the interface language of the moment it is seeded. */
  welcomeTexts: () => WelcomeTexts;
  /** A change the server refused, already undone here; the caller tells the user. */
  onActionFailed?: (action: NotificationAction, error: unknown) => void;
  /** True when the server says the notification no longer exists (deleted on another device). */
  isNotFound?: (error: unknown) => boolean;
}

/**
 * A load that saw the user change the list while it was under way is repeated, since its answer
 * may predate the change; after this many rounds the last answer is taken as it is.
 */
export const MAX_LOAD_ROUNDS = 3;

const signedOut: NotificationCentreState = {
  accountId: null,
  notifications: [],
  source: 'cache',
  welcomeSeeded: false,
};

export class NotificationCentre {
  readonly store: StoreApi<NotificationCentreState> = createStore<NotificationCentreState>()(() => signedOut);
  private readonly options: Required<NotificationCentreOptions>;
  /** Changes on every open and close: answers that belong to an earlier account are dropped. */
  private session = 0;
  private loading: Promise<void> | null = null;
  private reloadRequested = false;
  private arrivedDuringLoad = new Set<string>();
  /** Counts the user's changes, so that a load can tell whether one happened while it ran. */
  private localChanges = 0;
  private readonly pendingCalls = new Set<Promise<unknown>>();

  constructor(options: NotificationCentreOptions) {
    this.options = {
      now: () => Date.now(),
      onActionFailed: () => {},
      isNotFound: () => false,
      ...options,
    };
  }

  get state(): NotificationCentreState {
    return this.store.getState();
  }

  /** Shows the account's cached list at once; `refresh` then asks the server. */
  open(accountId: string): void {
    if (this.state.accountId === accountId) return;
    this.session += 1;
    this.resetLoad();
    const cached = this.options.cache.load(accountId);
    this.store.setState({
      accountId,
      notifications: cached.notifications,
      source: 'cache',
      welcomeSeeded: cached.welcomeSeeded || cached.notifications.length > 0,
    });
  }

  /** Signed out: nothing of the account stays in memory (its cache stays for the next sign-in). */
  close(): void {
    if (this.state.accountId === null) return;
    this.session += 1;
    this.resetLoad();
    this.store.setState(signedOut);
  }

  /** Loads the list from the server and merges it in. Calls made meanwhile share one load. */
  refresh(): Promise<void> {
    if (this.state.accountId === null) return Promise.resolve();
    if (this.loading) {
      this.reloadRequested = true;
      return this.loading;
    }
    const loading = this.loadRounds(this.session).finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  /** A notification pushed live. True when it is new to the list (the caller may then alert). */
  receive(notification: Notification): boolean {
    if (this.state.accountId === null) return false;
    const isNew = !this.state.notifications.some((item) => item.id === notification.id);
    if (this.loading) this.arrivedDuringLoad.add(notification.id);
    this.setNotifications(upsertNotification(this.state.notifications, notification));
    return isNew;
  }

  async markRead(id: string): Promise<void> {
    const item = this.find(id);
    if (!item || item.isRead) return;
    this.localChanges += 1;
    this.setNotifications(this.state.notifications.map((each) => (each.id === id ? { ...each, isRead: true } : each)));
    if (!this.syncs(item)) return;
    await this.call('markRead', () => this.options.server.markRead(id), {
      undo: () => this.setRead([id], false),
      gone: () => this.drop([id]),
    });
  }

  async markAllRead(): Promise<void> {
    const unread = this.state.notifications.filter((item) => !item.isRead);
    if (unread.length === 0) return;
    this.localChanges += 1;
    this.setRead(
      unread.map((item) => item.id),
      true,
    );
    const serverIds = unread.filter((item) => this.syncs(item)).map((item) => item.id);
    if (serverIds.length === 0) return;
    await this.call('markAllRead', () => this.options.server.markAllRead(), {
      undo: () => this.setRead(serverIds, false),
    });
  }

  async remove(id: string): Promise<void> {
    const item = this.find(id);
    if (!item) return;
    this.localChanges += 1;
    this.drop([id]);
    if (!this.syncs(item)) return;
    await this.call('remove', () => this.options.server.remove(id), {
      undo: () => this.restore([item]),
      gone: () => {},
    });
  }

  async clear(): Promise<void> {
    const removed = this.state.notifications;
    if (removed.length === 0) return;
    this.localChanges += 1;
    this.setNotifications([]);
    const serverItems = removed.filter((item) => this.syncs(item));
    if (serverItems.length === 0) return;
    await this.call('clear', () => this.options.server.clear(), {
      undo: () => this.restore(serverItems),
    });
  }

  private async loadRounds(session: number): Promise<void> {
    for (let round = 1; ; round += 1) {
      this.reloadRequested = false;
      this.arrivedDuringLoad = new Set();
      const changesAtStart = this.localChanges;
      let answer: { notifications: Notification[] };
      try {
        answer = await this.options.server.list();
      } catch (error) {
        if (session === this.session) this.loadFailed(error);
        return;
      }
      // Changes sent while the list was read must land before their effect is judged.
      await Promise.allSettled([...this.pendingCalls]);
      if (session !== this.session) return;
      const stale = this.reloadRequested || this.localChanges !== changesAtStart;
      if (stale && round < MAX_LOAD_ROUNDS) continue;
      this.applyServerList(answer.notifications);
      return;
    }
  }

  private applyServerList(server: readonly Notification[]): void {
    let notifications = mergeServerList(this.state.notifications, server, this.arrivedDuringLoad);
    // Spec §4: the welcome (demo) notification only when the list is empty, once per account.
    if (notifications.length === 0 && !this.state.welcomeSeeded) {
      notifications = [welcomeNotification(this.options.now(), this.options.welcomeTexts())];
    }
    this.store.setState({ source: 'server' });
    this.setNotifications(notifications);
  }

  private loadFailed(error: unknown): void {
    console.warn('Could not load the notifications from the server; showing this device’s copy', error);
    // A list the server gave once stays the server's: one failed refresh does not make it offline.
    if (this.state.source === 'cache') this.store.setState({ source: 'offline' });
  }

  private async call(
    action: NotificationAction,
    request: () => Promise<unknown>,
    handlers: { undo: () => void; gone?: () => void },
  ): Promise<void> {
    const session = this.session;
    const pending = request();
    this.pendingCalls.add(pending);
    try {
      await pending;
    } catch (error) {
      if (session !== this.session) return;
      if (handlers.gone && this.options.isNotFound(error)) {
        handlers.gone();
        return;
      }
      handlers.undo();
      this.options.onActionFailed(action, error);
    } finally {
      this.pendingCalls.delete(pending);
    }
  }

  /** Offline, changes stay here; the seeded welcome notification never exists on the server. */
  private syncs(item: StoredNotification): boolean {
    return this.state.source !== 'offline' && item.localOnly !== true;
  }

  private find(id: string): StoredNotification | undefined {
    return this.state.notifications.find((item) => item.id === id);
  }

  private setRead(ids: readonly string[], isRead: boolean): void {
    const targets = new Set(ids);
    this.setNotifications(this.state.notifications.map((item) => (targets.has(item.id) ? { ...item, isRead } : item)));
  }

  private drop(ids: readonly string[]): void {
    const targets = new Set(ids);
    this.setNotifications(this.state.notifications.filter((item) => !targets.has(item.id)));
  }

  /** Puts removed items back where they were, beside whatever arrived in the meantime. */
  private restore(items: readonly StoredNotification[]): void {
    const present = new Set(this.state.notifications.map((item) => item.id));
    this.setNotifications(capNewest([...this.state.notifications, ...items.filter((item) => !present.has(item.id))]));
  }

  /** Every change of the list is saved; a list that has had items never gets the welcome again. */
  private setNotifications(notifications: StoredNotification[]): void {
    const { accountId } = this.state;
    if (accountId === null) return;
    const welcomeSeeded = this.state.welcomeSeeded || notifications.length > 0;
    this.store.setState({ notifications, welcomeSeeded });
    const cached: CachedNotifications = { notifications, welcomeSeeded };
    this.options.cache.save(accountId, cached);
  }

  private resetLoad(): void {
    this.loading = null;
    this.reloadRequested = false;
    this.arrivedDuringLoad = new Set();
    this.pendingCalls.clear();
  }
}
