/**
 * The out-of-band price refusal. It keeps the spec's code (INVALID_PRICE, §8) but says why, with
 * the band the server runs with (PRICE_BAND_BPS), so a trader knows what price would be accepted.
 */

const FIELD_LABELS: Record<string, string> = {
  price: 'Price',
  stop_price: 'Stop price',
  stop_limit_price: 'Stop-limit price',
};

/** Basis points as a percentage text without a JavaScript division: 1000 -> '10', 250 -> '2.5', 15 -> '0.15'. */
export function basisPointsAsPercent(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** 'Price must be within 10% of the market price'. */
export function priceBandMessage(field: string, bandBps: number): string {
  const label = FIELD_LABELS[field] ?? 'Price';
  return `${label} must be within ${basisPointsAsPercent(bandBps)}% of the market price`;
}
