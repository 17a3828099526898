import { type Amount, parseDecimal } from '@platform/money';
import type { AppContext } from '../../context.ts';
import { latestPriceUpdate } from '../markets/service.ts';
import { tradingOf } from '../trading/index.ts';
import type { BookLevel, BookSides, MarketView } from './pricing.ts';

/**
 * Levels of each side a conversion walks: the depth the order book channel publishes. An amount
 * the best 50 levels cannot fill is priced at the reference price instead.
 */
export const BOOK_WALK_LEVELS = 50;

/** Prices of the book and the feed are our own decimal strings; anything else reads as no price. */
function amountOf(text: unknown): Amount | undefined {
  if (typeof text !== 'string') return undefined;
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  return parsed.ok && parsed.value.units > 0n ? parsed.value : undefined;
}

function levels(side: readonly [string, string][]): BookLevel[] {
  const out: BookLevel[] = [];
  for (const [priceText, quantityText] of side) {
    const price = amountOf(priceText);
    const quantity = amountOf(quantityText);
    if (price !== undefined && quantity !== undefined) out.push([price, quantity]);
  }
  return out;
}

/**
 * The markets as pricing reads them, through read-only paths of other modules: the running
 * exchange's markets (tradingOf: pair specs and the engine's book depth, answered from memory) and
 * the retained price.{PAIR} messages (the price feed's reference prices; tests publish them).
 * Looked up on each call: the exchange may start after this module registers.
 */
export function contextMarketView(context: AppContext): MarketView {
  const market = (id: string) => {
    const found = tradingOf(context)?.exchange.market(id);
    return found?.spec.tradable ? found : undefined;
  };
  return {
    pair: (id) => {
      const found = market(id);
      return found ? { id: found.spec.id, base: found.spec.base, quote: found.spec.quote } : undefined;
    },
    book: (id): BookSides | undefined => {
      const found = market(id);
      if (!found) return undefined;
      const depth = found.depthView(BOOK_WALK_LEVELS);
      return { bids: levels(depth.bids), asks: levels(depth.asks) };
    },
    reference: (id) => amountOf(latestPriceUpdate(context.pubsub, id)?.price),
  };
}
