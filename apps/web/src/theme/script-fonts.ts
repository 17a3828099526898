import type { LanguageCode } from '@platform/contracts';

/**
 * Fonts for the scripts a system may lack (Chinese, Japanese, Korean, Devanagari, Arabic): Noto Sans,
 * split by unicode-range, so a page downloads only the slices of the glyphs it shows. A language's
 * font loads with the language; the language lists load them all (they show every native name, each
 * marked with its lang, which base.css gives its script's font). The interface language's script
 * font comes after each theme's own fonts and before its generic family (--font-script).
 */
const scriptFonts: Partial<Record<LanguageCode, () => Promise<unknown>>> = {
  ja: () => import('@fontsource/noto-sans-jp/400.css'),
  zh: () => import('@fontsource/noto-sans-sc/400.css'),
  ko: () => import('@fontsource/noto-sans-kr/400.css'),
  // Their script only (no Latin faces): one file each, about 50 kB.
  ar: () => import('@fontsource/noto-sans-arabic/arabic-400.css'),
  hi: () => import('@fontsource/noto-sans-devanagari/devanagari-400.css'),
};

/** Chinese, Japanese and Korean each have their own Noto face (the same characters are drawn differently). */
const CJK_FACES: Partial<Record<LanguageCode, string>> = {
  ja: '"Noto Sans JP"',
  zh: '"Noto Sans SC"',
  ko: '"Noto Sans KR"',
};

/**
 * The families of --font-script in a language, as base.css sets them for <html lang>: for a canvas
 * (the charts), which cannot read a CSS variable. A test keeps the two the same.
 */
export function scriptFontStack(code: LanguageCode): string {
  return [CJK_FACES[code], '"Noto Sans Arabic"', '"Noto Sans Devanagari"'].filter(Boolean).join(', ');
}

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
