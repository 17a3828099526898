import type { BalanceUpdate } from '@platform/contracts';
import { FastOrderBook } from '@platform/engine';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ledgerOf } from '../ledger/service.ts';
import { feedOf } from '../markets/service.ts';
import { orderNotificationsPart } from '../notifications/index.ts';
import { Exchange } from './exchange.ts';
import { MARKET_MAKER_ACCOUNT_ID, MARKET_TAKER_ACCOUNT_ID } from './house-accounts.ts';
import { MarketMaker } from './market-maker.ts';
import { MarketTaker } from './market-taker.ts';
import { toOrderView } from './order-state.ts';
import { type PairRow, pairSpecFromRow } from './pair-spec.ts';
import { tradingRoutes } from './routes/index.ts';
import type { TradingDeps } from './service.ts';

export { Exchange } from './exchange.ts';

/** Per-account socket topics: only that account's connections subscribe to them. */
export const accountOrdersTopic = (accountId: string) => `account.${accountId}.orders`;
export const accountBalancesTopic = (accountId: string) => `account.${accountId}.balances`;

const exchanges = new WeakMap<AppContext, TradingDeps>();
/** The running exchange of an app (bots, the socket gateway and tests reach it here). */
export const tradingOf = (context: AppContext): TradingDeps | undefined => exchanges.get(context);

/**
 * The exchange core: one sequencer per market over the engine, the ledger settlement, and the
 * trading routes. Books are rebuilt from snapshots and the journal before the routes open.
 */
export async function tradingModule(app: FastifyInstance, context: AppContext): Promise<void> {
  const { db, pubsub, log, clock, config } = context;
  const pairs = await db.query<PairRow>('SELECT * FROM trading_pairs ORDER BY sort_order, id');
  const specs = pairs.rows.map(pairSpecFromRow);
  // balance_update carries the balances the ledger's own statement returned, in the order the
  // ledger announces them (a superseded one is older than what was already sent).
  const stopBalanceUpdates = ledgerOf(db).onBalancesChanged((event) => {
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
  const exchange = new Exchange({
    db,
    pubsub,
    log,
    clock,
    bandBps: config.priceBandBps,
    snapshotEvery: config.engineSnapshotEvery,
    createBook: () => new FastOrderBook(),
    hooks: {
      // Spec §4: placed, filled, cancelled and rejected orders notify their owner (not the house bots).
      inTransaction: orderNotificationsPart(pubsub, new Set([MARKET_MAKER_ACCOUNT_ID, MARKET_TAKER_ACCOUNT_ID])),
      onTrades: (spec, trades) => {
        const feed = feedOf(context);
        if (!feed) return;
        for (const trade of trades) {
          feed.recordTrade(
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
  const deps: TradingDeps = {
    db,
    pubsub,
    clock,
    exchange,
    bandBps: config.priceBandBps,
  };
  exchanges.set(context, deps);
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
  // The bots start in the background: their first ladders (thousands of orders) must not hold up
  // the server's start.
  let botsStarted: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    botsStarted = (async () => {
      await maker?.start();
      await taker?.start();
    })().catch((error: unknown) => log.error({ err: error }, 'house bots could not start'));
  });
  app.addHook('onClose', async () => {
    await botsStarted;
    await taker?.stop();
    await maker?.stop();
    await exchange.stop();
    stopBalanceUpdates();
  });
  tradingRoutes(app, context, deps);
}
