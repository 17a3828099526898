import { type Amount, div, formatDecimal, isZero, mul, parseDecimal, stripTrailingZeros, sub } from '@platform/money';
import WebSocket from 'ws';
import { z } from 'zod';
import { invariant } from '../../lib/invariant.ts';
import type { Logger } from '../../logger.ts';
import { RateLimitedError, retryAtFromHeader } from './rate-limiter.ts';
import type { PriceQuote, PriceSource, PriceSourceHealth } from './types.ts';

/** Spec §9, price feed: 1 s doubling to a 30 s cap, at most 5 attempts, then give up. */
export type ReconnectPolicy = { baseDelayMs: number; maxDelayMs: number; maxAttempts: number };
export const PRICE_FEED_RECONNECT: ReconnectPolicy = { baseDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: 5 };

/** Starts a timer and returns its cancel function; injected so tests can see and skip the delays. */
export type SetTimer = (callback: () => void, delayMs: number) => () => void;

export type ExchangePriceSourceOptions = {
  /** REST root, e.g. https://data-api.binance.vision (no trailing slash). */
  baseUrl: string;
  /** Stream root, e.g. wss://data-stream.binance.vision (no trailing slash). */
  wsUrl: string;
  logger: Logger;
  /** The asset every market is quoted in and taken as USD; default USDT. */
  quoteAsset?: string;
  /** Exceptions to `{symbol}{quoteAsset}`, e.g. { MATIC: 'POLUSDT' }. */
  markets?: Readonly<Record<string, string>>;
  /**
   * The market that prices the quote asset itself, inverted (spec §9: USDT mapped to a USDC-USDT
   * pair); default `USDC{quoteAsset}`. When it is null or the exchange does not list it, the quote
   * asset is priced at exactly 1.
   */
  quoteAssetUsdMarket?: string | null;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Per REST call and per socket handshake; spec §9 main API timeout, 5 s. */
  timeoutMs?: number;
  reconnect?: Partial<ReconnectPolicy>;
  setTimer?: SetTimer;
};

/** Enough of an unreadable stream message to recognise it in the log, without logging a flood. */
const LOGGED_MESSAGE_CHARS = 200;
const SOURCE_NAME = 'exchange';
const DEFAULT_TIMEOUT_MS = 5000;
/** Binance sends Retry-After with every 429/418; a minute (its weight window) if it ever does not. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Binance accepts at most 1024 streams on one connection. */
const MAX_STREAMS_PER_CONNECTION = 1024;
/** Decimals kept when a price is inverted (1 / USDCUSDT). */
const INVERTED_PRICE_SCALE = 8;
/** Binance reports percent changes with 3 decimals. */
const PERCENT_SCALE = 3;
const ONE: Amount = { units: 1n, scale: 0 };
const HUNDRED: Amount = { units: 100n, scale: 0 };

const decimalText = z.string().transform((text, context) => {
  const parsed = parseDecimal(text, { allowNegative: true });
  if (parsed.ok) return parsed.value;
  context.addIssue({ code: 'custom', message: `not a decimal (${parsed.error})`, input: text });
  return z.NEVER;
});

const restTickerSchema = z.object({
  symbol: z.string(),
  lastPrice: decimalText,
  priceChangePercent: decimalText,
  quoteVolume: decimalText,
  highPrice: decimalText,
  lowPrice: decimalText,
  openPrice: decimalText,
  closeTime: z.number().int(),
});

const streamMessageSchema = z.object({
  stream: z.string(),
  data: z.object({
    e: z.literal('24hrTicker'),
    E: z.number().int(),
    s: z.string(),
    c: decimalText,
    P: decimalText,
    q: decimalText,
    h: decimalText,
    l: decimalText,
    o: decimalText,
  }),
});

/** The fields of a 24 h ticker both the REST answer and the stream event carry. */
type Ticker = {
  last: Amount;
  changePercent: Amount;
  quoteVolume: Amount;
  high: Amount;
  low: Amount;
  open: Amount;
  timestampMs: number;
};

/** How one coin symbol is priced: straight from a market, or as the inverse of one. */
type MarketRef = { symbol: string; market: string; inverted: boolean };

