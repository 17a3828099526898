import { COIN_GECKO_IDS } from '@platform/contracts';
import { PriceSourceChain } from '../../adapters/prices/chain.ts';
import { ExchangePriceSource } from '../../adapters/prices/exchange.ts';
import { MarketDataPriceSource } from '../../adapters/prices/market-data.ts';
import { SimulatorPriceSource } from '../../adapters/prices/simulator.ts';
import type { PriceSource } from '../../adapters/prices/types.ts';
import type { AppContext } from '../../context.ts';
import { recordingSource, SourceQuoteBook } from './source-quotes.ts';

export type PriceSources = {
  chain: PriceSourceChain;
  simulator: SimulatorPriceSource;
  sources: PriceSource[];
  /** Every source's latest quote per coin, as the chain received them (the futures index reads it). */
  quotes: SourceQuoteBook;
};

/**
 * The configured sources in order, the built-in simulator always last (spec §7.8 fallback order).
 * The chain asks them through a recorder that keeps each one's latest quote per coin.
 */
export function createPriceSources({ config, log, clock }: AppContext): PriceSources {
  const simulator = new SimulatorPriceSource({
    seed: config.simulatorSeed,
    tickMs: config.simulatorTickMs,
    now: clock,
  });
  const sources: PriceSource[] = config.priceSources.map((name) => {
    switch (name) {
      case 'exchange':
        return new ExchangePriceSource({
          baseUrl: config.exchangeRestUrl,
          wsUrl: config.exchangeWsUrl,
          logger: log,
          now: clock,
        });
      case 'market-data':
        return new MarketDataPriceSource({
          baseUrl: config.marketDataUrl,
          logger: log,
          coinIds: COIN_GECKO_IDS,
          now: clock,
          ...(config.marketDataApiKey ? { apiKey: config.marketDataApiKey } : {}),
        });
      default:
        return simulator;
    }
  });
  const quotes = new SourceQuoteBook(clock);
  const recorded = sources.map((source) => recordingSource(source, quotes));
  return { chain: new PriceSourceChain({ sources: recorded, logger: log, now: clock }), simulator, sources, quotes };
}
