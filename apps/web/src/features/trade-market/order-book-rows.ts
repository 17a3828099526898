import { type Amount, max as larger } from '@platform/money';
import { formatQuantity, formatTickPrice, formatTickPriceFull } from '../../lib/number-format.ts';
import {
  type BookLevel,
  type BookSide,
  bookSpread,
  depthFraction,
  type GroupedLevel,
  groupLevels,
  type OrderBookPicture,
  type Spread,
} from '../market-data/index.ts';

/** One row of the order book as drawn. */
export interface BookRow {
  side: BookSide;
  /** The exact group price, as a form would take it ('67202.73'). */
  price: string;
  /** As drawn: tiny prices in subscript-zero notation, large quantities shortened ('2.38T'). */
  priceText: string;
  amountText: string;
  totalText: string;
  /** Every digit written, for the row's label (screen readers) and title. */
  priceFull: string;
  amountFull: string;
  totalFull: string;
  /** The row's depth bar, 0 to 1 of the deepest cumulative total shown on either side. */
  depth: number;
}

export interface BookRows {
  asks: BookRow[];
  bids: BookRow[];
  spread: Spread | null;
}

function toRows(levels: readonly GroupedLevel[], side: BookSide, max: Amount, quantityScale: number): BookRow[] {
  return levels.map((level) => ({
    side,
    price: level.price,
    priceText: formatTickPrice(level.priceAmount, level.priceAmount.scale),
    amountText: formatQuantity(level.quantity, quantityScale, { compact: true }),
    totalText: formatQuantity(level.total, quantityScale, { compact: true }),
    priceFull: formatTickPriceFull(level.priceAmount, level.priceAmount.scale),
    amountFull: formatQuantity(level.quantity, quantityScale),
    totalFull: formatQuantity(level.total, quantityScale),
    depth: depthFraction(level.total, max),
  }));
}

function deeper(a: Amount | undefined, b: Amount | undefined): Amount {
  if (!a) return b ?? { units: 0n, scale: 0 };
  return b ? larger(a, b) : a;
}

/**
 * Rows of both sides, best first, grouped by `step`, `limit` a side; depth bars on one scale so the
 * two sides compare. The spread is of the real best prices, not of the grouped ones.
 */
export function buildBookRows(
  picture: Pick<OrderBookPicture, 'bids' | 'asks'>,
  step: Amount,
  limit: number,
  quantityScale: number,
): BookRows {
  const bids = groupLevels(picture.bids, 'bid', step, limit);
  const asks = groupLevels(picture.asks, 'ask', step, limit);
  const max = deeper(bids[bids.length - 1]?.total, asks[asks.length - 1]?.total);
  const best = (levels: readonly BookLevel[]) => levels[0]?.priceAmount;
  return {
    bids: toRows(bids, 'bid', max, quantityScale),
    asks: toRows(asks, 'ask', max, quantityScale),
    spread: bookSpread(best(picture.bids), best(picture.asks)),
  };
}
