import {
  type Amount,
  compare,
  formatDecimal,
  isNegative,
  isZero,
  parseDecimal,
  stripTrailingZeros,
} from '@platform/money';

/**
 * One market's order book as the client holds it: the levels of each side keyed by price, and the
 * market sequence the picture reflects. Pure and synchronous (no socket, no timers), so the rules
 * of snapshots and deltas are tested on their own (docs/trading.md, "Live data on the socket").
 */

export type BookSide = 'bid' | 'ask';

/** A price level: the wire's strings, and the same values parsed once for sorting and sums. */
export interface BookLevel {
  price: string;
  quantity: string;
  priceAmount: Amount;
  quantityAmount: Amount;
}

/** What a snapshot (socket or HTTP) and a delta carry; both contracts' shapes fit. */
export interface BookPicture {
  sequence: number;
  bids: ReadonlyArray<readonly [string, string]>;
  asks: ReadonlyArray<readonly [string, string]>;
  timestamp: number;
}

export interface BookDelta extends BookPicture {
  prev_sequence: number;
}

/**
 * - applied: the delta continued the picture.
 * - stale: the picture already includes it (an HTTP snapshot newer than the socket's).
 * - gap: it applies to a picture the client does not have; a fresh snapshot is needed.
 * - invalid: a level is not a non-negative decimal; the picture can no longer be trusted.
 */
export type DeltaResult = 'applied' | 'stale' | 'gap' | 'invalid';

/** Wire values have at most 18 decimals (NUMERIC(38,18)). */
const PARSE_OPTIONS = { maxScale: 18, maxIntegerDigits: 20 } as const;

function parseLevel([price, quantity]: readonly [string, string]): BookLevel | null {
  const parsedPrice = parseDecimal(price, PARSE_OPTIONS);
  const parsedQuantity = parseDecimal(quantity, PARSE_OPTIONS);
  if (!parsedPrice.ok || !parsedQuantity.ok) return null;
  if (isNegative(parsedPrice.value) || isNegative(parsedQuantity.value)) return null;
  return { price, quantity, priceAmount: parsedPrice.value, quantityAmount: parsedQuantity.value };
}

/** '67000.10' and '67000.1' are one level: the key is the value, not its spelling. */
function levelKey(price: Amount): string {
  return formatDecimal(stripTrailingZeros(price));
}

function parseSide(levels: BookPicture['bids']): BookLevel[] | null {
  const parsed: BookLevel[] = [];
  for (const level of levels) {
    const one = parseLevel(level);
    if (!one) return null;
    parsed.push(one);
  }
  return parsed;
}

const bestFirst: Record<BookSide, (a: BookLevel, b: BookLevel) => number> = {
  bid: (a, b) => compare(b.priceAmount, a.priceAmount),
  ask: (a, b) => compare(a.priceAmount, b.priceAmount),
};

export class OrderBookState {
  private readonly sides: Record<BookSide, Map<string, BookLevel>> = { bid: new Map(), ask: new Map() };
  private currentSequence: number | null = null;
  private currentTimestamp: number | null = null;

  /** The market sequence of the picture, or null before the first snapshot. */
  get sequence(): number | null {
    return this.currentSequence;
  }

  get timestamp(): number | null {
    return this.currentTimestamp;
  }

  /** Replaces the whole picture. False (and nothing changed) when a level is unreadable. */
  replace(picture: BookPicture): boolean {
    const bids = parseSide(picture.bids);
    const asks = parseSide(picture.asks);
    if (!bids || !asks) return false;
    this.sides.bid = new Map(
      bids.filter((level) => !isZero(level.quantityAmount)).map((level) => [levelKey(level.priceAmount), level]),
    );
    this.sides.ask = new Map(
      asks.filter((level) => !isZero(level.quantityAmount)).map((level) => [levelKey(level.priceAmount), level]),
    );
    this.currentSequence = picture.sequence;
    this.currentTimestamp = picture.timestamp;
    return true;
  }

  /**
   * A delta [price, new total] per changed level ('0' removes), for the picture at prev_sequence.
   * The server's sequence counts every command of the market, not only those that move the book,
   * so an HTTP snapshot taken at S may sit between a delta's prev_sequence and its sequence: the
   * delta applies whenever prev_sequence <= S < sequence.
   */
  applyDelta(delta: BookDelta): DeltaResult {
    if (this.currentSequence === null) return 'gap';
    if (delta.sequence <= this.currentSequence) return 'stale';
    if (delta.prev_sequence > this.currentSequence) return 'gap';
    const bids = parseSide(delta.bids);
    const asks = parseSide(delta.asks);
    if (!bids || !asks) return 'invalid';
    this.applyLevels(this.sides.bid, bids);
    this.applyLevels(this.sides.ask, asks);
    this.currentSequence = delta.sequence;
    this.currentTimestamp = delta.timestamp;
    return 'applied';
  }

  /** The side's levels, best first (bids high to low, asks low to high), compared exactly. */
  levels(side: BookSide): BookLevel[] {
    return [...this.sides[side].values()].sort(bestFirst[side]);
  }

  clear(): void {
    this.sides.bid = new Map();
    this.sides.ask = new Map();
    this.currentSequence = null;
    this.currentTimestamp = null;
  }

  private applyLevels(side: Map<string, BookLevel>, levels: readonly BookLevel[]): void {
    for (const level of levels) {
      const key = levelKey(level.priceAmount);
      if (isZero(level.quantityAmount)) side.delete(key);
      else side.set(key, level);
    }
  }
}
