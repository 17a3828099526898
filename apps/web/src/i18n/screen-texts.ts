import { currentLanguage, i18n } from './i18n.ts';
import { wantParts } from './locale-loader.ts';
import type { ScreenTexts } from './locales/en.ts';
import type { ScreenPart } from './text-parts.ts';

/**
 * Adds a screen's English texts when its code loads, and starts loading the same parts in the
 * current language: the shell carries only its own texts, and a screen's come with its chunk
 * (deep-merged into the one `translation` namespace, so keys stay `wallet.deposit.title`). The route
 * loader waits for them (routes/route-modules.ts), so a screen never paints in the wrong language.
 */
export function addScreenTexts(texts: Partial<ScreenTexts>): void {
  i18n.addResourceBundle('en', 'translation', texts, true, false);
  wantParts(Object.keys(texts) as ScreenPart[], currentLanguage());
}
