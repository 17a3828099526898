import { groupThousands } from '../../lib/format.ts';
import { compressZeros } from '../../lib/subscript-zeros.ts';

/**
 * Axis, crosshair and last-price labels: chart coordinates (numbers, the library's API), not
 * amounts, written like every other price of the pair: at its tick, tiny ones as 0.0₈2106.
 */
export function axisPrice(price: number, pricePrecision: number): string {
  return compressZeros(groupThousands(price.toFixed(pricePrecision)));
}

/**
 * The price axis drops the trailing zeros every mark shares (0.0₈23, 0.0₈225 rather than
 * 0.0₈230000, 0.0₈225000), keeping at least cents, so the marks stay short and aligned.
 */
export function axisTickmarks(prices: readonly number[], pricePrecision: number): string[] {
  const texts = prices.map((price) => price.toFixed(pricePrecision));
  const keep = Math.min(pricePrecision, 2);
  const shared = Math.min(...texts.map((text) => trailingZeros(text, pricePrecision)));
  const drop = Math.max(0, Math.min(shared, pricePrecision - keep));
  return texts.map((text) => compressZeros(groupThousands(drop > 0 ? text.slice(0, -drop) : text)));
}

function trailingZeros(text: string, decimals: number): number {
  const fraction = text.slice(text.length - decimals);
  return fraction.length - fraction.replace(/0+$/, '').length;
}
