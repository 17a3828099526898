import { formatDecimal } from '@platform/money';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { type FeedPair, MarketFeed } from './feed.ts';
import { marketsRoutes } from './routes.ts';
import { seedCatalogue, seedHistory } from './seed.ts';
import { registerFeed, registerHistory, registerReferencePrices, registerSources } from './service.ts';
import { createPriceSources } from './sources.ts';

export { existingPairIds, latestPriceUpdate, referencePrice, referenceQuote } from './service.ts';

/**
 * Markets: the catalogue (seeded from contracts at start), the price feed worker and the market
 * data routes. The feed is stopped when the app closes.
 */
export async function marketsModule(app: FastifyInstance, context: AppContext): Promise<void> {
  const { db, config, log, clock, pubsub } = context;
  const startedAtMs = Date.now();
  await seedCatalogue(db);
  const sources = createPriceSources(context);
  registerSources(context, sources);
  const pairs = await db.query<{
    id: string;
    base_currency: string;
    quote_currency: string;
    price_precision: number;
    quantity_precision: number;
  }>(
    'SELECT id, base_currency, quote_currency, price_precision, quantity_precision FROM trading_pairs ORDER BY sort_order, id',
  );
  const feedPairs: FeedPair[] = pairs.rows.map((row) => ({
    id: row.id,
    base: row.base_currency,
    quote: row.quote_currency,
    pricePrecision: row.price_precision,
    quantityPrecision: row.quantity_precision,
  }));
  const feed = new MarketFeed({
    db,
    pubsub,
    log,
    clock,
    source: sources.chain,
    pairs: feedPairs,
    pollIntervalMs: config.pricePollIntervalMs,
  });
  registerFeed(context, feed);

  const quotes = await feed.prime();
  const endPrices = new Map([...quotes.values()].map((quote) => [quote.symbol, quote.priceUsd]));
  if (config.priceFeedEnabled) {
    sources.simulator.start();
    await feed.start();
    registerReferencePrices(pubsub, (pairId) => {
      const quote = feed.referenceQuote(pairId);
      return quote && { price: formatDecimal(quote.price), timestamp: quote.timestampMs };
    });
  }

  // A year of history takes seconds to write on first start: it is written after the server is
  // up (charts fill in coin by coin), and a shutdown stops it between coins.
  let closing = false;
  const historyOptions = {
    seed: config.simulatorSeed,
    nowMs: clock().getTime(),
    days: config.historyDays,
    minuteHours: config.historyMinuteHours,
  };
  const history = seedHistory(db, endPrices, historyOptions, () => closing)
    .then(async (inserted) => {
      if (!closing) await feed.loadWindows();
      log.info(
        { pairs: feedPairs.length, candlesInserted: inserted, ms: Date.now() - startedAtMs },
        'market history ready',
      );
    })
    .catch((error: unknown) => log.error({ err: error }, 'could not generate market history'));
  registerHistory(context, history);

  app.addHook('onClose', async () => {
    closing = true;
    await history;
    await feed.stop();
    await sources.chain.close();
  });
  marketsRoutes(app, context);
}
