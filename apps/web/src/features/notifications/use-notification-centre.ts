import type { Notification, ServerSocketMessage } from '@platform/contracts';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { ApiError } from '../../api/client.ts';
import { notificationsApi } from '../../api/notifications.ts';
import { i18n } from '../../i18n/i18n.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { loadToasts, showErrorToast } from '../../lib/lazy-toast.ts';
import { getMarketData } from '../market-data/index.ts';
import { loadNotificationSettings } from '../settings/notification-settings.ts';
import { hasOpenTransferPopup } from '../wallet/transfer-popups.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { alertsFor, createNotificationSound, showBrowserNotification } from './notification-alerts.ts';
import {
  announceNotificationText,
  NOTIFICATION_ANNOUNCE_INTERVAL_MS,
  NotificationAnnouncer,
} from './notification-announcer.ts';
import { localNotificationCache } from './notification-cache.ts';
import { type NotificationAction, NotificationCentre, type NotificationCentreState } from './notification-store.ts';

/** The socket's user channel of stored notifications (contracts socketUserChannels). */
const NOTIFICATIONS_CHANNEL = 'notifications';

/** Screen readers hear each new notification once, a burst of them as one message. */
const notificationAnnouncer = new NotificationAnnouncer(
  NOTIFICATION_ANNOUNCE_INTERVAL_MS,
  (titles) =>
    titles.length === 1
      ? i18n.t('notificationCentre.announceOne', { title: titles[0] })
      : i18n.t('notificationCentre.announceMany', { count: titles.length }),
  announceNotificationText,
);

/** One audio context for the page, made at the first tone. */
const notificationSound = createNotificationSound();

/** Spec §9 sound, §3.8 settings: read at the moment a notification arrives, so changes apply at once. */
function alertNewNotification(notification: Notification): void {
  const alerts = alertsFor(notification.type, loadNotificationSettings(), notification.severity);
  notificationAnnouncer.add(notification);
  // A transfer whose status popup is open is told by the popup: no toast on top of it (issue 13).
  // The toast's code (and react-hot-toast) loads with the first one (lib/lazy-toast.ts).
  if (alerts.toast && !hasOpenTransferPopup(notification.metadata?.transactionId))
    void loadToasts()
      .then(() => import('./notification-toast.tsx'))
      .then((toast) => toast.showNotificationToast(notification))
      .catch(() => undefined);
  if (alerts.sound) notificationSound.play(notification.severity);
  if (alerts.push) showBrowserNotification(notification);
}

function createCentre(onActionFailed: (action: NotificationAction, error: unknown) => void): NotificationCentre {
  return new NotificationCentre({
    server: {
      list: () => notificationsApi.list(),
      markRead: notificationsApi.markRead,
      markAllRead: notificationsApi.markAllRead,
      remove: notificationsApi.remove,
      clear: notificationsApi.clear,
    },
    cache: localNotificationCache,
    welcomeTexts: () => ({
      title: i18n.t('notificationCentre.welcome.title'),
      message: i18n.t('notificationCentre.welcome.message'),
    }),
    onActionFailed,
    isNotFound: (error) => error instanceof ApiError && error.status === 404,
  });
}

/**
 * Follows the socket's `notifications` channel. User channels have no snapshot: after each
 * 'subscribed' (first time and after every reconnect) the list is read again over HTTP, and so it
 * is when the channel's sequence jumps (a message was missed). The shell's useLiveBalances
 * authenticates the socket.
 */
function followLiveNotifications(centre: NotificationCentre): () => void {
  let lastSeq: number | null = null;
  return getMarketData().socket.subscribe(NOTIFICATIONS_CHANNEL, (message: ServerSocketMessage) => {
    if (message.type === 'subscribed') {
      lastSeq = message.seq;
      void centre.refresh();
      return;
    }
    if (message.type !== 'notification_update') return;
    const missed = lastSeq !== null && message.seq !== lastSeq + 1;
    lastSeq = message.seq;
    if (centre.receive(message.payload)) alertNewNotification(message.payload);
    if (missed) void centre.refresh();
  });
}

export interface NotificationCentreView extends NotificationCentreState {
  markRead: (id: string) => void;
  markAllRead: () => void;
  remove: (id: string) => void;
  clear: () => void;
}

/**
 * The signed-in account's notification centre, for the bell (mounted once, in the top bar, while
 * signed in). Failed changes are undone by the centre and told here as an error toast.
 */
export function useNotificationCentre(): NotificationCentreView {
  const accountId = useSignedInAccountId();
  const [centre] = useState(() =>
    createCentre((action, error) => {
      showErrorToast(errorMessage(error, i18n.t, `notificationCentre.failed.${action}`));
    }),
  );
  const state = useStore(centre.store);

  useEffect(() => {
    if (accountId === null) {
      centre.close();
      return;
    }
    centre.open(accountId);
    void centre.refresh();
    const stopFollowing = followLiveNotifications(centre);
    return () => {
      stopFollowing();
      centre.close();
    };
  }, [accountId, centre]);

  return {
    ...state,
    markRead: (id) => void centre.markRead(id),
    markAllRead: () => void centre.markAllRead(),
    remove: (id) => void centre.remove(id),
    clear: () => void centre.clear(),
  };
}
