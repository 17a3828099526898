import type { AppContext, ModuleParts } from '../../context.ts';
import type { OrderEventWriter } from '../../events/orders.ts';
import { orderNotificationsPart } from './order-notifications.ts';
import { notificationsModule } from './routes.ts';
import { type InsertNotifications, insertNotifications } from './service.ts';
import { UnreadCounts } from './unread-count.ts';

export { orderNotifications, orderNotificationsPart } from './order-notifications.ts';
export {
  type AccountNotification,
  type InsertNotifications,
  type NewNotification,
  notify,
  publishNotifications,
} from './service.ts';
export type { UnreadCounts } from './unread-count.ts';

export type Notifications = ModuleParts & {
  /** Writes the order notifications with trading's batches (trading is handed it, never imports it). */
  orderEvents: OrderEventWriter;
  /**
   * Stores notifications in the caller's transaction and drops their accounts' unread counts once
   * it commits: the modules that notify (wallet, payments, withdrawals, KYC) are handed it.
   */
  insert: InsertNotifications;
  /**
   * The unread counts held in memory. The composition root drops from them when a trading batch
   * commits (its order notifications commit with it), before the batch's callers are answered.
   */
  unreadCounts: UnreadCounts;
};

/**
 * Stored notifications and their routes. Spec §4: placed, filled, cancelled and rejected orders
 * notify their owner, except the accounts in `quietAccounts` (the house bots).
 */
export function createNotifications(context: AppContext, quietAccounts: ReadonlySet<string>): Notifications {
  const unreadCounts = new UnreadCounts(context.db);
  return {
    orderEvents: orderNotificationsPart(context.pubsub, quietAccounts),
    insert: (tx, rows, options) => insertNotifications(unreadCounts, tx, rows, options),
    unreadCounts,
    routes: (scope) => notificationsModule(scope, context, unreadCounts),
  };
}
