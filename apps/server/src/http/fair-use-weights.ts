/**
 * What each API call costs a client's budget (docs/fair-use.md), in the one place: keyed by
 * "METHOD /route/pattern" as Fastify knows the route (request.routeOptions.url), so a route file
 * never needs to know about fair use. HEAD costs what GET costs.
 *
 * A weight is roughly what the call costs the server relative to the cheapest read (1): a read
 * answered from memory with one item is 1; a call that reads the database, walks a long list or
 * encodes many items weighs more, the way Binance weighs /depth by its limit.
 */
export type Budget = 'request' | 'trading' | 'withdrawals';

/** The raw query string values, before the route's schema has parsed them. */
export type RawQuery = Record<string, unknown>;

export type RouteCost = {
  /** A fixed weight, or one read from the query (a list's limit, a book's depth). */
  weight: number | ((query: RawQuery) => number);
  /**
   * The budget the call counts in. `request` (the default) is the weight per minute; `trading`
   * and `withdrawals` are counts of their own, so a flood of reads never refuses an order.
   */
  budget?: Budget;
  reason: string;
};

/** Calls not in the table weigh this: one cheap read. */
export const DEFAULT_WEIGHT = 1;

/**
 * A weight by a numeric query parameter: the first step whose `upTo` covers the value (or the
 * parameter's default when absent or not a number; the schema refuses those later anyway).
 */
export function byQuery(
  name: string,
  defaultValue: number,
  steps: ReadonlyArray<{ upTo: number; weight: number }>,
): (query: RawQuery) => number {
  const heaviest = steps.at(-1)?.weight ?? DEFAULT_WEIGHT;
  return (query) => {
    const raw = query[name];
    const parsed = typeof raw === 'string' && raw !== '' ? Number(raw) : Number.NaN;
    const value = Number.isFinite(parsed) ? parsed : defaultValue;
    return steps.find((step) => value <= step.upTo)?.weight ?? heaviest;
  };
}

/** Account lists read the database a page at a time: a long page costs more to read and encode. */
const accountList = byQuery('limit', 50, [
  { upTo: 100, weight: 5 },
  { upTo: 500, weight: 20 },
]);
const LIST_REASON = 'a database page of the account’s history; pages over 100 rows weigh 20';
const TAX_YEAR_REASON =
  'the lot engine over the account’s whole ledger history, then one tax year of its realised rows (a report, rarely repeated)';
const EXPORT_REASON = 'every row of the period in database pages of 1,000 (a download, rarely repeated)';

