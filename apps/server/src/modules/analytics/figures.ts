import { ANALYTICS_PERCENT_SCALE, type AnalyticsTrade } from '@platform/contracts';
import {
  type Amount,
  add,
  div,
  formatDecimal,
  gt,
  isNegative,
  isPositive,
  lt,
  mul,
  negate,
  parseDecimal,
  zero,
} from '@platform/money';

/**
 * The pure figures of trading analytics over a list of closed trades (docs/analytics.md): counts,
 * win rate, averages, profit factor, best and worst. USD stays exact (Amount); only ratios and
 * averages round, half to even.
 */

/** USD averages are given to the futures money's and the lots' unit, 10^-8 USD. */
export const USD_AVERAGE_SCALE = 8;
const HUNDRED: Amount = { units: 100n, scale: 0 };
export const ZERO_USD: Amount = zero(0);

/** A closed trade: a spot disposal (all its lot rows) or a futures fill that realised P&L. */
export type ClosedTrade = {
  product: 'spot' | 'futures';
  asset: string;
  timeMs: number;
  pnl: Amount;
};

/** An exact signed decimal text (the money parser reads magnitudes only). */
export function signedAmount(text: string): Amount {
  const negative = text.startsWith('-');
  const parsed = parseDecimal(negative ? text.slice(1) : text, { maxScale: 36, maxIntegerDigits: 40 });
  if (!parsed.ok) throw new Error(`not a decimal: ${text}`);
  return negative ? negate(parsed.value) : parsed.value;
}

export const usdText = (value: Amount) => formatDecimal(value, { trimZeros: true });

/** a / b to the percent scale (b > 0 or b < 0), half to even; null over zero. */
export function ratio(a: Amount, b: Amount, times: Amount = { units: 1n, scale: 0 }): string | null {
  if (b.units === 0n) return null;
  return usdText(div(mul(a, times), b, ANALYTICS_PERCENT_SCALE, 'half_even'));
}

export const percent = (part: Amount, whole: Amount) => ratio(part, whole, HUNDRED);

export type TradeFigures = {
  closed_trades: number;
  winning_trades: number;
  losing_trades: number;
  win_rate_percent: string | null;
  average_win: string | null;
  average_loss: string | null;
  profit_factor: string | null;
  gross_wins: string;
  gross_losses: string;
  best_trade: AnalyticsTrade | null;
  worst_trade: AnalyticsTrade | null;
};

const tradeView = (trade: ClosedTrade): AnalyticsTrade => ({
  product: trade.product,
  asset: trade.asset,
  time: new Date(trade.timeMs).toISOString(),
  pnl: usdText(trade.pnl),
});

const average = (total: Amount, count: number) =>
  count === 0 ? null : usdText(div(total, { units: BigInt(count), scale: 0 }, USD_AVERAGE_SCALE, 'half_even'));

/**
 * A win has P&L above zero, a loss below; a trade at exactly zero counts as closed but neither.
 * Win rate = wins / closed trades; profit factor = gross wins / gross losses (null without a loss);
 * best and worst: the highest and lowest P&L, the earliest of equals.
 */
export function tradeFigures(trades: readonly ClosedTrade[]): TradeFigures {
  let wins = 0;
  let losses = 0;
  let grossWins = ZERO_USD;
  let grossLosses = ZERO_USD;
  let best: ClosedTrade | null = null;
  let worst: ClosedTrade | null = null;
  for (const trade of trades) {
    if (isPositive(trade.pnl)) {
      wins++;
      grossWins = add(grossWins, trade.pnl);
    } else if (isNegative(trade.pnl)) {
      losses++;
      grossLosses = add(grossLosses, negate(trade.pnl));
    }
    if (best === null || gt(trade.pnl, best.pnl)) best = trade;
    if (worst === null || lt(trade.pnl, worst.pnl)) worst = trade;
  }
  const count = { units: BigInt(trades.length), scale: 0 };
  return {
    closed_trades: trades.length,
    winning_trades: wins,
    losing_trades: losses,
    win_rate_percent: percent({ units: BigInt(wins), scale: 0 }, count),
    average_win: average(grossWins, wins),
    average_loss: average(negate(grossLosses), losses),
    profit_factor: ratio(grossWins, grossLosses),
    gross_wins: usdText(grossWins),
    gross_losses: usdText(grossLosses),
    best_trade: best === null ? null : tradeView(best),
    worst_trade: worst === null ? null : tradeView(worst),
  };
}

/** Sums of amounts under string keys, in first-seen order. */
export class Totals {
  readonly sums = new Map<string, Amount>();
  add(key: string, value: Amount): void {
    this.sums.set(key, add(this.sums.get(key) ?? ZERO_USD, value));
  }
}

/** The UTC date of a time, YYYY-MM-DD. */
export const utcDate = (timeMs: number) => new Date(timeMs).toISOString().slice(0, 10);
