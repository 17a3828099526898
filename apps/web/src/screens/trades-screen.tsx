import { TradeHistoryPage } from '../features/orders/index.ts';

/** Spec §2.1 /trades: the account's executed trades. */
export function Component() {
  return <TradeHistoryPage />;
}
