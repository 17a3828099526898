import type { AppContext } from '../../context.ts';
import type { FuturesAccounts } from './accounts.ts';
import type { FuturesCore } from './exchange.ts';
import { createFundingSchedule, type FundingSchedule } from './funding-schedule.ts';
import { createPerpMarketMaker, type PerpMarketMaker } from './market-maker.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { createFuturesMarks, engineBookReader, type FuturesMarks, type IndexQuote } from './marks.ts';
import type { FuturesOrders } from './service.ts';

export interface FuturesWorkers {
  marks: FuturesMarks;
  funding: FundingSchedule;
  maker: PerpMarketMaker;
  start(): Promise<void>;
  stop(): Promise<void>;
}

type WorkerDeps = {
  specs: readonly FuturesMarketSpec[];
  core: FuturesCore;
  orders: FuturesOrders;
  accounts: FuturesAccounts;
  /** The index's source quotes of a base coin (marks.ts indexSourcesFromPriceSources). */
  indexSources: (base: string) => readonly IndexQuote[];
};

/**
 * The marks (index, smoothed basis, funding rate: published on mark.{MARKET}), the funding timer
 * that pays each round through the exchange, and the house's perp market maker quoting through it.
 */
export function createFuturesWorkers(context: AppContext, deps: WorkerDeps): FuturesWorkers {
  const { clock, log, pubsub, config } = context;
  const marks = createFuturesMarks({
    markets: () => deps.specs,
    indexSources: deps.indexSources,
    ...engineBookReader((marketId) => deps.core.state.engines.get(marketId)),
    clock,
    publish: (channel, payload) => pubsub.publish(channel, payload, { retain: true }),
    log,
    config: { fundingIntervalMs: config.fundingIntervalMs, indexStaleMs: config.futuresIndexStaleMs },
  });
  const funding = createFundingSchedule({
    marketIds: () => deps.specs.map((spec) => spec.id),
    marks,
    settleFunding: (marketId, rate, markTicks, fundingTime) =>
      deps.accounts.settleFunding(marketId, rate, markTicks, fundingTime),
    clock,
    fundingIntervalMs: marks.config.fundingIntervalMs,
    log,
  });
  const maker = createPerpMarketMaker({
    markets: () => deps.specs,
    marks,
    orders: {
      placeOrder: (accountId, request) => deps.orders.placeOrder(accountId, request),
      cancelOrder: (accountId, orderId) => deps.orders.cancelOrder(accountId, orderId),
      openOrders: (accountId, marketId) => deps.orders.openOrders(accountId, marketId),
    },
    fundHouse: async (accountId, target) => {
      await deps.accounts.fundHouse(accountId, target);
    },
    clock,
    log,
    enabled: config.marketMakerEnabled,
    levels: config.marketMakerLevels,
    refreshMs: config.marketMakerRefreshMs,
    seed: config.simulatorSeed,
  });
  return {
    marks,
    funding,
    maker,
    async start() {
      marks.start();
      funding.start();
      await maker.start();
    },
    async stop() {
      await maker.stop();
      await funding.stop();
      marks.stop();
    },
  };
}
