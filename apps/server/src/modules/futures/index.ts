import type { AppContext, ModuleParts } from '../../context.ts';
import type { Result } from '../../lib/errors.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { Markets } from '../markets/index.ts';
import { type InsertNotifications, notify } from '../notifications/service.ts';
import { FuturesAccounts } from './accounts.ts';
import type { FundingRow } from './batch.ts';
import { PerpCandles } from './candles.ts';
import { FuturesCore } from './exchange.ts';
import { type FuturesFill, type FuturesTransfer, futuresFillsPage, futuresTransfersPage } from './history.ts';
import { LiquidationWatch, type MarkUpdates } from './liquidation-watch.ts';
import { batchNotifier, MarginCalls, marginCallRatio } from './margin-calls.ts';
import { type FuturesMarketSpec, futuresMarketSpecs } from './markets.ts';
import { indexSourcesFromPriceSources } from './marks.ts';
import { Publisher } from './publish.ts';
import { type PeriodFill, type PeriodIncome, periodFills, periodIncome } from './reads.ts';
import { checkReplay, type ReplayCheck } from './replay.ts';
import type { MarkOf } from './risk.ts';
import { futuresRoutes } from './routes/index.ts';
import { seedMarkets } from './seed.ts';
import { FuturesOrders } from './service.ts';
import { futuresStateHash } from './state-hash.ts';
import type { FuturesMarkSource } from './types.ts';
import { ticksOfText } from './units.ts';
import { createFuturesWorkers, type FuturesWorkers } from './workers.ts';

export type { FuturesFill, FuturesTransfer } from './history.ts';
export { accountFuturesOrdersTopic, accountPositionsTopic } from './publish.ts';
export type { PeriodFill, PeriodIncome } from './reads.ts';
export type { FuturesMarkSource } from './types.ts';

/** What other parts of the server (marks, funding timer, market makers) use of the futures exchange. */
export interface FuturesExchange {
  markets: ReadonlyMap<string, FuturesMarketSpec>;
  /** Time between funding rounds (FUNDING_INTERVAL_MS). */
  fundingIntervalMs: number;
  /** The mark used for margin (the mark source's, else the index), ticks; null before either exists. */
  markOf: MarkOf;
  bookTop(marketId: string): { bidTicks: number | null; askTicks: number | null };
  depth(
    marketId: string,
    levels: number,
  ): { bids: { priceTicks: number; quantityLots: number }[]; asks: { priceTicks: number; quantityLots: number }[] };
  orders: FuturesOrders;
  accounts: FuturesAccounts;
  settleFunding(marketId: string, rate: bigint, markTicks: number, fundingTime: number): Promise<Result<FundingRow>>;
  /** The hash of the exchange's memory (state-hash.ts), once no decided batch waits for its commit. */
  stateHash(): Promise<string>;
  /**
   * The memory, what a restart would load and a clean replay of the journal, compared between two
   * batches (replay.ts; it holds the exchange's queue while it runs).
   */
  checkReplay(): Promise<ReplayCheck & { memory: string }>;
}

/** Committed history of one account over a period (analytics reads it; docs/analytics.md). */
export type FuturesHistory = {
  fills(accountId: string, fromMs: number, toMs: number): Promise<PeriodFill[]>;
  /** Income rows of one type (funding, ...), signed: positive is received. */
  income(accountId: string, type: string, fromMs: number, toMs: number): Promise<PeriodIncome[]>;
  /** The account's futures history in keyset pages, oldest first (the exports). */
  fillsPage: KeysetPage<FuturesFill>;
  transfersPage: KeysetPage<FuturesTransfer>;
};

export type Futures = ModuleParts & { exchange: FuturesExchange; workers: FuturesWorkers; history: FuturesHistory };

export type FuturesUses = {
  markets: Pick<Markets, 'referenceQuote' | 'sourceQuotes'>;
  /** A mark source to use instead of the module's own (modules/futures/marks.ts); the index stands in before a mark. */
  marks?: (FuturesMarkSource & MarkUpdates) | undefined;
  /** Stores notifications (margin calls, liquidations, ADL) in a transaction. */
  insertNotifications?: InsertNotifications | undefined;
};

/** The index fallback: the spot pair's reference price (the price sources, never a trade on our books). */
function markFunction(specs: ReadonlyMap<string, FuturesMarketSpec>, uses: FuturesUses): MarkOf {
  return (marketId) => {
    const spec = specs.get(marketId);
    if (!spec) return null;
    const mark = uses.marks?.mark(marketId);
    if (mark) return mark.markTicks;
    const quote = uses.markets.referenceQuote(spec.indexPair);
    return quote ? ticksOfText(quote.price, spec.priceDecimals) : null;
  };
}

