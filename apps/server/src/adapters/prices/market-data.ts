import { formatDecimal, MAX_SCALE, parseDecimal, stripTrailingZeros, toScale } from '@platform/money';
import { z } from 'zod';
import type { Logger } from '../../logger.ts';
import { RequestBudget, retryAtFromHeader } from './rate-limiter.ts';
import type { PriceQuote, PriceSource, PriceSourceHealth } from './types.ts';

export type MarketDataPriceSourceOptions = {
  /** API root including the version, e.g. https://api.coingecko.com/api/v3 (no trailing slash). */
  baseUrl: string;
  logger: Logger;
  /** Upper-case symbol -> coin id of the service (BTC -> bitcoin); symbols without one are skipped. */
  coinIds: Readonly<Record<string, string>>;
  apiKey?: string;
  /** Demo keys go in x-cg-demo-api-key (the default), paid keys in x-cg-pro-api-key. */
  apiKeyHeader?: string;
  fetch?: typeof fetch;
  now?: () => Date;
  timeoutMs?: number;
  /** Spec §9 price cache: 30 s. */
  cacheTtlMs?: number;
  /**
   * How old a cached quote may be and still be served when the service fails or the budget is
   * spent (spec §7.8: "uses the cached price"); older ones are dropped so the chain can fall back.
   */
  staleCacheMaxAgeMs?: number;
  /** Spec §9: 100 requests per 60 s window. */
  maxRequestsPerWindow?: number;
  requestWindowMs?: number;
};

export type CoinSearchResult = {
  id: string;
  name: string;
  symbol: string;
  marketCapRank: number | null;
  thumb: string;
};

const SOURCE_NAME = 'market-data';
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_CACHE_TTL_MS = 30_000;
const DEFAULT_STALE_CACHE_MAX_AGE_MS = 5 * 60_000;
const DEFAULT_MAX_REQUESTS_PER_WINDOW = 100;
const DEFAULT_REQUEST_WINDOW_MS = 60_000;
/** CoinGecko's rate-limit window is a minute; without a Retry-After we stay away that long. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Spec §9: coin search returns at most 10 results. */
const MAX_SEARCH_RESULTS = 10;
/** Ids per /simple/price call: keeps the URL far below common 8 KB limits. */
const MAX_IDS_PER_REQUEST = 250;
/** Deepest decimals kept from a number (amounts are NUMERIC(38,18)). */
const MAX_DECIMALS = 18;
/** Most digits before the point accepted from a number: far above any real market cap (1e21). */
const MAX_INTEGER_DIGITS = 60;

const optionalNumber = z.number().nullish();
const simplePriceSchema = z.record(
  z.string(),
  z.object({
    usd: optionalNumber,
    usd_market_cap: optionalNumber,
    usd_24h_vol: optionalNumber,
    usd_24h_change: optionalNumber,
    last_updated_at: optionalNumber,
  }),
);

const searchSchema = z.object({
  coins: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      symbol: z.string(),
      market_cap_rank: z.number().int().nullish(),
      thumb: z.string().nullish(),
    }),
  ),
});

type CacheEntry = { quote: PriceQuote; cachedAtMs: number };

/** Why a request was not made or failed; the caller then serves what the cache has. */
type FetchFailure = { ok: false; reason: string };

/**
 * USD prices from a CoinGecko-shaped market-data service (`/simple/price`), with the spec's
 * 30 s cache per symbol and a budget of 100 requests per minute; when the service cannot answer,
 * cached quotes are served instead and the call never rejects.
 */
export class MarketDataPriceSource implements PriceSource {
  readonly name = SOURCE_NAME;
  readonly #options: MarketDataPriceSourceOptions;
  readonly #fetch: typeof fetch;
  readonly #now: () => Date;
  readonly #budget: RequestBudget;
  readonly #cache = new Map<string, CacheEntry>();
  #ok = true;
  #lastError: string | null = null;
  #lastSuccessAt: Date | null = null;
  #retryAt: Date | null = null;

