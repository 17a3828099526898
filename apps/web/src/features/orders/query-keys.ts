import type { OrdersFilter, TradesFilter } from '../../api/trading.ts';

/** The TanStack Query keys of an account's trading (the order form, open orders and histories). */
export const tradingQueryKeys = {
  /** Everything of one account's trading: invalidating it refreshes open orders and both histories. */
  all: (accountId: string) => ['trading', accountId] as const,
  orders: (accountId: string, filter: OrdersFilter) => ['trading', accountId, 'orders', filter] as const,
  trades: (accountId: string, filter: TradesFilter) => ['trading', accountId, 'trades', filter] as const,
};