export const ROUTE_COSTS: Readonly<Record<string, RouteCost>> = {
  // Public market data: from memory, priced by how much they encode.
  'GET /v1/trading-pairs': { weight: 10, reason: 'every pair with its live fields (Binance weighs all tickers 80)' },
  'GET /v1/triple-a/prices': { weight: 10, reason: 'a price for every pair' },
  'GET /v1/triple-a/trading-pairs/supported': { weight: 5, reason: 'every pair of the facade' },
  'GET /v1/triple-a/trading-pairs/active': { weight: 5, reason: 'every active pair of the facade' },
  'GET /v1/triple-a/currencies/supported': { weight: 5, reason: 'every currency of the facade' },
  'GET /v1/orderbook/:symbol': {
    weight: byQuery('depth', 50, [
      { upTo: 100, weight: 5 },
      { upTo: 500, weight: 25 },
    ]),
    reason: 'the book to a depth: Binance’s depth weights (5 up to 100 levels, 25 up to 500)',
  },
  'GET /v1/orderbook/:symbol/depth': {
    weight: byQuery('depth', 50, [
      { upTo: 100, weight: 5 },
      { upTo: 500, weight: 25 },
    ]),
    reason: 'the book to a depth: Binance’s depth weights (5 up to 100 levels, 25 up to 500)',
  },
  'GET /v1/market/:symbol/candles': {
    weight: byQuery('limit', 500, [
      { upTo: 500, weight: 2 },
      { upTo: 1000, weight: 5 },
    ]),
    reason: 'older candles come from the database; Binance weighs klines 2, we add 3 for a thousand',
  },
  'GET /v1/market/:symbol/trades': {
    weight: byQuery('limit', 50, [
      { upTo: 100, weight: 2 },
      { upTo: 500, weight: 10 },
    ]),
    reason: 'recent trades, up to 500 encoded per call',
  },

  // The account's own history and statistics: database reads.
  'GET /v1/accounts/:id/orders': { weight: accountList, reason: LIST_REASON },
  'GET /v1/accounts/:id/trades': { weight: accountList, reason: LIST_REASON },
  'GET /v1/accounts/:id/trades/history': { weight: accountList, reason: LIST_REASON },
  'GET /v1/accounts/:id/orders/statistics': { weight: 10, reason: 'aggregates over every order of the account' },
  'GET /v1/accounts/:id/trading/statistics': { weight: 10, reason: 'aggregates over every trade of the account' },
  'GET /v1/analytics': {
    weight: 20,
    reason: 'the period’s fills, funding and snapshots, and the lots over the account’s whole ledger history',
  },
  'GET /v1/accounts/:id/analytics': {
    weight: 20,
    reason: 'the period’s fills, funding and snapshots, and the lots over the account’s whole ledger history',
  },
  // Cost basis: each runs the lot engine over the account's whole ledger history.
  'GET /v1/portfolio/lots': {
    weight: 10,
    reason: 'the lot engine over the account’s whole ledger history, one asset’s open lots valued and encoded',
  },
  'GET /v1/portfolio/realised': { weight: 20, reason: TAX_YEAR_REASON },
  'GET /v1/portfolio/tax-report.csv': { weight: 20, reason: TAX_YEAR_REASON },
  'GET /v1/triple-a/trade/orders/history': { weight: 5, reason: 'a database page of closed orders' },
  'GET /v1/wallet/transactions': { weight: 5, reason: 'a database page of ledger entries' },
  'GET /api/v1/wallet/transfers/history': { weight: 5, reason: 'a database page of transfers' },
  'GET /api/v1/wallet/payouts/history': { weight: 5, reason: 'a database page of payouts' },
  'GET /api/v1/wallet/deposits': { weight: 5, reason: 'a database page of deposits' },
  // CSV exports: the whole history of a kind (or a period of it), read page after page.
  'GET /v1/exports/trades.csv': { weight: 20, reason: EXPORT_REASON },
  'GET /v1/exports/transfers.csv': { weight: 20, reason: EXPORT_REASON },
  'GET /v1/exports/deposits.csv': { weight: 20, reason: EXPORT_REASON },
  'GET /v1/exports/withdrawals.csv': { weight: 20, reason: EXPORT_REASON },
  'GET /api/v1/conversions/history': { weight: 5, reason: 'a database page of conversions' },
  'GET /api/v1/trade/history': { weight: 5, reason: 'a database page of quick trades' },
  'GET /api/v1/compliance/kyc': { weight: 5, reason: 'a database page of the review queue' },

  // Trading: counted as orders per account (10 s and 1 min) and per address, not as weight.
  'POST /v1/orders': { weight: 1, budget: 'trading', reason: 'places an order' },
  'POST /v1/orders/:id/cancel': { weight: 1, budget: 'trading', reason: 'cancels an order' },
  'PUT /v1/orders/:id/modify': { weight: 1, budget: 'trading', reason: 'replaces an order' },
  'POST /v1/triple-a/trade/order': { weight: 1, budget: 'trading', reason: 'places an order (facade)' },
  'DELETE /v1/triple-a/trade/order/:id/cancel': { weight: 1, budget: 'trading', reason: 'cancels an order (facade)' },
  'POST /api/v1/trade/execute': { weight: 1, budget: 'trading', reason: 'a quick trade: a market order' },
  'POST /api/v1/conversions': { weight: 1, budget: 'trading', reason: 'a conversion trades against the house' },

  // Money leaving the account: counted per account on their own.
  'POST /api/v1/wallet/withdraw': { weight: 1, budget: 'withdrawals', reason: 'a withdrawal' },
  'POST /api/v1/wallet/payout': { weight: 1, budget: 'withdrawals', reason: 'a payout' },
  'POST /api/v1/wallet/verify-payout': { weight: 1, budget: 'withdrawals', reason: 'confirms a payout' },
  'POST /v1/triple-a/wallet/withdraw': { weight: 1, budget: 'withdrawals', reason: 'a withdrawal (facade)' },
  'POST /api/v1/wallet/transfer': { weight: 1, budget: 'withdrawals', reason: 'a transfer to another account' },
};

/** The cost of a call; HEAD is priced as the GET it mirrors, and unknown paths (404s) as one read. */
export function routeCost(method: string, url: string | undefined): RouteCost | undefined {
  if (url === undefined) return undefined;
  return ROUTE_COSTS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}