  constructor(options: MarketDataPriceSourceOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? (() => new Date());
    this.#budget = new RequestBudget({
      maxRequests: options.maxRequestsPerWindow ?? DEFAULT_MAX_REQUESTS_PER_WINDOW,
      windowMs: options.requestWindowMs ?? DEFAULT_REQUEST_WINDOW_MS,
      now: this.#now,
    });
  }

  async getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>> {
    const quotes = new Map<string, PriceQuote>();
    const missing: string[] = [];
    for (const symbol of new Set(symbols.map((each) => each.toUpperCase()))) {
      if (this.#coinIdOf(symbol) === undefined) continue;
      const cached = this.#cached(symbol, this.#cacheTtlMs());
      if (cached !== undefined) quotes.set(symbol, cached);
      else missing.push(symbol);
    }
    for (let start = 0; start < missing.length; start += MAX_IDS_PER_REQUEST) {
      await this.#fetchPrices(missing.slice(start, start + MAX_IDS_PER_REQUEST), quotes);
    }
    return quotes;
  }

  /** Coins matching a text, best first, at most 10; [] when the service cannot answer. */
  async searchCoins(query: string): Promise<CoinSearchResult[]> {
    if (query.trim() === '') return [];
    const body = await this.#get(`/search?query=${encodeURIComponent(query.trim())}`);
    if (!body.ok) return [];
    const parsed = searchSchema.safeParse(body.value);
    if (!parsed.success) {
      this.#fail('GET /search: unexpected response shape');
      return [];
    }
    this.#succeed();
    return parsed.data.coins.slice(0, MAX_SEARCH_RESULTS).map((coin) => ({
      id: coin.id,
      name: coin.name,
      symbol: coin.symbol.toUpperCase(),
      marketCapRank: coin.market_cap_rank ?? null,
      thumb: coin.thumb ?? '',
    }));
  }

  health(): PriceSourceHealth & { retryAt: Date | null } {
    return {
      name: SOURCE_NAME,
      ok: this.#ok,
      lastError: this.#lastError,
      lastSuccessAt: this.#lastSuccessAt,
      retryAt: this.#retryAt !== null && this.#retryAt > this.#now() ? this.#retryAt : null,
    };
  }

  /** Forgets every cached quote (spec §4: the price cache can be cleared). */
  clearCache(): void {
    this.#cache.clear();
  }

  /** Adds fresh quotes for `symbols` to `quotes`, or the usable cached ones when that fails. */
  async #fetchPrices(symbols: readonly string[], quotes: Map<string, PriceQuote>): Promise<void> {
    const symbolsById = new Map<string, string[]>();
    for (const symbol of symbols) {
      const id = this.#coinIdOf(symbol) ?? '';
      symbolsById.set(id, [...(symbolsById.get(id) ?? []), symbol]);
    }
    const ids = [...symbolsById.keys()].map(encodeURIComponent).join(',');
    const flags = 'include_market_cap=true&include_24hr_vol=true&include_24hr_change=true&include_last_updated_at=true';
    const body = await this.#get(`/simple/price?ids=${ids}&vs_currencies=usd&${flags}`);
    const parsed = body.ok ? simplePriceSchema.safeParse(body.value) : null;
    if (parsed === null || !parsed.success) {
      if (parsed !== null) this.#fail('GET /simple/price: unexpected response shape');
      this.#serveStale(symbols, quotes);
      return;
    }
    this.#succeed();
    for (const [id, idSymbols] of symbolsById) {
      const entry = parsed.data[id];
      for (const symbol of idSymbols) {
        // A coin without a usable price is "missing", not priced at 0: a zero price would stop the
        // chain from asking the next source.
        const priceUsd = entry?.usd == null ? null : numberToDecimal(entry.usd);
        if (entry === undefined || priceUsd === null || !isPositivePrice(priceUsd)) {
          this.#options.logger.warn({ symbol, coinId: id }, `No price data found for ${symbol}`);
          continue;
        }
        const quote: PriceQuote = {
          symbol,
          priceUsd,
          changePercent24h: numberOrZero(entry.usd_24h_change),
          volume24hUsd: numberOrZero(entry.usd_24h_vol),
          high24hUsd: null,
          low24hUsd: null,
          marketCapUsd: numberOrZero(entry.usd_market_cap),
          // Unix seconds are an integer count, not an amount: plain number arithmetic is exact.
          timestamp: typeof entry.last_updated_at === 'number' ? new Date(entry.last_updated_at * 1000) : this.#now(),
          source: SOURCE_NAME,
        };
        this.#cache.set(symbol, { quote, cachedAtMs: this.#now().getTime() });
        quotes.set(symbol, quote);
      }
    }
  }

  #serveStale(symbols: readonly string[], quotes: Map<string, PriceQuote>): void {
    const maxAgeMs = this.#options.staleCacheMaxAgeMs ?? DEFAULT_STALE_CACHE_MAX_AGE_MS;
    for (const symbol of symbols) {
      const cached = this.#cached(symbol, maxAgeMs);
      if (cached !== undefined) quotes.set(symbol, cached);
    }
  }

  /** One GET with the budget, the Retry-After pause, the timeout and the key; failures are logged. */
  async #get(pathAndQuery: string): Promise<{ ok: true; value: unknown } | FetchFailure> {
    const path = pathAndQuery.split('?')[0] ?? pathAndQuery;
    const now = this.#now();
    if (this.#retryAt !== null && this.#retryAt > now) {
      return { ok: false, reason: 'rate limited' };
    }
    if (!this.#budget.tryTake()) {
      this.#options.logger.warn({ path }, 'market-data request budget spent; serving cached prices');
      return { ok: false, reason: 'request budget spent' };
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#options.apiKey) headers[this.#options.apiKeyHeader ?? 'x-cg-demo-api-key'] = this.#options.apiKey;
    try {
      const response = await this.#fetch(`${this.#options.baseUrl}${pathAndQuery}`, {
        headers,
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      if (response.status === 429) {
        await response.body?.cancel();
        this.#retryAt = retryAtFromHeader(response.headers.get('retry-after'), now, DEFAULT_RETRY_AFTER_MS);
        return this.#fail(`GET ${path}: HTTP 429, rate limited until ${this.#retryAt.toISOString()}`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        return this.#fail(`GET ${path}: HTTP ${response.status}`);
      }
      return { ok: true, value: await response.json() };
    } catch (error) {
      return this.#fail(`GET ${path}: ${describeError(error)}`);
    }
  }

  #fail(reason: string): FetchFailure {
    this.#ok = false;
    this.#lastError = reason;
    this.#options.logger.error({ source: SOURCE_NAME }, reason);
    return { ok: false, reason };
  }

  #succeed(): void {
    this.#ok = true;
    this.#lastSuccessAt = this.#now();
  }

  #cached(symbol: string, maxAgeMs: number): PriceQuote | undefined {
    const entry = this.#cache.get(symbol);
    if (entry === undefined) return undefined;
    if (this.#now().getTime() - entry.cachedAtMs < maxAgeMs) return entry.quote;
    return undefined;
  }

  #coinIdOf(symbol: string): string | undefined {
    return this.#options.coinIds[symbol];
  }

  #cacheTtlMs(): number {
    return this.#options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  }
}

