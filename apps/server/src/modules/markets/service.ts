import type { MarketStatistics, PriceUpdate, TradingPair } from '@platform/contracts';
import { decimal, formatDecimal, parseDecimal, sub, toScale } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { PairCatalogue, PairRow } from './catalogue.ts';
import { type MarketFeed, priceTopic } from './feed.ts';

/**
 * Which of the given pair ids (BASE_QUOTE) exist in the catalogue. Unknown ids, and ids of any
 * other shape, are simply absent from the result.
 */
export async function existingPairIds(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Set();
  const result = await db.query<{ id: string }>('SELECT id FROM trading_pairs WHERE id = ANY($1::text[])', [wanted]);
  return new Set(result.rows.map((row) => row.id));
}

/** The last price update published for the pair (retained on the pub/sub), if any. */
export function latestPriceUpdate(pubsub: PubSub, pairId: string): PriceUpdate | undefined {
  return pubsub.latest(priceTopic(pairId)) as PriceUpdate | undefined;
}

/**
 * The reference price of a pair (the price sources', not the last trade): market makers quote
 * around it and the price band is measured from it. A running feed answers; before it runs (or in
 * tests with the feed off) the last published price stands in.
 */
export type ReferenceQuote = { price: string; timestamp: number };

/** The reference price and when the sources last confirmed it (never a trade on our book). */
export function referenceQuote(
  own: ((pairId: string) => ReferenceQuote | undefined) | null,
  pubsub: PubSub,
  pairId: string,
): ReferenceQuote | undefined {
  const quote = own?.(pairId);
  if (quote) return quote;
  const published = latestPriceUpdate(pubsub, pairId);
  return published ? { price: published.price, timestamp: published.timestamp } : undefined;
}

/** A reference price with the reference track's price 24 h ago (its open), as decimal strings. */
export type ReferenceDayQuote = ReferenceQuote & { open24h: string };

/**
 * The reference price and its price 24 h ago, from the same source as referenceQuote: the running
 * feed's reference track (price and open), else the retained price.{PAIR} message, whose open is
 * its price minus its 24 h change (the feed publishes change24h = price - open).
 */
export function referenceDayQuote(
  own: ((pairId: string) => ReferenceDayQuote | undefined) | null,
  pubsub: PubSub,
  pairId: string,
): ReferenceDayQuote | undefined {
  const quote = own?.(pairId);
  if (quote) return quote;
  const published = latestPriceUpdate(pubsub, pairId);
  if (!published) return undefined;
  const price = parseDecimal(String(published.price), PUBLISHED_LIMITS);
  const change = parseDecimal(String(published.change24h), { ...PUBLISHED_LIMITS, allowNegative: true });
  if (!price.ok) return undefined;
  const open = change.ok ? sub(price.value, change.value) : price.value;
  return { price: published.price, open24h: formatDecimal(open), timestamp: published.timestamp };
}

const PUBLISHED_LIMITS = { maxScale: 30, maxIntegerDigits: 30 };

export { PAIR_NOT_FOUND } from './catalogue.ts';

/** NUMERIC comes back with its stored scale; the wire wants the value without padding zeros. */
const canonical = (text: string) => formatDecimal(decimal(text), { trimZeros: true });

/** The §3.6 pair: the catalogue's row with the feed's live price, 24 h volume and change. */
export function toTradingPair(row: PairRow, feed: MarketFeed | undefined): TradingPair {
  const stats = feed?.stats(row.id);
  return {
    id: row.id,
    base_currency: row.base_currency,
    quote_currency: row.quote_currency,
    symbol: row.symbol,
    min_trade_amount: canonical(row.min_trade_amount),
    max_trade_amount: canonical(row.max_trade_amount),
    price_precision: row.price_precision,
    quantity_precision: row.quantity_precision,
    trading_fee: canonical(row.trading_fee),
    maker_fee: canonical(row.maker_fee),
    taker_fee: canonical(row.taker_fee),
    is_active: row.is_active,
    is_enabled_by_admin: row.is_enabled_by_admin,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    supported_by_provider: row.supported_by_provider,
    current_price: stats ? formatDecimal(stats.price) : null,
    volume_24h: stats ? formatDecimal(stats.volume24h) : null,
    change_24h: stats ? formatDecimal(stats.changePercent24h) : null,
  };
}

/** Whether a pair is listed for trading (active and enabled by an admin). */
export const isOpen = (row: Pick<PairRow, 'is_active' | 'is_enabled_by_admin'>) =>
  row.is_active && row.is_enabled_by_admin;

/** One pair by any spelling of its symbol, from the catalogue in memory (never the database). */
export function findTradingPair(
  pairs: PairCatalogue,
  feed: MarketFeed | undefined,
  symbol: string,
): Result<TradingPair> {
  const row = pairs.find(symbol);
  return row.ok ? ok(toTradingPair(row.value, feed)) : row;
}

const NO_PRICE_YET = 'No price for this trading pair yet';

/** The ticker of a catalogued pair, or NOT_FOUND before its first price. */
export function tickerOf(feed: MarketFeed | undefined, pairId: string): Result<PriceUpdate> {
  const update = feed?.priceUpdate(pairId);
  return update ? ok(update) : fail('NOT_FOUND', { message: NO_PRICE_YET });
}

/** The 24 h statistics of a catalogued pair, or NOT_FOUND before its first price. */
export function statisticsOf(feed: MarketFeed | undefined, pairId: string): Result<MarketStatistics> {
  const stats = feed?.stats(pairId);
  const update = feed?.priceUpdate(pairId);
  if (!stats || !update) return fail('NOT_FOUND', { message: NO_PRICE_YET });
  const quoteVolume = toScale(
    { units: stats.volume24h.units * stats.price.units, scale: stats.volume24h.scale + stats.price.scale },
    stats.price.scale,
    'half_even',
  );
  return ok({
    ...update,
    pair_id: pairId,
    open24h: formatDecimal(stats.open24h),
    quote_volume24h: formatDecimal(quoteVolume),
    market_cap: stats.marketCapUsd,
    source: stats.source,
  });
}

/**
 * The recorded USD price of a currency at a past moment: the close of the latest stored 1 m candle
 * of its USD pair that opened at or before it, else the latest 1 d candle (history older than the
 * minute candles kept); null when neither exists. The candles are the price sources' track (the
 * feed's and the seeded history's), never a trade on our book. What the portfolio values a past
 * deposit or a trade without a USD leg with (docs/portfolio.md "Lots from the ledger").
 */
export async function usdPriceAt(db: Queryable, currency: string, timeMs: number): Promise<string | null> {
  const at = new Date(timeMs).toISOString();
  for (const interval of ['1m', '1d']) {
    const result = await db.query<{ close: string }>(
      `SELECT close::text AS close FROM candles WHERE pair_id = $1 AND interval = $2 AND open_time <= $3
       ORDER BY open_time DESC LIMIT 1`,
      [`${currency}_USD`, interval, at],
    );
    const close = result.rows[0]?.close;
    if (close !== undefined) return String(close);
  }
  return null;
}
