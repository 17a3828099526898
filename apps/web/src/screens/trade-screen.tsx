import { TradePage } from '../features/trade/trade-page.tsx';

/** Spec §2.1: /trade, with an optional pair (BTC/USD) and a carried action (buy or sell). */
export function Component() {
  return <TradePage />;
}
