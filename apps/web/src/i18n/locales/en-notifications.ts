/** English texts of the notification centre (the bell). Merged into `en` as `notificationCentre`. */
export const notificationCentreTexts = {
  title: 'Notifications',
  bellUnread: 'Notifications, {{n}} unread',
  unreadCount: '{{n}} unread',
  markAllRead: 'Mark all as read',
  clearAll: 'Clear all',
  deleteOne: 'Delete notification: {{title}}',
  unread: 'Unread',
  offline: 'Offline: showing the copy on this device',
  openSettings: 'Notification settings',
  time: {
    justNow: 'Just now',
    minutesAgo: '{{n}}m ago',
    hoursAgo: '{{n}}h ago',
    daysAgo: '{{n}}d ago',
  },
  severity: {
    success: 'Success',
    info: 'Information',
    warning: 'Warning',
    error: 'Error',
  },
  direction: {
    above: 'Above',
    below: 'Below',
  },
  welcome: {
    title: 'Welcome to Meridian',
    message: 'Orders, deposits, price alerts and security notices appear here. Choose what alerts you in Settings.',
  },
  failed: {
    markRead: 'Could not mark the notification as read',
    markAllRead: 'Could not mark the notifications as read',
    remove: 'Could not delete the notification',
    clear: 'Could not clear the notifications',
  },
  settings: {
    tradeAlertsHint: 'Orders placed, filled, cancelled or rejected, and trades.',
    priceAlertsHint: 'A price going above or below your alert.',
    securityAlertsHint: 'Sign-ins and changes to your account security.',
    systemUpdatesHint: 'Maintenance and product news.',
    soundEnabledHint: 'A short tone for each new alert; its pitch tells success from errors.',
    pushNotificationsHint: 'Shown by your browser, even when this tab is in the background.',
    pushBlocked: 'Your browser blocks notifications from this site. Allow them in its site settings.',
    pushUnsupported: 'This browser cannot show notifications.',
    alertsNote: 'These switches choose what alerts you. Every notification is still kept in the bell.',
  },
  balancesFallback: {
    note: 'Placeholder values, not your balances',
    total: 'Total',
  },
};
