import type { BalanceUpdate } from '@platform/contracts';
import { FastOrderBook } from '@platform/engine';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { OrderEventBatch, OrderEventWriter } from '../../events/orders.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import { ledgerOf } from '../ledger/service.ts';
import type { Markets } from '../markets/index.ts';
import type { OrderChange } from './batch-effects.ts';
import { Exchange } from './exchange.ts';
import { type SpotFill, spotFillsPage } from './fill-history.ts';
import { MarketMaker } from './market-maker.ts';
import { MarketReads, RecentTrades } from './market-reads.ts';
import { MarketTaker } from './market-taker.ts';
import { OrderCache } from './order-cache.ts';
import { toOrderView } from './order-state.ts';
import { type PairRow, type PairSpec, pairSpecFromRow, tradableOf } from './pair-spec.ts';
import { tradingRoutes } from './routes/index.ts';
import { type PeriodTrade, periodTrades, type TradeRow, type TradingDeps, tradeView } from './service.ts';
import type { WriteJob, WriterHook } from './writer.ts';

export { Exchange } from './exchange.ts';
export type { SpotFill } from './fill-history.ts';

/** Per-account socket topics: only that account's connections subscribe to them. */
export const accountOrdersTopic = (accountId: string) => `account.${accountId}.orders`;
export const accountBalancesTopic = (accountId: string) => `account.${accountId}.balances`;

export { HOUSE_ACCOUNT_IDS } from './house-accounts.ts';

/** The running exchange and what trades on it (the routes, the bots, the conversions desk's view). */
export type Trading = ModuleParts &
  TradingDeps & {
    /** The account's spot fills executed in [fromMs, toMs), oldest first (analytics). */
    periodTrades(accountId: string, fromMs: number, toMs: number): Promise<PeriodTrade[]>;
    /** The account's spot fills, oldest first, in keyset pages (the exports). */
    spotFillsPage: KeysetPage<SpotFill>;
  };
export type { PeriodTrade } from './service.ts';

/** What trading uses of the other modules. */
export type TradingUses = {
  markets: Pick<Markets, 'feed' | 'referenceQuote' | 'catalogue'>;
  /** The ledger's balance cache: the writer drops the balances each batch posted to, before answering. */
  balances: BalanceCache;
  /** Written with each batch, in its statement (the order notifications). */
  orderEvents?: OrderEventWriter | undefined;
  /**
   * Told, right after each write commits and before its callers are answered, of the accounts whose
   * orders it wrote (the order notifications commit with the batch: their unread counts change).
   */
  ordersCommitted?: ((accountIds: ReadonlySet<string>) => void) | undefined;
};

/**
 * The exchange core: one sequencer per market over the engine, the ledger settlement, and the
 * trading routes. Books are rebuilt from snapshots and the journal before this resolves, so before
 * the routes open.
 */
export async function createTrading(
  context: AppContext,
  { markets, balances, orderEvents, ordersCommitted }: TradingUses,
): Promise<Trading> {
  const { db, pubsub, log, clock, config } = context;
  const pairs = await db.query<PairRow>('SELECT * FROM trading_pairs ORDER BY sort_order, id');
  const specs = pairs.rows.map(pairSpecFromRow);
  const stopBalanceUpdates = publishBalanceUpdates(context);
  // The tape of recent trades is filled from the table once the books are up, then by the trades
  // each committed batch announces (onTrades runs after the commit, with trades.{PAIR}).
  const recentTrades = new RecentTrades();
  const orders = new OrderCache();
  const viewOf = (row: TradeRow) => tradeView({ exchange }, row);
  const exchange = new Exchange({
    db,
    pubsub,
    log,
    clock,
    bandBps: config.priceBandBps,
    snapshotEvery: config.engineSnapshotEvery,
    createBook: () => new FastOrderBook(),
    hooks: {
      ...(orderEvents ? { inTransaction: announcedTo(orderEvents) } : {}),
      committed: dropFromReadCaches({ orders, balances, ordersCommitted }),
      onTrades: (spec, trades) => {
        recentTrades.add(spec, trades, viewOf);
        for (const trade of trades) {
          markets.feed.recordTrade(
            spec.id,
            { units: BigInt(trade.priceTicks), scale: spec.pricePrecision },
            { units: BigInt(trade.quantityLots), scale: spec.quantityPrecision },
            trade.executedAt.getTime(),
          );
        }
      },
      onOrders: (spec, orders) => {
        for (const order of orders) {
          const topic = accountOrdersTopic(order.accountId);
          if (pubsub.hasSubscribers(topic)) pubsub.publish(topic, toOrderView(spec, order));
        }
      },
    },
  });
  const started = Date.now();
  await exchange.start(specs);
  log.info({ markets: specs.length, ms: Date.now() - started }, 'exchange ready');
  await recentTrades.load(db, viewOf);
  const stopPairChanges = markets.catalogue.onChange((pair) => {
    const market = exchange.market(pair.id);
    // An admin closed or opened the pair: the next order on it is refused or taken, as for any pair.
    if (market) market.spec.tradable = tradableOf(pair);
  });
  const deps: TradingDeps = {
    db,
    pubsub,
    clock,
    exchange,
    bandBps: config.priceBandBps,
    referencePrice: (pairId) => markets.referenceQuote(pairId)?.price,
    placing: new Map(),
    marketReads: new MarketReads(exchange, recentTrades, clock),
    orders,
    balances,
  };
  const { maker, taker } = houseBots(context, deps);
  // The bots start in the background: their first ladders (thousands of orders) must not hold up
  // the server's start.
  let botsStarted: Promise<void> = Promise.resolve();
  return {
    ...deps,
    periodTrades: (accountId, fromMs, toMs) => periodTrades(deps, accountId, fromMs, toMs),
    spotFillsPage: (accountId, window, after, limit) => spotFillsPage(db, accountId, window, after, limit),
    routes: (scope) => tradingRoutes(scope, context, deps),
    start: () => {
      botsStarted = (async () => {
        await maker?.start();
        await taker?.start();
      })().catch((error: unknown) => log.error({ err: error }, 'house bots could not start'));
    },
    stop: async () => {
      await botsStarted;
      await taker?.stop();
      await maker?.stop();
      await exchange.stop();
      stopBalanceUpdates();
      stopPairChanges();
    },
  };
}

