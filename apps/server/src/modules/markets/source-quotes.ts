import type { PriceQuote, PriceSource } from '../../adapters/prices/types.ts';

/** One source's latest USD price of a coin, and when it was seen (ms). */
export type SourceQuote = { source: string; priceUsd: string; atMs: number };

/**
 * The latest quote of every (source, coin) that the chain's sources gave, by poll or by stream,
 * including the ones the chain did not pass on (a lower source's stream while a higher one is
 * live). Nothing is asked for it: it holds what the sources answer the feed anyway, so a polled
 * source behind a healthy one (market-data behind the exchange) is only here when the chain
 * asked it. A quote's time is the older of the source's own timestamp and when it arrived: a
 * source whose clock runs ahead cannot make its price look fresher than it is, and a cached quote
 * served again keeps its age. The futures index reads it (modules/futures/marks.ts).
 */
export class SourceQuoteBook {
  /** symbol -> source name -> latest quote. */
  readonly #latest = new Map<string, Map<string, SourceQuote>>();

  constructor(private readonly clock: () => Date) {}

  record(sourceName: string, quote: PriceQuote): void {
    const stamped = quote.timestamp instanceof Date ? quote.timestamp.getTime() : Number.NaN;
    // A quote without a usable time cannot be shown to be fresh: it is not kept.
    if (!Number.isFinite(stamped)) return;
    const atMs = Math.min(stamped, this.clock().getTime());
    const symbol = quote.symbol.toUpperCase();
    let bySource = this.#latest.get(symbol);
    if (!bySource) {
      bySource = new Map();
      this.#latest.set(symbol, bySource);
    }
    const previous = bySource.get(sourceName);
    // Out of order (a slow poll answering after a stream tick): the newer one stays.
    if (previous && previous.atMs > atMs) return;
    bySource.set(sourceName, { source: sourceName, priceUsd: quote.priceUsd, atMs });
  }

  /** Every source's latest quote of the coin (any age: the reader decides what is fresh). */
  quotes(symbol: string): SourceQuote[] {
    return [...(this.#latest.get(symbol.toUpperCase())?.values() ?? [])];
  }
}

/** The source, unchanged, with every quote it gives (answers and pushes) recorded in `book`. */
export function recordingSource(source: PriceSource, book: SourceQuoteBook): PriceSource {
  const inner = source;
  const wrapped: PriceSource = {
    get name() {
      return inner.name;
    },
    async getQuotes(symbols) {
      const quotes = await inner.getQuotes(symbols);
      for (const quote of quotes.values()) book.record(inner.name, quote);
      return quotes;
    },
    health: () => inner.health(),
  };
  // Optional members only when the source has them: the chain and the feed test for them.
  if (inner.subscribe) {
    const subscribe = inner.subscribe.bind(inner);
    wrapped.subscribe = (symbols, onQuote) =>
      subscribe(symbols, (quote) => {
        book.record(inner.name, quote);
        onQuote(quote);
      });
  }
  if (inner.close) {
    const close = inner.close.bind(inner);
    wrapped.close = () => close();
  }
  return wrapped;
}
