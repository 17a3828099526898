export { orderNotifications, orderNotificationsPart } from './order-notifications.ts';
export { notificationsModule } from './routes.ts';
export {
  type AccountNotification,
  insertNotifications,
  type NewNotification,
  notify,
  publishNotifications,
} from './service.ts';
