import type { Notification } from '@platform/contracts';
import type { StoredNotification } from './notification-model.ts';

/** Test data: a fixed "now" and notifications in the stored form. */
export const FIXED_NOW_MS = Date.UTC(2025, 5, 15, 12, 0, 0);

export function makeNotification(overrides: Partial<StoredNotification> = {}): StoredNotification {
  return {
    id: crypto.randomUUID(),
    timestamp: FIXED_NOW_MS,
    isRead: false,
    type: 'order',
    title: 'Order placed',
    message: 'Buy 0.5 BTC at 60,000.00',
    severity: 'info',
    actionUrl: null,
    metadata: {},
    ...overrides,
  };
}

/** A notification as the server sends it (a UUID id, no client fields). */
export function makeServerNotification(overrides: Partial<Notification> = {}): Notification {
  const { direction: _direction, localOnly: _localOnly, ...notification } = makeNotification(overrides);
  return notification;
}
