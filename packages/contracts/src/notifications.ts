import { z } from 'zod';
import { STORED_NOTIFICATIONS_MAX } from './constants.ts';
import { decimalString } from './markets.ts';

/**
 * Stored notifications (spec §3.8, §4): the bell's list, kept per account on the server (at most
 * STORED_NOTIFICATIONS_MAX, the oldest go first) and pushed live on the `notifications` socket
 * channel. Field names are the spec's (camelCase), unlike the snake_case of the trading calls,
 * because the client keeps them in this exact form.
 */

export const NOTIFICATION_TYPES = [
  'trade',
  'order',
  'deposit',
  'withdrawal',
  'price_alert',
  'security',
  'system',
] as const;
export const NOTIFICATION_SEVERITIES = ['success', 'info', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

export const notificationMetadataSchema = z.object({
  tradingPair: z.string().optional().describe('Pair id, BASE_QUOTE'),
  amount: decimalString.optional(),
  price: decimalString.optional(),
  orderId: z.string().optional(),
  transactionId: z.string().optional(),
});
export type NotificationMetadata = z.infer<typeof notificationMetadataSchema>;

/**
 * The values a notification's text is written with (docs/i18n.md "Server texts"): raw values only
 * (decimal strings, currency codes, pair ids, side and type codes, counts as numbers), never
 * formatted English, so each client formats them in its own language.
 */
export const notificationParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));
export type NotificationParams = z.infer<typeof notificationParamsSchema>;

export const notificationSchema = z.object({
  id: z.string().uuid(),
  timestamp: z.number().int().describe('Unix milliseconds'),
  isRead: z.boolean(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  message: z.string(),
  severity: z.enum(NOTIFICATION_SEVERITIES),
  actionUrl: z.string().nullable().describe('Where a click on the notification leads, a client route'),
  metadata: notificationMetadataSchema,
  textKey: z
    .string()
    .nullable()
    .optional()
    .describe('The text in the client: notices.<textKey>.title / .message with params; null on old notifications'),
  params: notificationParamsSchema.optional(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Query flags arrive as text; these are the spellings read as true or false. */
const queryFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

export const notificationsQuerySchema = z.object({
  unread_only: queryFlag.default(false),
  limit: z.coerce.number().int().min(1).max(STORED_NOTIFICATIONS_MAX).default(STORED_NOTIFICATIONS_MAX),
});
export type NotificationsQuery = z.infer<typeof notificationsQuerySchema>;

/** GET /v1/notifications: newest first; unread_count counts every unread one, not only those listed. */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unread_count: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationIdParamsSchema = z.object({ id: z.string().uuid() });

/** Answer of the calls that change several notifications at once (read-all, clear). */
export const notificationsChangedSchema = z.object({
  changed: z.number().int().describe('How many notifications the call changed or deleted'),
  unread_count: z.number().int(),
});
export type NotificationsChanged = z.infer<typeof notificationsChangedSchema>;