/**
 * USD prices from a Binance-shaped public exchange: all 24 h tickers in one REST call, and a
 * combined `<market>@ticker` stream for live updates.
 */
export class ExchangePriceSource implements PriceSource {
  readonly name = SOURCE_NAME;
  readonly #options: ExchangePriceSourceOptions;
  readonly #quoteAsset: string;
  readonly #quoteAssetUsdMarket: string | null;
  readonly #fetch: typeof fetch;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #streams = new Set<TickerStream>();
  #restOk = true;
  #lastError: string | null = null;
  #lastSuccessAt: Date | null = null;
  #retryAt: Date | null = null;

  constructor(options: ExchangePriceSourceOptions) {
    this.#options = options;
    this.#quoteAsset = (options.quoteAsset ?? 'USDT').toUpperCase();
    this.#quoteAssetUsdMarket =
      options.quoteAssetUsdMarket === undefined ? `USDC${this.#quoteAsset}` : options.quoteAssetUsdMarket;
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? (() => new Date());
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>> {
    const refs = uniqueUpperCase(symbols).map((symbol) => this.#marketFor(symbol));
    let rawTickers: Map<string, unknown>;
    try {
      rawTickers = await this.#fetchTickers();
    } catch (error) {
      this.#restOk = false;
      this.#lastError = describeError(error);
      throw error;
    }
    this.#restOk = true;
    this.#lastSuccessAt = this.#now();

    const quotes = new Map<string, PriceQuote>();
    for (const ref of refs) {
      const quote = this.#quoteFromRest(ref, rawTickers);
      if (quote !== null) quotes.set(ref.symbol, quote);
    }
    return quotes;
  }

  subscribe(symbols: readonly string[], onQuote: (quote: PriceQuote) => void): () => void {
    const refsByMarket = new Map<string, MarketRef>();
    for (const symbol of uniqueUpperCase(symbols)) {
      const ref = this.#marketFor(symbol);
      if (ref.market !== '') refsByMarket.set(ref.market, ref);
    }
    if (refsByMarket.size === 0) return () => {};
    invariant(
      refsByMarket.size <= MAX_STREAMS_PER_CONNECTION,
      `exchange: at most ${MAX_STREAMS_PER_CONNECTION} streams per connection`,
    );
    const streamNames = [...refsByMarket.keys()].map((market) => `${market.toLowerCase()}@ticker`);
    const stream = new TickerStream({
      url: `${this.#options.wsUrl}/stream?streams=${streamNames.join('/')}`,
      policy: { ...PRICE_FEED_RECONNECT, ...this.#options.reconnect },
      handshakeTimeoutMs: this.#timeoutMs,
      setTimer: this.#options.setTimer ?? realSetTimer,
      logger: this.#options.logger,
      onText: (text) => this.#onStreamText(text, refsByMarket, onQuote),
      onError: (message) => {
        this.#lastError = message;
      },
    });
    this.#streams.add(stream);
    stream.start();
    return () => {
      stream.stop();
      this.#streams.delete(stream);
    };
  }

  /** Not ok after a failed REST call (until one succeeds) or while any stream is down. */
  health(): PriceSourceHealth & { retryAt: Date | null } {
    const streamsUp = [...this.#streams].every((stream) => stream.isUp());
    return {
      name: SOURCE_NAME,
      ok: this.#restOk && streamsUp,
      lastError: this.#lastError,
      lastSuccessAt: this.#lastSuccessAt,
      retryAt: this.#retryAt !== null && this.#retryAt > this.#now() ? this.#retryAt : null,
    };
  }

  async close(): Promise<void> {
    for (const stream of this.#streams) stream.stop();
    this.#streams.clear();
  }

  #marketFor(symbol: string): MarketRef {
    if (symbol === this.#quoteAsset) {
      return { symbol, market: this.#quoteAssetUsdMarket ?? '', inverted: true };
    }
    return { symbol, market: this.#options.markets?.[symbol] ?? `${symbol}${this.#quoteAsset}`, inverted: false };
  }

  /** All tickers by market name, still unparsed: one malformed ticker must not spoil the others. */
  async #fetchTickers(): Promise<Map<string, unknown>> {
    const now = this.#now();
    if (this.#retryAt !== null && this.#retryAt > now) {
      // Asking again before Retry-After turns Binance's 429 into a 418 IP ban.
      throw new RateLimitedError(`rate limited until ${this.#retryAt.toISOString()}`, this.#retryAt);
    }
    const path = '/api/v3/ticker/24hr';
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      response = await this.#fetch(`${this.#options.baseUrl}${path}`, {
        headers: { accept: 'application/json' },
        signal,
      });
    } catch (error) {
      throw new Error(`GET ${path}: ${describeError(error)}`, { cause: error });
    }
    if (response.status === 429 || response.status === 418) {
      await response.body?.cancel();
      this.#retryAt = retryAtFromHeader(response.headers.get('retry-after'), now, DEFAULT_RETRY_AFTER_MS);
      const message = `GET ${path}: HTTP ${response.status}, retry after ${this.#retryAt.toISOString()}`;
      throw new RateLimitedError(message, this.#retryAt);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`GET ${path}: HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      // The timeout covers the body too: a server that stalls mid-answer aborts here.
      throw new Error(`GET ${path}: ${describeError(error)}`, { cause: error });
    }
    if (!Array.isArray(body)) throw new Error(`GET ${path}: expected an array of tickers`);
    const tickers = new Map<string, unknown>();
    for (const item of body) {
      if (typeof item === 'object' && item !== null && 'symbol' in item && typeof item.symbol === 'string') {
        tickers.set(item.symbol, item);
      }
    }
    return tickers;
  }

  #quoteFromRest(ref: MarketRef, rawTickers: Map<string, unknown>): PriceQuote | null {
    const raw = rawTickers.get(ref.market);
    if (raw === undefined) {
      return ref.symbol === this.#quoteAsset ? this.#parQuote(ref.symbol) : null;
    }
    const parsed = restTickerSchema.safeParse(raw);
    if (!parsed.success) {
      this.#options.logger.warn(
        { market: ref.market, issues: parsed.error.issues },
        'dropped unreadable exchange ticker',
      );
      return null;
    }
    const ticker = parsed.data;
    return this.#toQuote(ref, {
      last: ticker.lastPrice,
      changePercent: ticker.priceChangePercent,
      quoteVolume: ticker.quoteVolume,
      high: ticker.highPrice,
      low: ticker.lowPrice,
      open: ticker.openPrice,
      timestampMs: ticker.closeTime,
    });
  }