/**
 * The exact decimal text of a JSON number, without float arithmetic: the number's shortest
 * round-trip text (what the service most likely sent) with any exponent expanded by moving the
 * point in the string. Rounded half-even to 18 decimals, the deepest our amounts keep; null for a
 * number no amount can hold.
 */
export function numberToDecimal(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const parsed = parseDecimal(expandExponent(String(value)), {
    allowNegative: true,
    maxScale: MAX_SCALE,
    maxIntegerDigits: MAX_INTEGER_DIGITS,
  });
  if (!parsed.ok) return null;
  const amount = parsed.value.scale > MAX_DECIMALS ? toScale(parsed.value, MAX_DECIMALS, 'half_even') : parsed.value;
  return formatDecimal(stripTrailingZeros(amount));
}

/** Spec §3.6: missing values default to 0; so does a value too large to be a real one. */
function numberOrZero(value: number | null | undefined): string {
  return typeof value === 'number' ? (numberToDecimal(value) ?? '0') : '0';
}

function isPositivePrice(text: string): boolean {
  return !text.startsWith('-') && /[1-9]/.test(text);
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** '1.5e-7' -> '0.00000015', '2e+21' -> '2000000000000000000000'; plain text is returned as is. */
export function expandExponent(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i.exec(text);
  if (match === null) return text;
  const [, sign = '', integerDigits = '', fractionDigits = '', exponentText = '0'] = match;
  const digits = integerDigits + fractionDigits;
  const pointAt = integerDigits.length + Number(exponentText);
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}
