import {
  NOTIFICATION_PREVIEW_MAX_CHARS,
  type Notification,
  notificationSchema,
  RELATIVE_TIME_MAX_DAYS,
  STORED_NOTIFICATIONS_MAX,
  UNREAD_BADGE_MAX,
} from '@platform/contracts';
import { z } from 'zod';

/**
 * The bell's notifications in the spec's stored form (§3.8): what the server sends, plus two
 * fields of this client. `direction` is a price alert's side (§4 "above or below"), read from the
 * item when the server gives no field for it; `localOnly` marks the welcome notification that
 * this device seeded and that the server has never seen.
 */
export const PRICE_ALERT_DIRECTIONS = ['above', 'below'] as const;
export type PriceAlertDirection = (typeof PRICE_ALERT_DIRECTIONS)[number];

export const storedNotificationSchema = notificationSchema.extend({
  // Server ids are UUIDs; the seeded welcome notification has an id of this client's own.
  id: z.string().min(1).max(128),
  direction: z.enum(PRICE_ALERT_DIRECTIONS).optional(),
  localOnly: z.boolean().optional(),
});
export type StoredNotification = z.infer<typeof storedNotificationSchema>;

/** Settings, opened at its Notifications section. */
export const NOTIFICATION_SETTINGS_PATH = '/settings?section=notifications';

/** The id of the welcome notification seeded on this device (spec §4 demo notification). */
export const WELCOME_NOTIFICATION_ID = 'local-welcome';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export type RelativeTime =
  | { unit: 'justNow' }
  | { unit: 'minutes' | 'hours' | 'days'; count: number }
  | { unit: 'date'; timestamp: number };

/**
 * Spec §9: under a minute 'Just now', then minutes, hours and days ago up to 7 days, then a date.
 * A time ahead of `now` (another machine's clock) reads as just now.
 */
export function relativeTime(nowMs: number, thenMs: number): RelativeTime {
  const elapsedMs = Math.max(0, nowMs - thenMs);
  if (elapsedMs < MINUTE_MS) return { unit: 'justNow' };
  if (elapsedMs < HOUR_MS) return { unit: 'minutes', count: Math.floor(elapsedMs / MINUTE_MS) };
  if (elapsedMs < DAY_MS) return { unit: 'hours', count: Math.floor(elapsedMs / HOUR_MS) };
  const days = Math.floor(elapsedMs / DAY_MS);
  if (days <= RELATIVE_TIME_MAX_DAYS) return { unit: 'days', count: days };
  return { unit: 'date', timestamp: thenMs };
}

/**
 * Spec §9: the preview is cut at 100 characters, an ellipsis marking the cut. Counted in code
 * points so that an emoji is never split in half.
 */
export function previewText(message: string, maxChars = NOTIFICATION_PREVIEW_MAX_CHARS): string {
  const characters = Array.from(message);
  if (characters.length <= maxChars) return message;
  return `${characters.slice(0, maxChars).join('').trimEnd()}…`;
}

/** Spec §4: the unread badge; nothing when all is read, '99+' above 99. */
export function unreadBadgeText(unreadCount: number): string | null {
  if (unreadCount <= 0) return null;
  return unreadCount > UNREAD_BADGE_MAX ? `${UNREAD_BADGE_MAX}+` : String(unreadCount);
}

export function unreadCount(notifications: readonly StoredNotification[]): number {
  return notifications.reduce((count, item) => (item.isRead ? count : count + 1), 0);
}

/**
 * A price alert's side: the item's own field, else its words ("rose above", "fell below"). Only
 * price alerts have one.
 */
export function priceAlertDirection(notification: StoredNotification): PriceAlertDirection | null {
  if (notification.type !== 'price_alert') return null;
  if (notification.direction) return notification.direction;
  const text = `${notification.title} ${notification.message}`;
  const above = /\b(above|rose|rises|risen)\b/i.test(text);
  const below = /\b(below|fell|falls|fallen|dropped|drops)\b/i.test(text);
  if (above === below) return null;
  return above ? 'above' : 'below';
}

/** Newest first; equal times keep a stable order by id so that lists compare equal. */
export function byNewest(left: StoredNotification, right: StoredNotification): number {
  if (left.timestamp !== right.timestamp) return right.timestamp - left.timestamp;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/** Spec §9: at most 100 are kept, the newest. */
export function capNewest(notifications: readonly StoredNotification[]): StoredNotification[] {
  return [...notifications].sort(byNewest).slice(0, STORED_NOTIFICATIONS_MAX);
}

/** Adds or replaces one notification (by id), newest first, capped. */
export function upsertNotification(
  notifications: readonly StoredNotification[],
  notification: StoredNotification,
): StoredNotification[] {
  return capNewest([notification, ...notifications.filter((item) => item.id !== notification.id)]);
}

/**
 * The list after a load from the server, which is the source of truth: every server item as the
 * server has it, plus what the server cannot know yet: local-only items, and items that arrived
 * live while the load was under way (they may be newer than the server's answer).
 */
export function mergeServerList(
  current: readonly StoredNotification[],
  server: readonly Notification[],
  arrivedDuringLoad: ReadonlySet<string>,
): StoredNotification[] {
  const serverIds = new Set(server.map((item) => item.id));
  const kept = current.filter(
    (item) => !serverIds.has(item.id) && (item.localOnly === true || arrivedDuringLoad.has(item.id)),
  );
  return capNewest([...server, ...kept]);
}

export interface WelcomeTexts {
  title: string;
  message: string;
}

/** The welcome notification seeded once per account on this device (spec §4 demo notification). */
export function welcomeNotification(nowMs: number, texts: WelcomeTexts): StoredNotification {
  return {
    id: WELCOME_NOTIFICATION_ID,
    timestamp: nowMs,
    isRead: false,
    type: 'system',
    title: texts.title,
    message: texts.message,
    severity: 'info',
    actionUrl: NOTIFICATION_SETTINGS_PATH,
    metadata: {},
    localOnly: true,
  };
}

/**
 * Only paths inside the app are followed: an actionUrl is a client route (contracts), and a link
 * to another site must never open from a notification.
 */
export function internalPath(actionUrl: string | null): string | null {
  if (!actionUrl?.startsWith('/') || actionUrl.startsWith('//') || actionUrl.startsWith('/\\')) return null;
  return actionUrl;
}