/**
 * balance_update carries the balances the ledger's own statement returned, in the order the ledger
 * announces them (a superseded one is older than what was already sent). Returns the unsubscribe.
 */
function publishBalanceUpdates({ db, pubsub, clock }: AppContext): () => void {
  return ledgerOf(db).onBalancesChanged((event) => {
    const timestamp = clock().getTime();
    for (const change of event.changes) {
      const topic = accountBalancesTopic(change.accountId);
      if (change.superseded || !pubsub.hasSubscribers(topic)) continue;
      const update: BalanceUpdate = {
        currency: change.currency,
        available: change.available,
        locked: change.locked,
        timestamp,
      };
      pubsub.publish(topic, update);
    }
  });
}

/**
 * What a committed write changed, dropped from the read caches before its callers hear of it: the
 * orders it wrote (by id, and their accounts' open orders), the balances it posted to (the ledger's
 * own announcement of them comes after the callers are answered), and what the composition root
 * asked to hear.
 */
function dropFromReadCaches({
  orders,
  balances,
  ordersCommitted,
}: Pick<TradingDeps, 'orders' | 'balances'> & Pick<TradingUses, 'ordersCommitted'>) {
  return (jobs: readonly WriteJob[]): void => {
    const written: { id: string; accountId: string }[] = [];
    const owners = new Set<string>();
    const holders = new Set<string>();
    for (const job of jobs) {
      for (const row of job.rows.orders) {
        const order = { id: String(row.id), accountId: String(row.account_id) };
        written.push(order);
        owners.add(order.accountId);
      }
      for (const entry of job.entries)
        for (const posting of entry.postings) if (posting.owner.kind === 'user') holders.add(posting.owner.accountId);
    }
    orders.invalidate(written);
    balances.invalidate(holders);
    ordersCommitted?.(owners);
  };
}

/** The writer's batches as order events, for a listener that does not know trading's types. */
function announcedTo(writer: OrderEventWriter): WriterHook {
  const batchOf = ({ spec, changes }: { spec: PairSpec; changes: OrderChange[] }): OrderEventBatch => ({
    market: spec,
    events: changes,
    view: (index) => toOrderView(spec, changes[index]!.order),
  });
  return (groups, stmt, gate) => writer(groups.map(batchOf), stmt, gate);
}

/** The house's market maker and simulated takers, where the configuration turns them on. */
function houseBots({ config, log }: AppContext, deps: TradingDeps) {
  const maker = config.marketMakerEnabled
    ? new MarketMaker(deps, {
        levels: config.marketMakerLevels,
        refreshMs: config.marketMakerRefreshMs,
        pairs: config.marketMakerPairs,
        seed: config.simulatorSeed,
        log,
      })
    : null;
  const taker = config.marketTakerEnabled
    ? new MarketTaker(deps, {
        perMinute: config.marketTakerTradesPerMinute,
        pairs: config.marketMakerPairs,
        seed: config.simulatorSeed,
        log,
      })
    : null;
  return { maker, taker };
}
