import { futuresTexts } from '../../i18n/locales/en-futures.ts';
import { historyTexts } from '../../i18n/locales/en-history.ts';
import { tradeTexts } from '../../i18n/locales/en-trade.ts';
import { tradeMarketTexts } from '../../i18n/locales/en-trade-market.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { FuturesPage } from './futures-page.tsx';

addScreenTexts({ trade: tradeTexts, tradeMarket: tradeMarketTexts, history: historyTexts, futures: futuresTexts });

/** /trade/futures/:market: the perpetual futures screen (issue F9, item 9). */
export function Component() {
  return <FuturesPage />;
}