/** Perpetual futures: markets seeded from code, the exchange rebuilt from committed rows, the /v1/futures routes. */
export async function createFutures(context: AppContext, uses: FuturesUses): Promise<Futures> {
  const { db, log, clock, pubsub, config } = context;
  const specs = futuresMarketSpecs();
  await seedMarkets(db, specs);
  const markets = new Map(specs.map((spec) => [spec.id, spec]));
  // The marks read the books, the books' checks read the marks: bound once both exist.
  let workers: FuturesWorkers | undefined;
  const marks: FuturesMarkSource & MarkUpdates = uses.marks ?? {
    mark: (marketId) => workers?.marks.mark(marketId) ?? null,
    indexStale: (marketId) => workers?.marks.indexStale(marketId) ?? false,
  };
  const markOf = markFunction(markets, { ...uses, marks });
  const publisher = new Publisher(pubsub, markOf, clock);
  const core = new FuturesCore({ db, log, clock, bandBps: config.priceBandBps, markets, markOf, publisher });
  await core.start();
  const orders = new FuturesOrders(db, core, markets);
  const accounts = new FuturesAccounts(db, core, markOf);
  const candles = new PerpCandles(db);
  core.onCommitted((batch) => candles.committed(batch));
  const exchange: FuturesExchange = {
    markets,
    fundingIntervalMs: config.fundingIntervalMs,
    markOf,
    bookTop: (marketId) => {
      const engine = core.state.engines.get(marketId);
      return { bidTicks: engine?.bestBid() ?? null, askTicks: engine?.bestAsk() ?? null };
    },
    depth: (marketId, levels) => {
      const depth = core.state.engines.get(marketId)?.depth(levels);
      return { bids: depth?.bids ?? [], asks: depth?.asks ?? [] };
    },
    orders,
    accounts,
    settleFunding: (marketId, rate, markTicks, fundingTime) =>
      accounts.settleFunding(marketId, rate, markTicks, fundingTime),
    stateHash: async () => {
      await core.committed();
      return futuresStateHash(core.state);
    },
    checkReplay: () =>
      core.inspect(async (state) => {
        const memory = futuresStateHash(state);
        const check = await checkReplay(db, markets, config.priceBandBps);
        return { ...check, memory, equal: check.equal && memory === check.stored };
      }),
  };
  workers = createFuturesWorkers(context, {
    specs,
    core,
    orders,
    accounts,
    indexSources: indexSourcesFromPriceSources({
      independent: config.priceSources.filter((name) => name !== 'simulator'),
      sourceQuotes: (symbol) => uses.markets.sourceQuotes(symbol),
      referenceQuote: (pairId) => uses.markets.referenceQuote(pairId),
    }),
  });
  const running = workers;
  const watch = liquidationWatch(context, uses, core, markOf, uses.marks ?? running.marks);
  return {
    exchange,
    workers: running,
    history: {
      fills: (accountId, fromMs, toMs) => periodFills(db, accountId, fromMs, toMs),
      income: (accountId, type, fromMs, toMs) => periodIncome(db, accountId, type, fromMs, toMs),
      fillsPage: (accountId, window, after, limit) => futuresFillsPage(db, accountId, window, after, limit),
      transfersPage: (accountId, window, after, limit) => futuresTransfersPage(db, accountId, window, after, limit),
    },
    routes: (scope) => futuresRoutes(scope, context, { exchange, core, candles, uses: { ...uses, marks } }),
    start: async () => {
      await running.start();
      watch.start();
    },
    stop: async () => {
      await watch.stop();
      await running.stop();
      await core.stop();
    },
  };
}

/** The liquidation engine's watch, with its notifications when the notifications module is at hand. */
function liquidationWatch(
  context: AppContext,
  uses: FuturesUses,
  core: FuturesCore,
  markOf: MarkOf,
  marks: MarkUpdates,
): LiquidationWatch {
  const { db, log, clock, pubsub } = context;
  const insert = uses.insertNotifications;
  return new LiquidationWatch({
    core,
    markOf,
    marks,
    clock,
    log,
    notify: insert ? batchNotifier(insert, pubsub) : undefined,
    marginCalls: insert
      ? {
          calls: new MarginCalls(marginCallRatio(context.config.futuresMarginCallRatio)),
          send: (rows) => notify(insert, db, pubsub, rows),
        }
      : undefined,
  });
}
