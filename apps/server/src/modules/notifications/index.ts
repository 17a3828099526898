import type { AppContext, ModuleParts } from '../../context.ts';
import type { OrderEventWriter } from '../../events/orders.ts';
import { orderNotificationsPart } from './order-notifications.ts';
import { notificationsModule } from './routes.ts';
import { dropUnreadCounts } from './service.ts';

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
  /** Trading calls it when a batch commits, before answering, with the accounts whose orders it wrote. */
  ordersCommitted: (accountIds: ReadonlySet<string>) => void;
};

/**
 * Stored notifications and their routes. Spec §4: placed, filled, cancelled and rejected orders
 * notify their owner, except the accounts in `quietAccounts` (the house bots).
 */
export function createNotifications(context: AppContext, quietAccounts: ReadonlySet<string>): Notifications {
  return {
    orderEvents: orderNotificationsPart(context.pubsub, quietAccounts),
    ordersCommitted: (accountIds) => dropUnreadCounts(context.db, accountIds),
    routes: (scope) => notificationsModule(scope, context),
  };
}
