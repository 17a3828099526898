import type { Order } from '@platform/contracts';

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

/** SQL run inside trading's one write statement: CTEs, their parameters from $offset + 1, and what to do once committed. */
export type StatementPart = { ctes: string; params: unknown[]; after?: () => void };

/**
 * A listener that writes with trading's batches, in the same statement, so that what it writes
 * (a notification) exists exactly when the order change does. Its writes wait on `gate`.
 */
export type OrderEventWriter = (
  batches: readonly OrderEventBatch[],
  offset: number,
  gate: string,
) => StatementPart | null;
