import type { CSSProperties } from 'react';

/** A round badge with the coin's first letters, coloured from its symbol (no image requests). */
export function coinHue(symbol: string): number {
  let hash = 0;
  for (const character of symbol) hash = (hash * 31 + character.charCodeAt(0)) % 360;
  return hash;
}

export function CoinIcon({ symbol, size = 28 }: { symbol: string; size?: number }) {
  const hue = coinHue(symbol);
  const letters = symbol.slice(0, 3);
  return (
    <span
      className="coin-icon"
      aria-hidden="true"
      // Drawn by CSS (::before): a decorative glyph, not text of the control it sits in (WCAG 2.5.3).
      data-letters={letters}
      style={
        {
          width: size,
          height: size,
          fontSize: Math.round(size * (letters.length >= 3 ? 0.3 : 0.38)),
          // The letters' lightness is the theme's (light or dark), for 4.5:1 on the tint.
          '--coin-hue': hue,
        } as CSSProperties
      }
    />
  );
}