  #onStreamText(text: string, refsByMarket: Map<string, MarketRef>, onQuote: (quote: PriceQuote) => void): void {
    const parsed = streamMessageSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      this.#options.logger.warn(
        { message: text.slice(0, LOGGED_MESSAGE_CHARS) },
        'dropped unreadable exchange stream message',
      );
      return;
    }
    const event = parsed.data.data;
    const ref = refsByMarket.get(event.s);
    if (ref === undefined) return;
    this.#lastSuccessAt = this.#now();
    const quote = this.#toQuote(ref, {
      last: event.c,
      changePercent: event.P,
      quoteVolume: event.q,
      high: event.h,
      low: event.l,
      open: event.o,
      timestampMs: event.E,
    });
    if (quote !== null) onQuote(quote);
  }

  /** Null for a market without a price (Binance lists halted markets with a last price of 0). */
  #toQuote(ref: MarketRef, ticker: Ticker): PriceQuote | null {
    if (isZero(ticker.last)) return null;
    const common = {
      symbol: ref.symbol,
      volume24hUsd: text(ticker.quoteVolume),
      marketCapUsd: null,
      timestamp: new Date(ticker.timestampMs),
      source: SOURCE_NAME,
    };
    if (!ref.inverted) {
      return {
        ...common,
        priceUsd: text(ticker.last),
        changePercent24h: text(ticker.changePercent),
        high24hUsd: text(ticker.high),
        low24hUsd: text(ticker.low),
      };
    }
    // The market prices the stablecoin in our quote asset (USDC in USDT); we want the quote asset
    // in USD, so every price turns over, and the high becomes the low.
    return {
      ...common,
      priceUsd: text(invert(ticker.last)),
      changePercent24h: text(
        mul(div(sub(ticker.open, ticker.last), ticker.last, PERCENT_SCALE + 2, 'half_even'), HUNDRED),
      ),
      high24hUsd: isZero(ticker.low) ? null : text(invert(ticker.low)),
      low24hUsd: isZero(ticker.high) ? null : text(invert(ticker.high)),
    };
  }

  #parQuote(symbol: string): PriceQuote {
    return {
      symbol,
      priceUsd: '1',
      changePercent24h: '0',
      volume24hUsd: '0',
      high24hUsd: null,
      low24hUsd: null,
      marketCapUsd: null,
      timestamp: this.#now(),
      source: SOURCE_NAME,
    };
  }
}

