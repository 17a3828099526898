import type { OrderBookUpdate } from '@platform/contracts';
import type { BookDepth, MarketEngine } from '@platform/engine';
import { type PairSpec, priceText, quantityText } from './pair-spec.ts';

/** Book levels kept in the retained snapshot and diffed into deltas (what a trade screen shows, with room). */
export const BOOK_DEPTH_LEVELS = 50;

export type BookView = { sequence: number; bids: [string, string][]; asks: [string, string][] };

/** What a book picture is taken of. */
export interface PicturedMarket {
  readonly spec: PairSpec;
  readonly engine: MarketEngine;
  readonly lastSequence: number;
}

/** The book as text levels, at the market's last sequence. */
export function depthView(market: PicturedMarket, levels: number): BookView {
  const depth = market.engine.depth(levels);
  const view = (side: BookDepth['bids']) =>
    side.map((level): [string, string] => [
      priceText(market.spec, level.priceTicks),
      quantityText(market.spec, level.quantityLots),
    ]);
  return { sequence: market.lastSequence, bids: view(depth.bids), asks: view(depth.asks) };
}

/**
 * The last picture of a market's book that was published: each batch publishes what changed since
 * (a delta naming the previous sequence, so clients detect a gap) and the new whole picture.
 */
export class BookPictures {
  private lastDepth: BookDepth = { bids: [], asks: [] };
  private bookSequence = 0;

  /** Starts over from the current book (after start or a reload); the snapshot to retain. */
  reset(market: PicturedMarket, now: Date): OrderBookUpdate {
    this.lastDepth = market.engine.depth(BOOK_DEPTH_LEVELS);
    this.bookSequence = market.lastSequence;
    const view = depthView(market, BOOK_DEPTH_LEVELS);
    return {
      trading_pair: market.spec.id,
      kind: 'snapshot',
      sequence: view.sequence,
      prev_sequence: view.sequence,
      bids: view.bids,
      asks: view.asks,
      timestamp: now.getTime(),
    };
  }

  /** The book's change since the last published picture, and the new picture; null when unchanged. */
  delta(market: PicturedMarket, now: Date): { delta: OrderBookUpdate; snapshot: OrderBookUpdate } | null {
    const depth = market.engine.depth(BOOK_DEPTH_LEVELS);
    const bids = diffSide(this.lastDepth.bids, depth.bids);
    const asks = diffSide(this.lastDepth.asks, depth.asks);
    if (bids.length === 0 && asks.length === 0) return null;
    const text = (levels: [number, number][]) =>
      levels.map(([price, quantity]): [string, string] => [
        priceText(market.spec, price),
        quantityText(market.spec, quantity),
      ]);
    const delta: OrderBookUpdate = {
      trading_pair: market.spec.id,
      kind: 'delta',
      sequence: market.lastSequence,
      prev_sequence: this.bookSequence,
      bids: text(bids),
      asks: text(asks),
      timestamp: now.getTime(),
    };
    this.lastDepth = depth;
    this.bookSequence = market.lastSequence;
    const view = depthView(market, BOOK_DEPTH_LEVELS);
    const snapshot: OrderBookUpdate = {
      ...delta,
      kind: 'snapshot',
      prev_sequence: delta.sequence,
      bids: view.bids,
      asks: view.asks,
    };
    return { delta, snapshot };
  }
}

/** Levels whose quantity changed, as [price, new quantity]; 0 for a level that is gone. */
function diffSide(before: BookDepth['bids'], after: BookDepth['bids']): [number, number][] {
  const previous = new Map(before.map((level) => [level.priceTicks, level.quantityLots]));
  const changes: [number, number][] = [];
  for (const level of after) {
    if (previous.get(level.priceTicks) !== level.quantityLots) changes.push([level.priceTicks, level.quantityLots]);
    previous.delete(level.priceTicks);
  }
  for (const price of previous.keys()) changes.push([price, 0]);
  return changes;
}
