import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import { RateLimitedError } from './rate-limiter.ts';
import type { PriceQuote, PriceSource, PriceSourceHealth } from './types.ts';

export type PriceSourceChainOptions = {
  /** Highest priority first (spec §7.8: the exchange, then the provider's prices, then built-in ones). */
  sources: readonly PriceSource[];
  logger: Logger;
  now?: () => Date;
  /**
   * A streaming source counts as live for a symbol while its last quote for it is younger than
   * this; after that, lower sources' quotes for the symbol flow again. Binance pushes every second.
   */
  streamStaleAfterMs?: number;
  /**
   * A polled (non-streaming) quote keeps its source live for the symbol this long: two 30 s polls
   * (spec §9) and some slack, so a lower source's stream cannot overwrite it between polls.
   */
  polledStaleAfterMs?: number;
};

const DEFAULT_STREAM_STALE_AFTER_MS = 10_000;
const DEFAULT_POLLED_STALE_AFTER_MS = 65_000;

type Sighting = { atMs: number; via: 'poll' | 'stream' };

/**
 * Asks the sources in order, each only for the symbols the ones before it could not price.
 * A source that fails is asked again on the next call; one that was told to back off (429) is
 * skipped until its Retry-After passes.
 */
export class PriceSourceChain implements PriceSource {
  readonly name = 'chain';
  readonly #options: PriceSourceChainOptions;
  readonly #now: () => Date;
  readonly #skipUntil = new Map<PriceSource, Date>();
  /** When each source last priced each symbol, by poll or by stream. */
  readonly #sightings = new Map<PriceSource, Map<string, Sighting>>();

  constructor(options: PriceSourceChainOptions) {
    invariant(options.sources.length > 0, 'PriceSourceChain needs at least one source');
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  async getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>> {
    const wanted = [...new Set(symbols.map((symbol) => symbol.toUpperCase()))];
    const quotes = new Map<string, PriceQuote>();
    for (const source of this.#options.sources) {
      const missing = wanted.filter((symbol) => !quotes.has(symbol));
      if (missing.length === 0) break;
      if (this.#isBackingOff(source)) continue;
      try {
        const found = await source.getQuotes(missing);
        const nowMs = this.#now().getTime();
        for (const symbol of missing) {
          const quote = found.get(symbol);
          if (quote === undefined) continue;
          quotes.set(symbol, quote);
          this.#sighted(source, symbol, { atMs: nowMs, via: 'poll' });
        }
      } catch (error) {
        if (error instanceof RateLimitedError) this.#skipUntil.set(source, error.retryAt);
        this.#options.logger.warn({ source: source.name, err: error }, 'price source failed; asking the next one');
      }
    }
    return quotes;
  }

  /**
   * Streams from every source that streams, forwarding a symbol's quote only when no
   * higher-priority source is healthy and live for that symbol.
   */
  subscribe(symbols: readonly string[], onQuote: (quote: PriceQuote) => void): () => void {
    const sources = this.#options.sources;
    const unsubscribes = sources.map((source, index) =>
      source.subscribe?.(symbols, (quote) => {
        const nowMs = this.#now().getTime();
        this.#sighted(source, quote.symbol, { atMs: nowMs, via: 'stream' });
        for (const higher of sources.slice(0, index)) {
          if (this.#isLive(higher, quote.symbol, nowMs)) return;
        }
        onQuote(quote);
      }),
    );
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe?.();
    };
  }

  /** Ok while any source is; `sources` has each one's own report. */
  health(): PriceSourceHealth & { sources: PriceSourceHealth[] } {
    const reports = this.#options.sources.map((source) => source.health());
    const successes = reports.flatMap((report) => (report.lastSuccessAt === null ? [] : [report.lastSuccessAt]));
    return {
      name: this.name,
      ok: reports.some((report) => report.ok),
      lastError: reports.find((report) => report.lastError !== null)?.lastError ?? null,
      lastSuccessAt: successes.length === 0 ? null : new Date(Math.max(...successes.map((date) => date.getTime()))),
      sources: reports,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.#options.sources.map((source) => source.close?.()));
  }

  #sighted(source: PriceSource, symbol: string, sighting: Sighting): void {
    let bySymbol = this.#sightings.get(source);
    if (!bySymbol) {
      bySymbol = new Map();
      this.#sightings.set(source, bySymbol);
    }
    bySymbol.set(symbol, sighting);
  }

  /** A source is live for a symbol while it is healthy and priced the symbol recently enough. */
  #isLive(source: PriceSource, symbol: string, nowMs: number): boolean {
    const sighting = this.#sightings.get(source)?.get(symbol);
    if (sighting === undefined || source.health().ok !== true) return false;
    const staleAfterMs =
      sighting.via === 'stream'
        ? (this.#options.streamStaleAfterMs ?? DEFAULT_STREAM_STALE_AFTER_MS)
        : (this.#options.polledStaleAfterMs ?? DEFAULT_POLLED_STALE_AFTER_MS);
    return nowMs - sighting.atMs < staleAfterMs;
  }

  #isBackingOff(source: PriceSource): boolean {
    const until = this.#skipUntil.get(source);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#skipUntil.delete(source);
    return false;
  }
}