type TickerStreamOptions = {
  url: string;
  policy: ReconnectPolicy;
  handshakeTimeoutMs: number;
  setTimer: SetTimer;
  logger: Logger;
  onText: (text: string) => void;
  onError: (message: string) => void;
};

/**
 * One socket with the price-feed reconnect policy: after a close it waits base * 2^(attempt - 1)
 * (capped) and tries again; an opened connection resets the count; after `maxAttempts` failed
 * attempts in a row it gives up and stays down. Binance's pings are answered by `ws` itself.
 */
class TickerStream {
  readonly #options: TickerStreamOptions;
  #state: 'connecting' | 'open' | 'waiting' | 'gave-up' | 'stopped' = 'connecting';
  #failedAttempts = 0;
  #socket: WebSocket | null = null;
  #cancelTimer: (() => void) | null = null;

  constructor(options: TickerStreamOptions) {
    this.#options = options;
  }

  /** The first connection counts as up; a stream that dropped is down until it opens again. */
  isUp(): boolean {
    return this.#state === 'open' || (this.#state === 'connecting' && this.#failedAttempts === 0);
  }

  start(): void {
    this.#state = 'connecting';
    const socket = new WebSocket(this.#options.url, { handshakeTimeout: this.#options.handshakeTimeoutMs });
    this.#socket = socket;
    socket.on('open', () => {
      this.#state = 'open';
      this.#failedAttempts = 0;
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.#options.onText(rawDataToText(data));
    });
    socket.on('error', (error) => {
      this.#options.onError(`stream: ${error.message}`);
      this.#options.logger.warn({ err: error }, 'exchange stream error');
    });
    socket.on('close', (code) => {
      if (this.#state === 'stopped' || socket !== this.#socket) return;
      this.#options.onError(`stream closed (code ${code})`);
      this.#scheduleReconnect();
    });
  }

  stop(): void {
    this.#state = 'stopped';
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    const socket = this.#socket;
    this.#socket = null;
    if (socket === null) return;
    // A socket still connecting cannot close cleanly; terminate aborts the handshake too.
    if (socket.readyState === WebSocket.OPEN) socket.close(1000);
    else socket.terminate();
  }

  #scheduleReconnect(): void {
    const { baseDelayMs, maxDelayMs, maxAttempts } = this.#options.policy;
    if (this.#failedAttempts >= maxAttempts) {
      this.#state = 'gave-up';
      this.#options.onError('stream: max reconnection attempts reached');
      this.#options.logger.error({ attempts: this.#failedAttempts }, 'max reconnection attempts reached');
      return;
    }
    this.#failedAttempts += 1;
    const delayMs = Math.min(baseDelayMs * 2 ** (this.#failedAttempts - 1), maxDelayMs);
    this.#state = 'waiting';
    this.#options.logger.info({ attempt: this.#failedAttempts, delayMs }, 'exchange stream reconnecting');
    this.#cancelTimer = this.#options.setTimer(() => {
      this.#cancelTimer = null;
      if (this.#state === 'waiting') this.start();
    }, delayMs);
  }
}

function realSetTimer(callback: () => void, delayMs: number): () => void {
  const timer = setTimeout(callback, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}

function invert(value: Amount): Amount {
  return div(ONE, value, INVERTED_PRICE_SCALE, 'half_even');
}

/** The canonical decimal text without trailing zeros ('76975.01000000' -> '76975.01'). */
function text(value: Amount): string {
  return formatDecimal(stripTrailingZeros(value));
}

function uniqueUpperCase(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((symbol) => symbol.toUpperCase()))];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function rawDataToText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
