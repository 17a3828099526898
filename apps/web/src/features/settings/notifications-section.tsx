import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx';
import { type PushPermission, pushPermission, requestPushPermission } from '../notifications/notification-alerts.ts';
import {
  loadNotificationSettings,
  type NotificationSettingKey,
  notificationSettingKeys,
  saveNotificationSettings,
} from './notification-settings.ts';

/** The switches with a line saying what they cover (the others are plain enough). */
const hintKeys = {
  pushNotifications: 'notificationCentre.settings.pushNotificationsHint',
  tradeAlerts: 'notificationCentre.settings.tradeAlertsHint',
  priceAlerts: 'notificationCentre.settings.priceAlertsHint',
  securityAlerts: 'notificationCentre.settings.securityAlertsHint',
  systemUpdates: 'notificationCentre.settings.systemUpdatesHint',
  soundEnabled: 'notificationCentre.settings.soundEnabledHint',
} as const satisfies Partial<Record<NotificationSettingKey, string>>;

function pushProblemKey(permission: PushPermission) {
  if (permission === 'denied') return 'notificationCentre.settings.pushBlocked' as const;
  if (permission === 'unsupported') return 'notificationCentre.settings.pushUnsupported' as const;
  return null;
}

/**
 * Spec §3.8: the seven notification settings, saved on this device at each change. The bell's
 * centre reads them when a notification arrives, so a change applies at once.
 */
export function NotificationsSection() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(loadNotificationSettings);
  const [permission, setPermission] = useState(() => pushPermission());

  const change = (key: NotificationSettingKey, value: boolean) => {
    const next = { ...settings, [key]: value };
    setSettings(next);
    saveNotificationSettings(next);
    toast.success(t('success.settingsSaved'), { id: 'settings-saved' });
    // The browser asks the user only in answer to a click: turning push on is that click.
    if (key === 'pushNotifications' && value) void requestPushPermission().then(setPermission);
  };

  const pushProblem = settings.pushNotifications ? pushProblemKey(permission) : null;
  return (
    <section className="settings-card" aria-labelledby="settings-notifications-title">
      <h2 id="settings-notifications-title" className="settings-card-title">
        {t('settings.notifications.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.notifications.description')}</p>
      <div className="toggle-list">
        {notificationSettingKeys.map((key) => {
          const hintKey = key in hintKeys ? hintKeys[key as keyof typeof hintKeys] : null;
          return (
            <ToggleSwitch
              key={key}
              label={t(`settings.notifications.${key}`)}
              {...(hintKey ? { hint: t(hintKey) } : {})}
              checked={settings[key]}
              onChange={(value) => change(key, value)}
              testId={`notification-${key}`}
            />
          );
        })}
      </div>
      {pushProblem ? (
        <p className="settings-card-description" role="status" data-testid="notification-push-problem">
          {t(pushProblem)}
        </p>
      ) : null}
      <p className="settings-card-description">{t('notificationCentre.settings.alertsNote')}</p>
    </section>
  );
}
