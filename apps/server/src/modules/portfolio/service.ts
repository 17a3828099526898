import type {
  FuturesAccount,
  FuturesPosition,
  LotMethodName,
  PortfolioPosition,
  PortfolioSummary,
} from '@platform/contracts';
import { type Amount, add, compare, decimal, isZero, mul, sub, sum, zero } from '@platform/money';
import type { FuturesExchange } from '../futures/index.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import { holdingCost } from './holding-cost.ts';
import type { LedgerChanges } from './ledger-changes.ts';
import type { AssetLots } from './lot-cache.ts';
import {
  byValue,
  distanceToLiquidation,
  type PriceLookup,
  percentOf,
  shares,
  text,
  type ValuedHolding,
  valueHolding,
} from './valuation.ts';

/** What the summary reads: every source is memory (the ledger's balance cache, the futures exchange, the feed). */
export type PortfolioDeps = {
  balances: Pick<BalanceCache, 'balances'>;
  futures: Pick<FuturesExchange, 'accounts' | 'markets'>;
  prices: PriceLookup;
  /** The account's balance-change version, to tell whether a transfer crossed the two reads. */
  changes: Pick<LedgerChanges, 'version'>;
  clock: () => Date;
  /** The account's stored lot method (settings.ts). */
  method(accountId: string): Promise<LotMethodName>;
  /** The account's open lots per asset under a method, up to date (the lot cache, lot-cache.ts). */
  lots(accountId: string, method: LotMethodName): Promise<(asset: string) => AssetLots | undefined>;
};

/**
 * GET /v1/portfolio: the account's spot balances (the ledger's balance cache: one query on a miss,
 * none after) and its futures wallet and positions (the exchange's memory, read after them: see
 * consistentRead), valued at the live USD reference prices; each holding's cost basis from the lot
 * cache (the movements committed since the account's last request, one indexed read).
 */
export async function portfolioSummary(deps: PortfolioDeps, accountId: string): Promise<PortfolioSummary> {
  const [{ balances, overview }, method] = await Promise.all([consistentRead(deps, accountId), deps.method(accountId)]);
  // Read after the balances: the lots hold at least every entry the balances reflect.
  const lotsOf = await deps.lots(accountId, method);
  const holdings = balances
    .filter((row) => !isZero(add(decimal(row.available), decimal(row.locked))))
    .map((row) => valueHolding(row, deps.prices))
    .sort(byValue);
  const futures = futuresPart(deps, overview.account, overview.positions);
  const spotValue = sumOf(holdings.map((h) => h.value));
  const total = add(spotValue, futures.equity);
  const total24hAgo = add(sumOf(holdings.map((h) => h.value24hAgo)), futures.equity24hAgo);
  const change = sub(total, total24hAgo);
  const holdingShares = shares([...holdings.map((h) => h.value ?? zero()), futures.equity]);
  const changePercent = percentOf(change, total24hAgo);
  return {
    currency: 'USD',
    total_value: text(total),
    total_value_24h_ago: text(total24hAgo),
    change_24h: text(change),
    change_24h_percent: changePercent && text(changePercent),
    locked_value: text(sumOf(holdings.map((h) => h.lockedValue))),
    allocation: {
      by_asset: allocation(assetValues(holdings, futures.equity)),
      by_product: allocation([
        ['spot', spotValue],
        ['futures', futures.equity],
      ]),
    },
    holdings: holdings.map((h, index) => ({
      ...h.row,
      share_percent: text(holdingShares[index]!),
      ...holdingCost(h.row.asset, lotsOf(h.row.asset), deps.prices(h.row.asset)),
    })),
    futures: { ...futures.block, share_percent: text(holdingShares[holdings.length]!) },
    method,
    timestamp: deps.clock().getTime(),
  };
}

