import { type ThemeColors, themeIds, themes } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { composite, contrastRatio, fillColors, parseColor } from './contrast.ts';

type ColorToken = keyof ThemeColors;

/** Tokens the CSS draws text in, and the surfaces it draws them on. */
const TEXT: ColorToken[] = [
  'text',
  'textMuted',
  'textSubtle',
  'primary',
  'success',
  'danger',
  'warning',
  'info',
  'accent',
];
const SURFACES: ColorToken[] = ['background', 'surface', 'surfaceRaised', 'surfaceHover', 'input'];
/** Tinted fills and the text drawn on them (an active tab, a buy or sell badge). */
const TINTS: Array<[ColorToken, ColorToken]> = [
  ['primary', 'primarySoft'],
  ['success', 'successSoft'],
  ['danger', 'dangerSoft'],
];
/** Badges tint their own colour at 14% (color-mix in the CSS): accent, warning, info. */
const SELF_TINTED: ColorToken[] = ['accent', 'warning', 'info', 'primary', 'success', 'danger'];

/** A token as seen: translucent surfaces over the page background. */
function seen(colors: ThemeColors, token: ColorToken, under: ColorToken = 'background') {
  const base = parseColor(colors.background);
  const below = under === 'background' ? base : composite(parseColor(colors[under]), base);
  return composite(parseColor(colors[token]), below);
}

function failures(id: (typeof themeIds)[number]): string[] {
  const { colors, effects } = themes[id];
  const found: string[] = [];
  const check = (label: string, ratio: number, minimum: number) => {
    if (ratio < minimum) found.push(`${id}: ${label} ${ratio.toFixed(2)} < ${minimum}`);
  };
  for (const text of TEXT) {
    for (const surface of SURFACES) {
      check(`${text} on ${surface}`, contrastRatio(seen(colors, text, surface), seen(colors, surface)), 4.5);
    }
  }
  for (const surface of SURFACES) {
    for (const [text, tint] of TINTS) {
      const fill = composite(parseColor(colors[tint]), seen(colors, surface));
      check(`${text} on ${tint} over ${surface}`, contrastRatio(seen(colors, text), fill), 4.5);
    }
    for (const text of SELF_TINTED) {
      const fill = composite({ ...parseColor(colors[text]), a: 0.14 }, seen(colors, surface));
      check(`${text} on its 14% tint over ${surface}`, contrastRatio(seen(colors, text), fill), 4.5);
    }
  }
  for (const stop of fillColors(effects.primaryFill)) {
    check(`onPrimary on ${stop}`, contrastRatio(parseColor(colors.onPrimary), parseColor(stop)), 4.5);
  }
  check('onSuccess on success', contrastRatio(parseColor(colors.onSuccess), parseColor(colors.success)), 4.5);
  check('onDanger on danger', contrastRatio(parseColor(colors.onDanger), parseColor(colors.danger)), 4.5);
  for (const surface of SURFACES) {
    check(`focusRing on ${surface}`, contrastRatio(seen(colors, 'focusRing', surface), seen(colors, surface)), 3);
  }
  return found;
}

describe('theme contrast (WCAG 2.2 1.4.3, 1.4.11)', () => {
  it('computes the ratios WCAG gives', () => {
    expect(contrastRatio(parseColor('#000'), parseColor('#fff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor('#777777'), parseColor('#ffffff'))).toBeCloseTo(4.48, 2);
    expect(composite(parseColor('rgba(255, 255, 255, 0.5)'), parseColor('#000000')).r).toBeCloseTo(127.5, 5);
  });

  it.each(themeIds)('%s: text 4.5:1 on every surface, the focus ring 3:1', (id) => {
    expect(failures(id)).toEqual([]);
  });
});
