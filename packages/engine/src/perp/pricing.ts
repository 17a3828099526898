const todo = (): never => {
  throw new Error('not implemented yet');
};

/** The index: the median of the sources' prices (ticks); the mean of the two middle ones rounded half up for an even count; null for none. */
export function indexPriceTicks(sourcePrices: readonly number[]): number | null {
  return todo();
}

export interface MarkPriceOptions {
  /** Basis samples kept for the moving average (one per sample() call). */
  window: number;
  /** The mark never strays more than this from the index (RATE_SCALE, e.g. 0.5 % = 500_000n). */
  maxBasisRate: bigint;
}
/**
 * Mark = index + moving average of (book mid - index), clamped to +/- maxBasisRate of the index.
 * A sample without a two-sided book counts a basis of 0, so an empty or one-sided book pulls the
 * mark to the index; one trade cannot move it (the book's mid, not the last price).
 */
export class MarkPriceTracker {
  constructor(readonly options: MarkPriceOptions) {}
  sample(indexTicks: number, bestBidTicks: number | null, bestAskTicks: number | null): void {
    todo();
  }
  /** null before the first sample. */
  markTicks(): number | null {
    return todo();
  }
  indexTicks(): number | null {
    return todo();
  }
}
