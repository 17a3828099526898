import type { FuturesPosition } from '@platform/contracts';
import { type Amount, div, formatDecimal, isZero, mul, negate, sub, toScale } from '@platform/money';
import { toAmount } from '../../lib/format.ts';

/**
 * A position seen at a new mark price, between the server's own updates: notional, unrealised P&L
 * and ROE follow the mark exactly (the server's figures replace them with its next update).
 * Linear perpetual: P&L = size x (mark - entry) for a long, size x (entry - mark) for a short;
 * ROE = P&L / (size x entry / leverage).
 */
const MONEY_SCALE = 8;

const text = (value: Amount, scale = MONEY_SCALE) => formatDecimal(toScale(value, scale, 'half_up'));

export function revalueAtMark(position: FuturesPosition, markPrice: string): FuturesPosition {
  const mark = toAmount(markPrice);
  const size = toAmount(position.size);
  const entry = toAmount(position.entry_price);
  if (!mark || !size || !entry) return position;
  const perUnit = position.side === 'long' ? sub(mark, entry) : negate(sub(mark, entry));
  const pnl = mul(size, perUnit);
  const initialMargin = div(
    mul(size, entry),
    { units: BigInt(Math.max(1, position.leverage)), scale: 0 },
    12,
    'half_up',
  );
  const roe = isZero(initialMargin) ? position.roe : text(div(pnl, initialMargin, 8, 'half_up'));
  return {
    ...position,
    mark_price: markPrice,
    notional: text(mul(size, mark)),
    unrealised_pnl: text(pnl),
    roe,
  };
}

/** Positions of one market move with its mark; the others stay as they were. */
export function revalueMarket(positions: readonly FuturesPosition[], market: string, markPrice: string) {
  return positions.map((position) => (position.market === market ? revalueAtMark(position, markPrice) : position));
}

/** The risk band of a margin ratio (maintenance / margin balance; liquidation at 1). */
export type RiskLevel = 'low' | 'medium' | 'high';

export function riskLevel(marginRatio: string): RiskLevel {
  const ratio = toAmount(marginRatio);
  if (!ratio) return 'low';
  const percent = toScale(mul(ratio, { units: 100n, scale: 0 }), 0, 'floor').units;
  if (percent >= 80n) return 'high';
  if (percent >= 50n) return 'medium';
  return 'low';
}

/** The bar's width in percent, for drawing only (0..100). */
export function ratioWidthPercent(marginRatio: string): number {
  const ratio = toAmount(marginRatio);
  if (!ratio) return 0;
  const percent = Number(formatDecimal(toScale(mul(ratio, { units: 100n, scale: 0 }), 1, 'half_up')));
  return Math.min(100, Math.max(0, percent));
}
