/**
 * A source of USD reference prices for coins (by upper-case symbol: BTC, ETH, USDT ...). Every
 * source — the public exchange, the market-data service, the payment provider, the built-in
 * simulator — answers through this interface, and the chain asks them in the configured order.
 */
export type PriceQuote = {
  /** Upper-case coin symbol, e.g. BTC. */
  symbol: string;
  /** USD price, decimal string (never a float). */
  priceUsd: string;
  /** Percent change over 24 h, decimal string ('-1.25'); '0' when the source does not say. */
  changePercent24h: string;
  /** 24 h volume in USD, decimal string; '0' when unknown. */
  volume24hUsd: string;
  high24hUsd: string | null;
  low24hUsd: string | null;
  marketCapUsd: string | null;
  /** When the source last saw this price. */
  timestamp: Date;
  /** Name of the source that produced it ('exchange', 'market-data', 'provider', 'simulator'). */
  source: string;
};

export type PriceSourceHealth = {
  name: string;
  ok: boolean;
  /** Last error text, for /health and the logs. */
  lastError: string | null;
  lastSuccessAt: Date | null;
};

export interface PriceSource {
  readonly name: string;
  /**
   * Latest quotes for the symbols it can price. A symbol it does not know is simply absent; a
   * failure of the whole call rejects (the chain then asks the next source).
   */
  getQuotes(symbols: readonly string[]): Promise<Map<string, PriceQuote>>;
  /** Push updates as they happen, when the source streams; returns an unsubscribe function. */
  subscribe?(symbols: readonly string[], onQuote: (quote: PriceQuote) => void): () => void;
  health(): PriceSourceHealth;
  /** Stops timers and sockets. */
  close?(): Promise<void>;
}
