import { type Amount, parseDecimal } from '@platform/money';
import type { ReferenceQuote } from '../markets/index.ts';
import type { Exchange } from '../trading/index.ts';
import type { MarketView, ReferencePrice } from './pricing.ts';

/** What the view reads: the exchange's markets and the markets module's reference prices. */
export type MarketSources = {
  exchange: Pick<Exchange, 'market'>;
  referenceQuote: (pairId: string) => ReferenceQuote | undefined;
};

/** Prices of the feed are our own decimal strings; anything else reads as no price. */
function amountOf(text: unknown): Amount | undefined {
  if (typeof text !== 'string') return undefined;
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  return parsed.ok && parsed.value.units > 0n ? parsed.value : undefined;
}

/**
 * The pair's reference price (the price sources', never the last trade on our book, which a user
 * can print) and the time the sources confirmed it. With the feed off (tests), the retained
 * price.{PAIR} message stands in.
 */
function publishedReference(sources: MarketSources, pairId: string): ReferencePrice | undefined {
  const update = sources.referenceQuote(pairId);
  const price = amountOf(update?.price);
  if (price === undefined || typeof update?.timestamp !== 'number') return undefined;
  return { price, timestampMs: update.timestamp };
}

/**
 * The markets as pricing reads them, through read-only paths of other modules: the running
 * exchange's tradable markets (the pair specs only, never the books) and the reference prices
 * (the price feed's, else the retained price.{PAIR} messages; tests publish them).
 */
export function liveMarketView(sources: MarketSources): MarketView {
  const market = (id: string) => {
    const found = sources.exchange.market(id);
    return found?.spec.tradable ? found : undefined;
  };
  return {
    pair: (id) => {
      const found = market(id);
      return found ? { id: found.spec.id, base: found.spec.base, quote: found.spec.quote } : undefined;
    },
    reference: (id) => {
      const own = publishedReference(sources, id);
      const spec = market(id)?.spec;
      if (own === undefined || spec === undefined || spec.quote === 'USD') return own;
      // A cross pair's price (ETH_BTC) is derived from its two coins' USD prices; the feed stamps it
      // with the newer of the two, but it is only as fresh as the older one.
      let timestampMs = own.timestampMs;
      for (const coin of [spec.base, spec.quote]) {
        const leg = publishedReference(sources, `${coin}_USD`);
        if (leg !== undefined) timestampMs = Math.min(timestampMs, leg.timestampMs);
      }
      return { price: own.price, timestampMs };
    },
  };
}
