import { en } from './locales/en.ts';
import { analyticsTexts } from './locales/en-analytics.ts';
import { futuresTexts } from './locales/en-futures.ts';
import { historyTexts } from './locales/en-history.ts';
import { noticeTexts } from './locales/en-notices.ts';
import { portfolioTexts } from './locales/en-portfolio.ts';
import { serverTexts } from './locales/en-server.ts';
import { settingsTexts } from './locales/en-settings.ts';
import { tradeTexts } from './locales/en-trade.ts';
import { tradeMarketTexts } from './locales/en-trade-market.ts';
import { walletScreenTexts } from './locales/en-wallet.ts';
import type { TextPart } from './text-parts.ts';

/** English, the source of every other language, by part (the completeness test and scripts/i18n-status.ts). */
export const englishParts: Record<TextPart, object> = {
  shell: en,
  server: serverTexts,
  notices: noticeTexts,
  wallet: walletScreenTexts,
  trade: tradeTexts,
  tradeMarket: tradeMarketTexts,
  history: historyTexts,
  futures: futuresTexts,
  settings: settingsTexts,
  portfolio: portfolioTexts,
  analytics: analyticsTexts,
};
