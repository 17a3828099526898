import { Bell } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNotificationAnnouncement } from '../../features/notifications/notification-announcer.ts';
import { internalPath, unreadBadgeText, unreadCount } from '../../features/notifications/notification-model.ts';
import { NotificationPanel } from '../../features/notifications/notification-panel.tsx';
import { useNotificationCentre } from '../../features/notifications/use-notification-centre.ts';
import { LiveAnnouncement } from '../ui/live-announcement.tsx';
import { MenuButton } from './menu-button.tsx';

/**
 * Spec §2.3: the bell, shown only when authenticated (the top bar mounts it then). It holds the
 * account's notification centre: the list, its live updates and their alerts.
 */
export function NotificationsMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const centre = useNotificationCentre();
  const unread = unreadCount(centre.notifications);
  const badge = unreadBadgeText(unread);
  return (
    <>
      <NotificationsLiveRegion />
      <MenuButton
        label={badge ? t('notificationCentre.bellUnread', { n: badge }) : t('topBar.notifications')}
        trigger={
          <>
            <Bell size={18} aria-hidden="true" />
            {badge ? (
              <span className="notifications-badge tabular" data-testid="notifications-badge" aria-hidden="true">
                {badge}
              </span>
            ) : null}
          </>
        }
        triggerClassName="notifications-bell"
        testId="notifications-bell"
        panelClassName="notifications-menu-panel"
      >
        {(close) => (
          <NotificationPanel
            notifications={centre.notifications}
            source={centre.source}
            onOpen={(notification) => {
              centre.markRead(notification.id);
              const path = internalPath(notification.actionUrl);
              if (path === null) return;
              close();
              void navigate(path);
            }}
            onDelete={centre.remove}
            onMarkAllRead={centre.markAllRead}
            onClear={centre.clear}
            onClose={close}
          />
        )}
      </MenuButton>
    </>
  );
}

/** New notifications, told to screen readers once each (notification-announcer.ts). */
function NotificationsLiveRegion() {
  const { text, count } = useNotificationAnnouncement();
  // A trailing no-break space on every other message: the same words twice are read twice.
  return <LiveAnnouncement text={count % 2 === 0 ? text : `${text}\u00a0`} testId="notifications-announcer" />;
}
