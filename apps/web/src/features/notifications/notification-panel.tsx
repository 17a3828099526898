import type { NotificationSeverity } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import {
  ArrowDownRight,
  ArrowUpRight,
  CheckCheck,
  CircleCheck,
  CircleX,
  Info,
  type LucideIcon,
  Settings,
  Trash2,
  TriangleAlert,
  X,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatDateTime } from '../../lib/date-format.ts';
import { noticeText } from './notice-text.ts';
import {
  NOTIFICATION_SETTINGS_PATH,
  previewText,
  priceAlertDirection,
  type RelativeTime,
  relativeTime,
  type StoredNotification,
  unreadCount,
} from './notification-model.ts';
import type { NotificationSource } from './notification-store.ts';
import '../../theme/notifications.css';

/** Relative times are read again this often while the panel is open. */
const CLOCK_TICK_MS = 30_000;

const severityIcons: Record<NotificationSeverity, LucideIcon> = {
  success: CircleCheck,
  info: Info,
  warning: TriangleAlert,
  error: CircleX,
};

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function formatRelativeTime(time: RelativeTime, t: TFunction): string {
  switch (time.unit) {
    case 'justNow':
      return t('notificationCentre.time.justNow');
    case 'minutes':
      return t('notificationCentre.time.minutesAgo', { n: time.count });
    case 'hours':
      return t('notificationCentre.time.hoursAgo', { n: time.count });
    case 'days':
      return t('notificationCentre.time.daysAgo', { n: time.count });
    case 'date':
      return formatDate(time.timestamp);
  }
}

export interface NotificationPanelProps {
  notifications: readonly StoredNotification[];
  source: NotificationSource;
  onOpen: (notification: StoredNotification) => void;
  onDelete: (id: string) => void;
  onMarkAllRead: () => void;
  onClear: () => void;
  onClose: () => void;
}

/** Spec §2.3, §4: the bell's panel, newest first. */
export function NotificationPanel({
  notifications,
  source,
  onOpen,
  onDelete,
  onMarkAllRead,
  onClear,
  onClose,
}: NotificationPanelProps) {
  const { t } = useTranslation();
  const now = useNow(CLOCK_TICK_MS);
  const unread = unreadCount(notifications);
  return (
    <div className="notifications-panel" data-testid="notifications-panel">
      <div className="notifications-header">
        <h2 className="notifications-title">
          {t('notificationCentre.title')}
          {unread > 0 ? (
            <span className="notifications-unread-count">{t('notificationCentre.unreadCount', { n: unread })}</span>
          ) : null}
        </h2>
        <div className="notifications-actions">
          <button
            type="button"
            className="notifications-action"
            data-testid="notifications-mark-all"
            disabled={unread === 0}
            onClick={onMarkAllRead}
          >
            <CheckCheck size={14} aria-hidden="true" />
            {t('notificationCentre.markAllRead')}
          </button>
          <button
            type="button"
            className="notifications-action"
            data-testid="notifications-clear"
            disabled={notifications.length === 0}
            onClick={onClear}
          >
            <Trash2 size={14} aria-hidden="true" />
            {t('notificationCentre.clearAll')}
          </button>
        </div>
      </div>
      {source === 'offline' ? (
        <p className="notifications-offline" role="status">
          {t('notificationCentre.offline')}
        </p>
      ) : null}
      {notifications.length === 0 ? (
        <p className="menu-empty notifications-empty">{t('errors.noNotificationsYet')}</p>
      ) : (
        <ul className="notifications-list">
          {notifications.map((notification) => (
            <NotificationRow
              key={notification.id}
              notification={notification}
              time={formatRelativeTime(relativeTime(now, notification.timestamp), t)}
              onOpen={onOpen}
              onDelete={onDelete}
            />
          ))}
        </ul>
      )}
      <Link className="notifications-footer-link" to={NOTIFICATION_SETTINGS_PATH} onClick={onClose}>
        <Settings size={14} aria-hidden="true" />
        {t('notificationCentre.openSettings')}
      </Link>
    </div>
  );
}

interface NotificationRowProps {
  notification: StoredNotification;
  time: string;
  onOpen: (notification: StoredNotification) => void;
  onDelete: (id: string) => void;
}

function NotificationRow({ notification, time, onOpen, onDelete }: NotificationRowProps) {
  const { t } = useTranslation();
  const SeverityIcon = severityIcons[notification.severity];
  const direction = priceAlertDirection(notification);
  const DirectionIcon = direction === 'above' ? ArrowUpRight : ArrowDownRight;
  // The title and message in the reader's language when the server sent a text key.
  const { title, message } = noticeText(notification, t);
  const preview = previewText(message);
  return (
    <li
      className={clsx('notification-item', !notification.isRead && 'is-unread')}
      data-testid="notification-item"
      data-id={notification.id}
      data-read={String(notification.isRead)}
    >
      <button type="button" className="notification-main" onClick={() => onOpen(notification)}>
        <span className={clsx('notification-icon', `severity-${notification.severity}`)}>
          <SeverityIcon size={16} aria-hidden="true" />
          <span className="visually-hidden">{t(`notificationCentre.severity.${notification.severity}`)}</span>
        </span>
        <span className="notification-body">
          <span className="notification-title-row">
            <span className="notification-title">{title}</span>
            {direction ? (
              <span className={clsx('notification-direction', `is-${direction}`)} data-direction={direction}>
                <DirectionIcon size={12} aria-hidden="true" />
                {t(`notificationCentre.direction.${direction}`)}
              </span>
            ) : null}
          </span>
          {message ? (
            <span className="notification-message" title={preview === message ? undefined : message}>
              {preview}
            </span>
          ) : null}
          <time
            className="notification-time"
            dateTime={new Date(notification.timestamp).toISOString()}
            title={formatDateTime(notification.timestamp)}
          >
            {time}
          </time>
        </span>
        {notification.isRead ? null : (
          <span className="notification-unread-dot">
            <span className="visually-hidden">{t('notificationCentre.unread')}</span>
          </span>
        )}
      </button>
      <button
        type="button"
        className="icon-button icon-button-sm notification-delete"
        aria-label={t('notificationCentre.deleteOne', { title })}
        title={t('notificationCentre.deleteOne', { title })}
        data-testid={`notification-delete-${notification.id}`}
        onClick={(event) => {
          // The row goes away with its button: the keyboard moves on to the next row's delete.
          const row = event.currentTarget.closest('li');
          const neighbour = (row?.nextElementSibling ?? row?.previousElementSibling)?.querySelector<HTMLElement>(
            '.notification-delete',
          );
          onDelete(notification.id);
          neighbour?.focus();
        }}
      >
        <X size={14} aria-hidden="true" />
      </button>
    </li>
  );
}
