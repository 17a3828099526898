import { historyTexts } from '../../i18n/locales/en-history.ts';
import { tradeTexts } from '../../i18n/locales/en-trade.ts';
import { tradeMarketTexts } from '../../i18n/locales/en-trade-market.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { TradePage } from './trade-page.tsx';

addScreenTexts({ trade: tradeTexts, tradeMarket: tradeMarketTexts, history: historyTexts });

/** The book and trades start as the route resolves (features/trade/warm-trade-feeds.ts). */
export { warmTradeFeeds as loader } from './warm-trade-feeds.ts';

/** Spec §2.1: /trade, with an optional pair (BTC/USD) and a carried action (buy or sell). */
export function Component() {
  return <TradePage />;
}
