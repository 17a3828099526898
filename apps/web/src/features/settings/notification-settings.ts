import { NOTIFICATION_SETTINGS_STORAGE_KEY } from '@platform/contracts';
import { z } from 'zod';
import { readJsonStorage, writeStorage } from '../../lib/safe-storage.ts';

/** Spec §3.8: the notification settings, kept on this device (spec §9: their own storage key). */
export const notificationSettingKeys = [
  'emailNotifications',
  'pushNotifications',
  'tradeAlerts',
  'priceAlerts',
  'securityAlerts',
  'systemUpdates',
  'soundEnabled',
] as const;
export type NotificationSettingKey = (typeof notificationSettingKeys)[number];
export type NotificationSettings = Record<NotificationSettingKey, boolean>;

export const defaultNotificationSettings: NotificationSettings = {
  emailNotifications: true,
  pushNotifications: false,
  tradeAlerts: true,
  priceAlerts: true,
  securityAlerts: true,
  systemUpdates: true,
  soundEnabled: false,
};

const storedSettingsSchema = z.object({
  emailNotifications: z.boolean().catch(defaultNotificationSettings.emailNotifications),
  pushNotifications: z.boolean().catch(defaultNotificationSettings.pushNotifications),
  tradeAlerts: z.boolean().catch(defaultNotificationSettings.tradeAlerts),
  priceAlerts: z.boolean().catch(defaultNotificationSettings.priceAlerts),
  securityAlerts: z.boolean().catch(defaultNotificationSettings.securityAlerts),
  systemUpdates: z.boolean().catch(defaultNotificationSettings.systemUpdates),
  soundEnabled: z.boolean().catch(defaultNotificationSettings.soundEnabled),
});

export function loadNotificationSettings(): NotificationSettings {
  const parsed = storedSettingsSchema.safeParse(readJsonStorage(NOTIFICATION_SETTINGS_STORAGE_KEY) ?? {});
  return parsed.success ? parsed.data : { ...defaultNotificationSettings };
}

export function saveNotificationSettings(settings: NotificationSettings): void {
  writeStorage(NOTIFICATION_SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}
