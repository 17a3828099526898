/**
 * WCAG 2.x contrast of theme colours (docs/accessibility.md): the relative luminance and contrast
 * ratio of §1.4.3, with translucent colours laid over what they are drawn on first.
 */

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** '#rgb', '#rrggbb' or 'rgba(r, g, b, a)' / 'rgb(r, g, b)'. */
export function parseColor(text: string): Rgba {
  const value = text.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
    return {
      r: Number.parseInt(full.slice(0, 2), 16),
      g: Number.parseInt(full.slice(2, 4), 16),
      b: Number.parseInt(full.slice(4, 6), 16),
      a: 1,
    };
  }
  const parts = /^rgba?\(([^)]+)\)$/i
    .exec(value)?.[1]
    ?.split(',')
    .map((part) => Number(part.trim()));
  if (!parts || parts.length < 3 || parts.some((part) => Number.isNaN(part))) {
    throw new Error(`not a colour: ${text}`);
  }
  const [r = 0, g = 0, b = 0, a = 1] = parts;
  return { r, g, b, a };
}

/** The colour seen when `top` is painted over the opaque `bottom`. */
export function composite(top: Rgba, bottom: Rgba): Rgba {
  const mix = (upper: number, lower: number) => upper * top.a + lower * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

function channel(value: number): number {
  const s = value / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function luminance(color: Rgba): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b);
}

/** The contrast ratio (1 to 21) of two opaque colours. */
export function contrastRatio(first: Rgba, second: Rgba): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The hex colours a fill holds: one for a flat colour, every stop of a gradient. */
export function fillColors(fill: string): string[] {
  return fill.match(/#[0-9a-f]{6}\b|#[0-9a-f]{3}\b|rgba?\([^)]+\)/gi) ?? [];
}
