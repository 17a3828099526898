import type { AppContext, ModuleParts } from '../../context.ts';
import type { OrderEventWriter } from '../../events/orders.ts';
import { orderNotificationsPart } from './order-notifications.ts';
import { notificationsModule } from './routes.ts';

export { orderNotifications, orderNotificationsPart } from './order-notifications.ts';
export {
  type AccountNotification,
  insertNotifications,
  type NewNotification,
  notify,
  publishNotifications,
} from './service.ts';

export type Notifications = ModuleParts & {
  /** Writes the order notifications with trading's batches (trading is handed it, never imports it). */
  orderEvents: OrderEventWriter;
};

/**
 * Stored notifications and their routes. Spec §4: placed, filled, cancelled and rejected orders
 * notify their owner, except the accounts in `quietAccounts` (the house bots).
 */
export function createNotifications(context: AppContext, quietAccounts: ReadonlySet<string>): Notifications {
  return {
    orderEvents: orderNotificationsPart(context.pubsub, quietAccounts),
    routes: (scope) => notificationsModule(scope, context),
  };
}
