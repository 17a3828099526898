/** English texts of the trade page (/trade). Merged into `en` as `trade`. */
export const tradeTexts = {};
