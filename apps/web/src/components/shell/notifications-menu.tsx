import { Bell } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MenuButton } from './menu-button.tsx';

/** Spec §2.3: the bell, shown only when authenticated. The notification feed arrives later. */
export function NotificationsMenu() {
  const { t } = useTranslation();
  return (
    <MenuButton
      label={t('topBar.notifications')}
      trigger={<Bell size={18} aria-hidden="true" />}
      testId="notifications-bell"
      panelClassName="menu-panel-wide"
    >
      {() => (
        <>
          <p className="menu-heading">{t('topBar.notifications')}</p>
          <p className="menu-empty">{t('errors.noNotificationsYet')}</p>
        </>
      )}
    </MenuButton>
  );
}
