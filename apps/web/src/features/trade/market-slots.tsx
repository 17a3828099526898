/**
 * The seam where the market panels of features/trade-market and the account tabs of
 * features/orders plug into the trade page.
 */
export { AccountOrdersTabs as AccountOrdersSlot } from '../orders/index.ts';
export {
  DepthChart as DepthChartSlot,
  OrderBookPanel as OrderBookSlot,
  PriceChart as PriceChartSlot,
  RecentTradesPanel as RecentTradesSlot,
} from '../trade-market/index.ts';
