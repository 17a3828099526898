import { OrderHistoryPage } from '../features/orders/index.ts';

/** Spec §2.1 /orders: open orders and the order history. */
export function Component() {
  return <OrderHistoryPage />;
}
