import type { LanguageCode } from '@platform/contracts';

/**
 * Fonts for the scripts a system may lack (Chinese, Japanese, Korean, Devanagari, Arabic): Noto Sans,
 * split by unicode-range, so a page downloads only the slices of the glyphs it shows. A language's
 * font loads with the language; the language lists load them all (they show every native name).
 * base.css puts them after each theme's own fonts (--font-script), in the current language's order.
 */
const scriptFonts: Partial<Record<LanguageCode, () => Promise<unknown>>> = {
  ja: () => import('@fontsource/noto-sans-jp/400.css'),
  zh: () => import('@fontsource/noto-sans-sc/400.css'),
  ko: () => import('@fontsource/noto-sans-kr/400.css'),
  ar: () => import('@fontsource/noto-sans-arabic/400.css'),
  hi: () => import('@fontsource/noto-sans-devanagari/400.css'),
};

const requested = new Set<LanguageCode>();

export function loadScriptFont(code: LanguageCode): void {
  const load = scriptFonts[code];
  if (!load || requested.has(code)) return;
  requested.add(code);
  load().catch(() => requested.delete(code));
}

export function loadAllScriptFonts(): void {
  for (const code of Object.keys(scriptFonts) as LanguageCode[]) loadScriptFont(code);
}
