import type { Order } from '@platform/contracts';
import type { Statement } from '../db/statement.ts';

/**
 * Trading's order events as the modules that listen to them see them. The types live here, between
 * the modules, so that trading announces them without knowing who listens, and listeners (the
 * notifications) read them without importing trading.
 */

/** What became of an order in a batch (spec §4). */
export type OrderEventKind = 'placed' | 'filled' | 'cancelled' | 'rejected' | 'expired' | 'completed';

/** The market of a batch, by its names. */
export interface OrderEventMarket {
  id: string;
  symbol: string;
  base: string;
  quote: string;
}

/** One order's change in a batch. */
export interface OrderEvent {
  kind: OrderEventKind;
  order: { id: string; accountId: string; updatedAt: Date };
}

/** The order events of one market's batch. */
export interface OrderEventBatch {
  market: OrderEventMarket;
  events: readonly OrderEvent[];
  /** The order of `events[index]` as the API shows it, made only when asked (most events are the house bots'). */
  view(index: number): Order;
}

/**
 * A listener that writes with trading's batches, in the same statement, so that what it writes
 * (a notification) exists exactly when the order change does. It adds its CTEs and named parameters
 * to `stmt` (counting no positions and knowing nothing of the other parts), its writes wait on
 * `gate`, and it returns what to run once the statement has committed (null when it added nothing).
 */
export type OrderEventWriter = (
  batches: readonly OrderEventBatch[],
  stmt: Statement,
  gate: string,
) => (() => void) | null;
