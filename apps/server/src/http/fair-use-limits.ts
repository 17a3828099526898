/**
 * The fair-use budgets (docs/fair-use.md), each with its reason (CONVENTIONS.md habit 4). These are
 * the defaults; config.ts reads each from the environment (FAIR_USE_*), and RATE_LIMIT_ENABLED=false
 * turns them all off. A call counts in one budget only: reads in their weight budget, orders and
 * withdrawals in budgets of their own, so no flood of reads can refuse an order.
 */
export type FairUseLimits = {
  /**
   * Weight per minute per client address, for calls without a valid access token. Binance's
   * REQUEST_WEIGHT is 6,000 per minute per IP; a trading page polling a few reads a second spends a
   * few hundred, a bot polling every pair in a tight loop meets the limit within seconds.
   */
  publicWeightPerMinute: number;
  /**
   * Weight per minute per account, for calls with a valid access token, wherever they come from:
   * the account's own traffic, never shared with strangers behind the same address.
   */
  accountWeightPerMinute: number;
  /**
   * Orders (placed, cancelled, modified, quick trades, conversions) per account per 10 seconds: a
   * burst of ten a second is far above what a person clicks and what the market makers here need.
   */
  ordersPer10Seconds: number;
  /** Orders per account per minute: five a second sustained, half of what the 10-second budget would allow. */
  ordersPerMinute: number;
  /**
   * Orders per client address per minute, whatever the account: an office or a bot farm behind one
   * address shares it, and accounts made in bulk do not multiply one address's order rate without end.
   */
  ordersPerIpPerMinute: number;
  /**
   * Withdrawals, payouts and transfers per account per minute: money leaving an account is rare; a
   * merchant paying out in a batch stays under it, a script draining a stolen session is slowed.
   */
  withdrawalsPerMinute: number;
};

export const FAIR_USE_LIMITS: FairUseLimits = {
  publicWeightPerMinute: 6_000,
  accountWeightPerMinute: 6_000,
  ordersPer10Seconds: 100,
  ordersPerMinute: 300,
  ordersPerIpPerMinute: 1_200,
  withdrawalsPerMinute: 30,
};

/**
 * After a refusal the client's connection is not read for this long (or until its window frees,
 * when sooner): TCP back-pressure makes a client that ignores 429 wait instead of our CPU answering
 * it. Short, so a well-behaved client on a shared connection is barely delayed.
 */
export const REFUSED_PAUSE_MS = 1_000;
