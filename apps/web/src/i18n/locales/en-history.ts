/** English texts of the order and trade history (/orders, /trades, and the tabs under the chart). Merged into `en` as `history`. */
export const historyTexts = {};
