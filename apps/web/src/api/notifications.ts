import { notificationListSchema, notificationSchema, notificationsChangedSchema } from '@platform/contracts';
import { apiClient } from './http.ts';
import { withQuery } from './wallet.ts';

/**
 * The signed-in account's stored notifications (spec §3.8, §4) on the main API. New ones arrive
 * live on the socket's `notifications` channel (notification_update).
 */
export const notificationsApi = {
  list: (options: { unreadOnly?: boolean; limit?: number } = {}) =>
    apiClient.request(
      withQuery('/v1/notifications', {
        unread_only: options.unreadOnly === undefined ? undefined : String(options.unreadOnly),
        limit: options.limit,
      }),
      { schema: notificationListSchema },
    ),
  markRead: (notificationId: string) =>
    apiClient.request(`/v1/notifications/${encodeURIComponent(notificationId)}/read`, {
      method: 'POST',
      schema: notificationSchema,
    }),
  markAllRead: () =>
    apiClient.request('/v1/notifications/read-all', { method: 'POST', schema: notificationsChangedSchema }),
  remove: (notificationId: string) =>
    apiClient.request(`/v1/notifications/${encodeURIComponent(notificationId)}`, { method: 'DELETE' }),
  clear: () => apiClient.request('/v1/notifications', { method: 'DELETE', schema: notificationsChangedSchema }),
};
