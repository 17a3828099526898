import {
  MARKET_TRADES_MAX_LIMIT,
  type OrderBookView,
  orderBookSchema,
  orderBookStatsSchema,
  type Trade,
  tradeSchema,
} from '@platform/contracts';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { type EncodedBody, EncodedCache } from '../../http/encoded-body.ts';
import { ok, type Result } from '../../lib/errors.ts';
import { type TradeRecord, tradeRow } from './batch-effects.ts';
import type { Exchange } from './exchange.ts';
import { type PairSpec, priceText, quantityText } from './pair-spec.ts';
import type { MarketSequencer } from './sequencer.ts';
import { marketOf, type TradeRow } from './service.ts';

/**
 * Most (market, depth) and (market, limit) bodies kept: a client may ask for any depth or limit up
 * to 500, and each costs a few kilobytes; past this the oldest goes and is rebuilt when asked again.
 */
const MAX_CACHED_BODIES = 2_000;
const tradesSchema = z.array(tradeSchema);
type OrderBookStats = z.infer<typeof orderBookStatsSchema>;

/** A trade of the tape, with what orders it among trades of the same instant (the table's order). */
type TapeEntry = { view: Trade; sequence: number };

/** Newer first: executed_at desc, sequence desc, id desc, as the trades table is read. */
function newerFirst(a: TapeEntry, b: TapeEntry): number {
  if (a.view.timestamp !== b.view.timestamp) return b.view.timestamp - a.view.timestamp;
  if (a.sequence !== b.sequence) return b.sequence - a.sequence;
  return a.view.id < b.view.id ? 1 : a.view.id > b.view.id ? -1 : 0;
}

/**
 * The newest trades of every market, in memory: read from the trades table at start, then added as
 * each batch's trades are announced, which happens only once the batch has committed (sequencer.ts
 * prepareEvents), so the tape never shows a trade the database may still lose. It holds as many
 * per market as one read may ask for, so a read never needs the table.
 */
export class RecentTrades {
  private readonly tapes = new Map<string, TapeEntry[]>();
  private readonly versions = new Map<string, number>();

  constructor(private readonly capacity = MARKET_TRADES_MAX_LIMIT) {}

  /** Replaces every tape with the newest trades of the table (at start, before any order is taken). */
  async load(db: Queryable, viewOf: (row: TradeRow) => Trade): Promise<void> {
    const result = await db.query<TradeRow & { sequence: bigint | string }>(
      `SELECT t.* FROM trading_pairs p CROSS JOIN LATERAL (
         SELECT * FROM trades WHERE pair_id = p.id ORDER BY executed_at DESC, sequence DESC, id DESC LIMIT $1
       ) t`,
      [this.capacity],
    );
    this.tapes.clear();
    for (const row of result.rows) this.tapeOf(row.pair_id).push({ view: viewOf(row), sequence: Number(row.sequence) });
    for (const [pairId, tape] of this.tapes) {
      tape.sort(newerFirst);
      this.bump(pairId);
    }
  }

  /** A committed batch's trades, as the table would show them. */
  add(spec: PairSpec, trades: readonly TradeRecord[], viewOf: (row: TradeRow) => Trade): void {
    if (trades.length === 0) return;
    const tape = this.tapeOf(spec.id);
    for (const trade of trades) insertSorted(tape, { view: viewOf(tradeRow(spec, trade)), sequence: trade.sequence });
    if (tape.length > this.capacity) tape.length = this.capacity;
    this.bump(spec.id);
  }

  /** The newest `limit` trades of a market, newest first. */
  newest(pairId: string, limit: number): Trade[] {
    return (this.tapes.get(pairId) ?? []).slice(0, limit).map((entry) => entry.view);
  }

  version(pairId: string): number {
    return this.versions.get(pairId) ?? 0;
  }

  private tapeOf(pairId: string): TapeEntry[] {
    let tape = this.tapes.get(pairId);
    if (!tape) {
      tape = [];
      this.tapes.set(pairId, tape);
    }
    return tape;
  }

  private bump(pairId: string): void {
    this.versions.set(pairId, this.version(pairId) + 1);
  }
}

/** New trades are nearly always the newest: the search starts at the front. */
function insertSorted(tape: TapeEntry[], entry: TapeEntry): void {
  let index = 0;
  while (index < tape.length && newerFirst(tape[index]!, entry) < 0) index++;
  tape.splice(index, 0, entry);
}

