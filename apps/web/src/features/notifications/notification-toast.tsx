import { Info, TriangleAlert } from 'lucide-react';
import toast from 'react-hot-toast';
import { noticeText } from './notice-text.ts';
import { previewText, type StoredNotification } from './notification-model.ts';

/** A short toast for a notification that just arrived live (spec §2.2: toasts at the top right). */
export function showNotificationToast(notification: StoredNotification): void {
  // In the reader's language when the server sent a text key (notice-text.ts).
  const { title, message } = noticeText(notification);
  const content = (
    <span className="notification-toast" data-testid="notification-toast">
      <strong className="notification-toast-title">{title}</strong>
      {message ? <span className="notification-toast-message">{previewText(message)}</span> : null}
    </span>
  );
  // The notification's id keeps one toast per notification, however often it is pushed. Screen
  // readers hear it from the notifications' own live region (notification-announcer.ts), once.
  const options = {
    id: `notification-${notification.id}`,
    ariaProps: { role: 'status', 'aria-live': 'off' },
  } as const;
  switch (notification.severity) {
    case 'success':
      toast.success(content, options);
      return;
    case 'error':
      toast.error(content, options);
      return;
    case 'warning':
      toast(content, { ...options, icon: <TriangleAlert size={18} className="notification-toast-icon-warning" /> });
      return;
    case 'info':
      toast(content, { ...options, icon: <Info size={18} className="notification-toast-icon-info" /> });
      return;
  }
}
