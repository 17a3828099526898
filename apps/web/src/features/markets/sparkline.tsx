import { useId } from 'react';

const WIDTH = 112;
const HEIGHT = 32;
const PADDING = 2;
/**
 * The drawing spans at least this share of the average price, so that a stablecoin's tenth of a
 * cent does not look like a crash: small moves stay small.
 */
const MIN_RELATIVE_SPAN = 0.02;

/**
 * Pixel coordinates of a line through the closes. Prices become numbers here and only here: the
 * values are never shown, they only place points on a 112 x 32 drawing.
 */
export function sparklinePoints(closes: readonly string[], width = WIDTH, height = HEIGHT): string {
  const values = closes.map(Number).filter(Number.isFinite);
  if (values.length < 2) return '';
  const average = values.reduce((total, value) => total + value, 0) / values.length;
  const minSpan = Math.abs(average) * MIN_RELATIVE_SPAN || 1;
  const middle = (Math.min(...values) + Math.max(...values)) / 2;
  const span = Math.max(Math.max(...values) - Math.min(...values), minSpan);
  const low = middle - span / 2;
  const step = (width - PADDING * 2) / (values.length - 1);
  return values
    .map((value, index) => {
      const x = PADDING + index * step;
      const y = height - PADDING - ((value - low) / span) * (height - PADDING * 2);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** Whether the last close is at or above the first (decides the colour). */
export function sparklineRises(closes: readonly string[]): boolean {
  const first = Number(closes[0]);
  const last = Number(closes.at(-1));
  return !(last < first);
}

export function Sparkline({ closes, label }: { closes: readonly string[]; label: string }) {
  const gradientId = useId();
  const points = sparklinePoints(closes);
  if (!points) return <span className="sparkline sparkline-empty" aria-hidden="true" />;
  const rises = sparklineRises(closes);
  const area = `${PADDING},${HEIGHT} ${points} ${WIDTH - PADDING},${HEIGHT}`;
  return (
    <svg
      className={`sparkline ${rises ? 'sparkline-up' : 'sparkline-down'}`}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor="currentColor" stopOpacity="0.22" />
          <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
        </linearGradient>
      </defs>
      <polygon points={area} fill={`url(#${gradientId})`} />
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}
