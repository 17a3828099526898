/** English texts of the trade page's market panels (order book, trades, charts). Merged into `en` as `tradeMarket`. */
export const tradeMarketTexts = {};
