import { OPEN_ORDER_STATUSES, type Order } from '@platform/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { type OrdersFilter, type TradesFilter, tradingApi } from '../../api/trading.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { tradingQueryKeys } from './query-keys.ts';

/**
 * The account's orders and trades as TanStack queries. Open orders are one query for every pair
 * (the views pick their pair from it), so a socket update has a single list to patch.
 */

/** Rows per page of the histories (the pages and the tabs under the chart). */
export const HISTORY_PAGE_SIZE = 25;

/**
 * The open orders fetched at once: the API's largest page. An account with more sees the newest
 * ones and a note saying how many there are.
 */
export const OPEN_ORDERS_LIMIT = 500;

/**
 * Open orders are read again this often while shown, in case the socket missed an update (the
 * spec's fallback cadence for live data, §9).
 */
export const OPEN_ORDERS_REFRESH_MS = 30_000;

export const openOrdersFilter: OrdersFilter = { status: 'open', limit: OPEN_ORDERS_LIMIT };

export function openOrdersKey(accountId: string) {
  return tradingQueryKeys.orders(accountId, openOrdersFilter);
}

export type OrderList = Awaited<ReturnType<typeof tradingApi.orders>>;
export type TradeList = Awaited<ReturnType<typeof tradingApi.trades>>;

export function isOpen(order: Pick<Order, 'status'>): boolean {
  return (OPEN_ORDER_STATUSES as readonly string[]).includes(order.status);
}

export function useOpenOrders() {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: openOrdersKey(accountId ?? ''),
    queryFn: () => tradingApi.orders(accountId ?? '', openOrdersFilter),
    enabled: accountId !== null,
    refetchInterval: OPEN_ORDERS_REFRESH_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });
}

export function useOrderHistory(filter: OrdersFilter) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: tradingQueryKeys.orders(accountId ?? '', filter),
    queryFn: () => tradingApi.orders(accountId ?? '', filter),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useTradeHistory(filter: TradesFilter) {
  const accountId = useSignedInAccountId();
  return useQuery({
    queryKey: tradingQueryKeys.trades(accountId ?? '', filter),
    queryFn: () => tradingApi.trades(accountId ?? '', filter),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The open-orders list after an order's new state: replaced in place, added at the top when it is
 * new and open, removed when it is no longer open. An update older than the one held is ignored
 * (a refetch and the socket can deliver out of order).
 */
export function applyOrderUpdate(list: OrderList | undefined, order: Order): OrderList | undefined {
  if (!list) return list;
  const index = list.orders.findIndex((held) => held.id === order.id);
  const held = index === -1 ? undefined : list.orders[index];
  if (held && Date.parse(held.updated_at) > Date.parse(order.updated_at)) return list;
  if (!isOpen(order)) {
    if (index === -1) return list;
    return {
      orders: list.orders.filter((_, at) => at !== index),
      pagination: { ...list.pagination, total: Math.max(0, list.pagination.total - 1) },
    };
  }
  if (index !== -1) return { ...list, orders: list.orders.map((existing, at) => (at === index ? order : existing)) };
  return {
    orders: [order, ...list.orders],
    pagination: { ...list.pagination, total: list.pagination.total + 1 },
  };
}

/** Puts an order's new state into the open-orders list and marks every list of the account stale. */
export function recordOrderChange(queryClient: QueryClient, accountId: string, order: Order): void {
  queryClient.setQueryData<OrderList>(openOrdersKey(accountId), (list) => applyOrderUpdate(list, order));
  void queryClient.invalidateQueries({ queryKey: tradingQueryKeys.all(accountId) });
}
