import {
  type MarketStatistics,
  normalizePairId,
  type PriceUpdate,
  type TradingPair,
  type TradingPairSeed,
} from '@platform/contracts';
import { decimal, formatDecimal, toScale } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
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

export const PAIR_NOT_FOUND = 'Trading pair not found';

/** A trading_pairs row: the seeded §3.6 fields and their timestamps. */
type PairRow = TradingPairSeed & { created_at: Date; updated_at: Date };

/** NUMERIC comes back with its stored scale; the wire wants the value without padding zeros. */
const canonical = (text: string) => formatDecimal(decimal(text), { trimZeros: true });

function toTradingPair(row: PairRow, feed: MarketFeed | undefined): TradingPair {
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

const PAIR_COLUMNS = `id, base_currency, quote_currency, symbol, min_trade_amount::text, max_trade_amount::text,
  price_precision, quantity_precision, trading_fee::text, maker_fee::text, taker_fee::text, is_active,
  is_enabled_by_admin, supported_by_provider, created_at, updated_at`;

export async function listTradingPairs(
  db: Queryable,
  feed: MarketFeed | undefined,
  onlyActive = false,
): Promise<TradingPair[]> {
  const result = await db.query<PairRow>(
    `SELECT ${PAIR_COLUMNS} FROM trading_pairs ${onlyActive ? 'WHERE is_active AND is_enabled_by_admin' : ''} ORDER BY sort_order, id`,
  );
  return result.rows.map((row) => toTradingPair(row, feed));
}

export async function findTradingPair(
  db: Queryable,
  feed: MarketFeed | undefined,
  symbol: string,
): Promise<Result<TradingPair>> {
  const id = normalizePairId(symbol);
  if (id === null) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
  const result = await db.query<PairRow>(`SELECT ${PAIR_COLUMNS} FROM trading_pairs WHERE id = $1`, [id]);
  const row = result.rows[0];
  if (!row) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
  return ok(toTradingPair(row, feed));
}

export async function ticker(
  db: Queryable,
  feed: MarketFeed | undefined,
  symbol: string,
): Promise<Result<PriceUpdate>> {
  const pair = await findTradingPair(db, feed, symbol);
  if (!pair.ok) return pair;
  const update = feed?.priceUpdate(pair.value.id);
  if (!update) return fail('NOT_FOUND', { message: 'No price for this trading pair yet' });
  return ok(update);
}

export async function statistics(
  db: Queryable,
  feed: MarketFeed | undefined,
  symbol: string,
): Promise<Result<MarketStatistics>> {
  const pair = await findTradingPair(db, feed, symbol);
  if (!pair.ok) return pair;
  const stats = feed?.stats(pair.value.id);
  const update = feed?.priceUpdate(pair.value.id);
  if (!stats || !update) return fail('NOT_FOUND', { message: 'No price for this trading pair yet' });
  const quoteVolume = toScale(
    { units: stats.volume24h.units * stats.price.units, scale: stats.volume24h.scale + stats.price.scale },
    stats.price.scale,
    'half_even',
  );
  return ok({
    ...update,
    pair_id: pair.value.id,
    open24h: formatDecimal(stats.open24h),
    quote_volume24h: formatDecimal(quoteVolume),
    market_cap: stats.marketCapUsd,
    source: stats.source,
  });
}
