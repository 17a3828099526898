import {
  fundTraders,
  pgliteTarget,
  postgresTarget,
  registerTraders,
  ServerProcess,
  sleep,
  type Target,
  type Trader,
} from '../order-entry/harness.ts';
import { type Market, readMarket } from './orders.ts';

/**
 * The server of the public-reads benchmark: as `npm start` runs it (market makers, simulated takers
 * and the simulator on, a year of seeded history) on a fresh database, in production mode with
 * logs at error level (as the other server benchmarks), and the accounts that place orders.
 */

/** The server as `npm start` runs it, on top of the benchmarks' BENCH_ENV (harness.ts). */
export const NPM_START_ENV: Record<string, string> = {
  MARKET_MAKER_ENABLED: 'true',
  MARKET_TAKER_ENABLED: 'true',
  PRICE_FEED_ENABLED: 'true',
  PRICE_SOURCES: 'simulator',
  HISTORY_DAYS: '365',
  HISTORY_MINUTE_HOURS: '24',
};

/**
 * The fair-use budgets at their defaults (the flood is mostly refused with 429) and raised so far
 * that nothing in a run is refused (the raw serve speed, through the same middleware). Both raise
 * the orders-per-IP budget (1,200 a minute): the bench's 50 traders stand for 50 people on their
 * own addresses, but all send from 127.0.0.1 here, and 200 orders/s from one address is 12,000 a
 * minute. Each trader's own order budget (4 a second here) stays at its default.
 */
export const BUDGETS_DEFAULT: Record<string, string> = {
  RATE_LIMIT_ENABLED: 'true',
  FAIR_USE_ORDERS_PER_IP_PER_MINUTE: '1000000',
};
export const BUDGETS_RAISED: Record<string, string> = {
  ...BUDGETS_DEFAULT,
  FAIR_USE_PUBLIC_WEIGHT_PER_MINUTE: '1000000000',
  FAIR_USE_ACCOUNT_WEIGHT_PER_MINUTE: '1000000000',
};

/** The public reads of issue 15 item 5 (b); /v1/ping is the ceiling (a). */
export const PING = '/v1/ping';
export const READS = [
  '/v1/trading-pairs',
  '/v1/trading-pairs/BTC_USD',
  '/v1/ticker/BTC_USD',
  '/v1/market/BTC_USD/statistics',
  '/v1/market/BTC_USD/candles?interval=1h',
  '/v1/orderbook/BTC_USD/depth',
  '/v1/orderbook/BTC_USD',
  '/v1/market/BTC_USD/trades',
  '/v1/triple-a/prices',
  '/v1/triple-a/trading-pairs/supported',
  '/v1/triple-a/currencies/supported',
  '/v1/triple-a/price/BTC/USD',
  '/health',
];

/** The pairs the orders go to. */
export const ORDER_PAIRS = ['BTC_USD', 'ETH_USD'];

export function targetFor(name: string, postgresUrl: string): Target {
  return name === 'postgres' ? postgresTarget(postgresUrl) : pgliteTarget();
}

/**
 * First start of a fresh database (it seeds the history), with no rate limit so that registering
 * the traders is not refused; then, server down, the traders are funded through the ledger.
 */
export async function prepareTraders(target: Target, count: number): Promise<Trader[]> {
  const server = new ServerProcess();
  await target.prepare();
  await server.start(target, { ...NPM_START_ENV, RATE_LIMIT_ENABLED: 'false' });
  const traders = await registerTraders(server, count);
  await server.stop();
  const db = await target.open();
  await fundTraders(db, traders, { USD: '1000000000', BTC: '100000', ETH: '1000000' }, 'public-reads');
  await db.close();
  return traders;
}

/** Starts the server with these budgets (and node flags) and lets it settle for `warmupS`. */
export async function startWarm(
  target: Target,
  budgets: Record<string, string>,
  warmupS: number,
  nodeFlags: string[] = [],
): Promise<{ server: ServerProcess; markets: (Market & { price: number })[] }> {
  const server = new ServerProcess();
  await server.start(target, { ...NPM_START_ENV, ...budgets }, nodeFlags);
  await sleep(warmupS * 1000);
  const markets = await Promise.all(ORDER_PAIRS.map((pair) => readMarket(server.url, pair)));
  return { server, markets };
}
