import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx';
import {
  loadNotificationSettings,
  type NotificationSettingKey,
  notificationSettingKeys,
  saveNotificationSettings,
} from './notification-settings.ts';

export function NotificationsSection() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(loadNotificationSettings);

  const change = (key: NotificationSettingKey, value: boolean) => {
    const next = { ...settings, [key]: value };
    setSettings(next);
    saveNotificationSettings(next);
    toast.success(t('success.settingsSaved'), { id: 'settings-saved' });
  };

  return (
    <section className="settings-card" aria-labelledby="settings-notifications-title">
      <h2 id="settings-notifications-title" className="settings-card-title">
        {t('settings.notifications.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.notifications.description')}</p>
      <div className="toggle-list">
        {notificationSettingKeys.map((key) => (
          <ToggleSwitch
            key={key}
            label={t(`settings.notifications.${key}`)}
            checked={settings[key]}
            onChange={(value) => change(key, value)}
            testId={`notification-${key}`}
          />
        ))}
      </div>
    </section>
  );
}
