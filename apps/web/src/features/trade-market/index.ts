/**
 * The trade page's market panels: order book, recent trades, price chart and depth chart. Their data
 * comes from features/market-data. PriceChart loads the chart library on first render (its own
 * chunk), so importing this index does not.
 */
export { DepthChart, type DepthChartProps } from './depth-chart.tsx';
export { PriceChart } from './lazy-price-chart.tsx';
export { OrderBookPanel, type OrderBookPanelProps } from './order-book-panel.tsx';
export type { PriceChartProps, PriceLineMark } from './price-chart.tsx';
export { RecentTradesPanel, type RecentTradesPanelProps } from './recent-trades-panel.tsx';
