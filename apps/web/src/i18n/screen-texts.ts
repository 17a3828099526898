import { i18n } from './i18n.ts';
import type { ScreenTexts } from './locales/en.ts';

/**
 * Adds a screen's English texts when its code loads: the shell carries only its own texts, and a
 * screen's come with its chunk (deep-merged into the one `translation` namespace, so keys stay
 * `wallet.deposit.title`). Every other language falls back to English key by key, as before.
 */
export function addScreenTexts(texts: Partial<ScreenTexts>): void {
  i18n.addResourceBundle('en', 'translation', texts, true, false);
}