/**
 * Spot balances (the ledger) and the futures wallet (the exchange's memory) are two reads; a
 * transfer between them must not be counted twice or not at all. Every transfer is a ledger write
 * of the account's spot balance, announced as it commits (ledger-changes.ts), and an overview is
 * taken only when everything the exchange decided is committed (and so announced). So when no
 * write to the account's balances was announced from before the balances were read to after the
 * overview, both saw the same transfers: whatever the overview holds committed before the balances
 * were read, and whatever it lacks was decided after them. Otherwise the pair is read again, at
 * most this many times; then the balances are read while the futures exchange's queue is held
 * (one read at most; it pauses the exchange, so it is the fallback for accounts whose balances
 * keep changing under the reads, never the common path).
 */
export const PORTFOLIO_OPTIMISTIC_READS = 3;

export async function consistentRead(
  deps: {
    balances: PortfolioDeps['balances'];
    futures: Pick<PortfolioDeps['futures'], 'accounts'>;
    changes: PortfolioDeps['changes'];
  },
  accountId: string,
) {
  for (let attempt = 0; attempt < PORTFOLIO_OPTIMISTIC_READS; attempt++) {
    const before = deps.changes.version(accountId);
    const balances = await deps.balances.balances(accountId);
    const overview = await deps.futures.accounts.overview(accountId);
    if (deps.changes.version(accountId) === before) return { balances, overview };
  }
  const held = await deps.futures.accounts.overviewAlongside(accountId, () => deps.balances.balances(accountId));
  return { balances: held.value, overview: held };
}

const sumOf = (values: readonly (Amount | null)[]) => sum([zero(), ...values.filter((v) => v !== null)]);

/** Each priced spot asset's value, with the futures equity counted as USD (the futures wallet's currency). */
function assetValues(holdings: readonly ValuedHolding[], futuresEquity: Amount): [string, Amount][] {
  const byAsset = new Map<string, Amount>();
  for (const holding of holdings) if (holding.value) byAsset.set(holding.row.asset, holding.value);
  if (!isZero(futuresEquity)) byAsset.set('USD', add(byAsset.get('USD') ?? zero(), futuresEquity));
  // Largest value first, then by asset.
  return [...byAsset].sort(([a, x], [b, y]) => compare(y, x) || (a < b ? -1 : 1));
}

function allocation(entries: readonly [string, Amount][]) {
  const percents = shares(entries.map(([, value]) => value));
  return entries.map(([key, value], index) => ({ key, value: text(value), share_percent: text(percents[index]!) }));
}

/**
 * The futures product: its equity (wallet + unrealised P&L at the mark) now, and 24 h ago with the
 * same positions: a position's move is its signed size times its index's 24 h change (the mark's
 * own history is not kept; an index without a live reference price counts no move).
 */
function futuresPart(deps: PortfolioDeps, account: FuturesAccount, positions: readonly FuturesPosition[]) {
  const equity = decimal(account.margin_balance);
  let move = zero();
  for (const position of positions) {
    const base = deps.futures.markets.get(position.market)?.base;
    const price = base === undefined ? undefined : deps.prices(base);
    if (price?.source !== 'reference') continue;
    const size = decimal(position.size);
    const signed = position.side === 'long' ? size : sub(zero(), size);
    move = add(move, mul(signed, sub(price.price, price.open24h)));
  }
  const block = {
    available: text(sub(decimal(account.wallet_balance), decimal(account.isolated_margin))),
    isolated_margin: account.isolated_margin,
    wallet_balance: account.wallet_balance,
    unrealised_pnl: account.unrealised_pnl,
    equity: text(equity),
    positions: positions.map(positionRow),
  };
  return { equity, equity24hAgo: sub(equity, move), block };
}

function positionRow(position: FuturesPosition): PortfolioPosition {
  const distance = distanceToLiquidation(position.side, position.mark_price, position.liquidation_price);
  return {
    market: position.market,
    side: position.side,
    size: position.size,
    entry_price: position.entry_price,
    mark_price: position.mark_price,
    liquidation_price: position.liquidation_price,
    margin_ratio: position.margin_ratio,
    distance_to_liquidation_percent: distance && text(distance),
    unrealised_pnl: position.unrealised_pnl,
  };
}