/**
 * The public reads of the exchange's markets (order book, its depth and statistics, recent trades)
 * as bodies encoded once per change of what they show: per (market, depth) per book sequence, per
 * market per sequence, per (market, limit) per tape version. The book is the engine's, in memory;
 * the trades are the tape's (RecentTrades), never the table.
 */
export class MarketReads {
  private readonly books = new EncodedCache<string>(MAX_CACHED_BODIES);
  private readonly bookStats = new EncodedCache<string>(MAX_CACHED_BODIES);
  private readonly tapes = new EncodedCache<string>(MAX_CACHED_BODIES);
  /** Engines by identity: a market reloaded after a failed write gets a new one, and its sequence may repeat. */
  private readonly generations = new WeakMap<object, number>();
  private nextGeneration = 0;

  constructor(
    private readonly exchange: Exchange,
    readonly trades: RecentTrades,
    private readonly clock: () => Date,
  ) {}

  /** The version of a market's book: its engine and the last sequence applied to it. */
  private bookVersion(market: MarketSequencer): string {
    let generation = this.generations.get(market.engine);
    if (generation === undefined) {
      generation = ++this.nextGeneration;
      this.generations.set(market.engine, generation);
    }
    return `${generation}:${market.lastSequence}`;
  }

  /**
   * The book to `depth` levels. Its `timestamp` is when this picture was taken (the first read after
   * the book last changed), not the time of the read: the levels are as of that instant and of
   * `sequence`, which is what a client compares.
   */
  orderBook(pair: string, depth: number): Result<EncodedBody> {
    const found = marketOf(this.exchange, pair);
    if (!found.ok) return found;
    const market = found.value;
    return ok(
      this.books.get(`${market.spec.id}|${depth}`, this.bookVersion(market), () =>
        orderBookSchema.parse(this.bookOf(market, depth)),
      ),
    );
  }

  private bookOf(market: MarketSequencer, depth: number): OrderBookView {
    const view = market.depthView(depth);
    return {
      trading_pair: market.spec.id,
      symbol: market.spec.symbol,
      sequence: view.sequence,
      bids: view.bids,
      asks: view.asks,
      timestamp: this.clock().getTime(),
    };
  }

  /** Best bid and ask, spread, levels and totals of the whole book. */
  orderBookStats(pair: string): Result<EncodedBody> {
    const found = marketOf(this.exchange, pair);
    if (!found.ok) return found;
    const market = found.value;
    return ok(
      this.bookStats.get(market.spec.id, this.bookVersion(market), () =>
        orderBookStatsSchema.parse(bookStatsOf(market)),
      ),
    );
  }

  /** The newest `limit` trades of a market, newest first, as the trades table would list them. */
  marketTrades(pair: string, limit: number): Result<EncodedBody> {
    const found = marketOf(this.exchange, pair);
    if (!found.ok) return found;
    const pairId = found.value.spec.id;
    return ok(
      this.tapes.get(`${pairId}|${limit}`, this.trades.version(pairId), () =>
        tradesSchema.parse(this.trades.newest(pairId, limit)),
      ),
    );
  }
}

/** The whole book's figures: best prices, spread, mid, levels, quantities and orders per side. */
function bookStatsOf(market: MarketSequencer): OrderBookStats {
  const spec = market.spec;
  const engine = market.engine;
  const depth = engine.depth(Number.MAX_SAFE_INTEGER);
  const bestBid = engine.bestBid();
  const bestAsk = engine.bestAsk();
  const last = engine.lastTradePrice();
  const sum = (levels: typeof depth.bids) => levels.reduce((total, level) => total + level.quantityLots, 0);
  const count = (levels: typeof depth.bids) => levels.reduce((total, level) => total + level.orderCount, 0);
  const price = (ticks: number | null) => (ticks === null ? null : priceText(spec, ticks));
  const both = bestBid !== null && bestAsk !== null;
  return {
    trading_pair: spec.id,
    best_bid: price(bestBid),
    best_ask: price(bestAsk),
    spread: both ? price(bestAsk - bestBid) : null,
    // The mid rounds down to the tick; shown at one more decimal it would be exact, but a tick is the unit here.
    mid_price: both ? price(Math.floor((bestAsk + bestBid) / 2)) : null,
    last_price: price(last),
    bid_levels: depth.bids.length,
    ask_levels: depth.asks.length,
    bid_quantity: quantityText(spec, sum(depth.bids)),
    ask_quantity: quantityText(spec, sum(depth.asks)),
    bid_orders: count(depth.bids),
    ask_orders: count(depth.asks),
    sequence: market.lastSequence,
  };
}
