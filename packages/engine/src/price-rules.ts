/**
 * The two price rules every order book of the platform applies, spot and futures alike (the futures
 * layer keeps its stop orders off the book, apps/server futures/waiting.ts, and must decide exactly
 * as the book would). Pure integer arithmetic on ticks.
 */

const BASIS_POINTS_PER_UNIT = 10_000n;

/**
 * Stops trigger when the price moves against the position (a sell on a fall to the stop, a buy on a
 * rise); take-profit orders trigger on the favourable move instead.
 */
export function stopTriggered(
  takeProfit: boolean,
  side: 'buy' | 'sell',
  stopPriceTicks: number,
  lastTradePriceTicks: number,
): boolean {
  const onFall = (side === 'sell') !== takeProfit;
  return onFall ? lastTradePriceTicks <= stopPriceTicks : lastTradePriceTicks >= stopPriceTicks;
}

/** Whether a price lies within `bandBps` of the reference price (no reference: no band). */
export function withinPriceBand(priceTicks: number, referencePriceTicks: number | null, bandBps: number): boolean {
  if (referencePriceTicks === null) return true;
  const distance = BigInt(priceTicks) - BigInt(referencePriceTicks);
  const magnitude = distance < 0n ? -distance : distance;
  return magnitude * BASIS_POINTS_PER_UNIT <= BigInt(referencePriceTicks) * BigInt(bandBps);
}
