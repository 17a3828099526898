import type { Amount } from './amount.ts';
import { toScale } from './arithmetic.ts';
import type { Rounding } from './rounding.ts';

export type FormatOptions = {
  /** Show at this scale: pads with zeros, or rounds with `rounding`. Default: the amount's own scale. */
  scale?: number;
  /**
   * Used only when `scale` is shallower than the amount's. Default `down`: a shown balance must
   * never be more than the real one.
   */
  rounding?: Rounding;
  /** Drop trailing zeros after the point, and the point itself if nothing is left ('1.50' -> '1.5'). */
  trimZeros?: boolean;
};

/**
 * The canonical decimal string: no exponent, no grouping, no leading zeros except the one before
 * the point, and never '-0' (a bigint zero has no sign, so anything that rounds to zero prints
 * without one). Exactly `scale` digits after the point unless `trimZeros`.
 */
export function formatDecimal(value: Amount, options: FormatOptions = {}): string {
  const shown = options.scale === undefined ? value : toScale(value, options.scale, options.rounding ?? 'down');
  const text = formatUnits(shown.units, shown.scale);
  return options.trimZeros ? trimTrailingZeros(text) : text;
}

function formatUnits(units: bigint, scale: number): string {
  const isNegative = units < 0n;
  const digits = (isNegative ? -units : units).toString();
  const sign = isNegative ? '-' : '';
  if (scale === 0) return sign + digits;
  const padded = digits.padStart(scale + 1, '0');
  const pointAt = padded.length - scale;
  return `${sign}${padded.slice(0, pointAt)}.${padded.slice(pointAt)}`;
}

function trimTrailingZeros(text: string): string {
  if (!text.includes('.')) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--;
  if (text.charCodeAt(end - 1) === 46) end--;
  return text.slice(0, end);
}
