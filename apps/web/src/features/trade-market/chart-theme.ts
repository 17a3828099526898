import { type LanguageCode, matchLanguageTag, type ThemeId, themes } from '@platform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';
import { withScriptFont } from '../../theme/apply-theme.ts';
import { scriptFontStack } from '../../theme/script-fonts.ts';

/**
 * Canvas charts cannot read CSS variables, so they take the theme's colours from its definition
 * (the same tokens apply-theme.ts writes as variables) and are given them again on a theme change.
 */
export interface ChartColors {
  background: string;
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  upVolume: string;
  downVolume: string;
  crosshair: string;
  font: string;
}

/** '#16c784' at alpha 0.4 -> 'rgba(22, 199, 132, 0.4)'; other notations are kept as they are. */
export function withAlpha(color: string, alpha: number): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim());
  if (!match) return color;
  const [, red = '0', green = '0', blue = '0'] = match;
  return `rgba(${Number.parseInt(red, 16)}, ${Number.parseInt(green, 16)}, ${Number.parseInt(blue, 16)}, ${alpha})`;
}

/**
 * A theme's colours and font for a canvas chart in a language: the font is the theme's body stack
 * with the language's script fonts named (a canvas cannot resolve var(--font-script)), so that a
 * Japanese axis label ('24日') draws its characters, not empty boxes.
 */
export function chartColors(themeId: ThemeId, language: LanguageCode = 'en'): ChartColors {
  const { colors, fonts } = themes[themeId];
  return {
    background: colors.surface,
    text: colors.textMuted,
    grid: withAlpha(colors.border, 0.6),
    border: colors.border,
    up: colors.success,
    down: colors.danger,
    upVolume: withAlpha(colors.success, 0.35),
    downVolume: withAlpha(colors.danger, 0.35),
    crosshair: colors.textSubtle,
    font: withScriptFont(fonts.body).replace('var(--font-script)', scriptFontStack(language)),
  };
}

/** The chart colours of the current theme and interface language, new when either changes. */
export function useChartColors(): ChartColors {
  const theme = useAppStore((state) => state.theme);
  const { i18n } = useTranslation();
  const language = matchLanguageTag(i18n.language) ?? 'en';
  return useMemo(() => chartColors(theme, language), [theme, language]);
}
