import { historyTexts } from '../../i18n/locales/en-history.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { OrderHistoryPage } from './index.ts';

addScreenTexts({ history: historyTexts });

/** Spec §2.1 /orders: open orders and the order history. */
export function Component() {
  return <OrderHistoryPage />;
}
