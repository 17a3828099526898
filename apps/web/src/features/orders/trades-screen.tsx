import { historyTexts } from '../../i18n/locales/en-history.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { TradeHistoryPage } from './index.ts';

addScreenTexts({ history: historyTexts });

/** Spec §2.1 /trades: the account's executed trades. */
export function Component() {
  return <TradeHistoryPage />;
}
