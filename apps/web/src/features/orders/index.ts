/** The account's orders and trades: the tabs under the trade page's chart, /orders and /trades. */
export { AccountOrdersTabs } from './account-orders-tabs.tsx';
export { OrderHistoryPage, TradeHistoryPage } from './history-pages.tsx';
export { useLiveOrders } from './use-live-orders.ts';
