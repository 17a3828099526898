import type { TradingPair, WalletBalance } from '@platform/contracts';
import { type Amount, add, formatDecimal, isZero, lt, mul } from '@platform/money';
import { formatBalance, isDollarQuote, toAmount } from '../../lib/format.ts';

/** The wallet's balances as the screens show them (spec §3.5, §5: 2 decimals, 8 for BTC). */

export interface BalanceRow {
  currency: string;
  available: string;
  locked: string;
  /** available + locked, exact. */
  total: string;
}

/** available + locked as an exact decimal string; an unreadable part counts as missing ('—' later). */
export function balanceTotal(balance: WalletBalance): string {
  const available = toAmount(balance.available);
  const locked = toAmount(balance.locked);
  if (!available || !locked) return '';
  return formatDecimal(add(available, locked));
}

export function isZeroBalance(balance: WalletBalance): boolean {
  const available = toAmount(balance.available);
  const locked = toAmount(balance.locked);
  return available !== null && locked !== null && isZero(available) && isZero(locked);
}

/** Settings > Preferences "Hide small balances": what counts as small, in US dollars. */
export interface SmallBalanceRule {
  /** US-dollar price per currency (upper case), from usdPrices. */
  usdPrices: ReadonlyMap<string, Amount>;
  /** Under this value (exclusive) a balance is small. */
  thresholdUsd: Amount;
}

const ONE_DOLLAR: Amount = { units: 1n, scale: 0 };

/**
 * The dollar price of every currency the pairs list can value: a pair quoted in US dollars first,
 * else one quoted in a dollar stablecoin; the dollar and its stablecoins are worth one dollar when
 * no pair says otherwise.
 */
export function usdPrices(pairs: readonly TradingPair[]): Map<string, Amount> {
  const prices = new Map<string, Amount>([['USD', ONE_DOLLAR]]);
  const byQuote = [...pairs].sort((a, b) => Number(b.quote_currency === 'USD') - Number(a.quote_currency === 'USD'));
  for (const pair of byQuote) {
    const base = pair.base_currency.toUpperCase();
    const price = toAmount(pair.current_price);
    if (!pair.is_active || !price || !isDollarQuote(pair.quote_currency) || prices.has(base)) continue;
    prices.set(base, price);
  }
  for (const pair of pairs) {
    for (const currency of [pair.base_currency, pair.quote_currency].map((code) => code.toUpperCase())) {
      if (isDollarQuote(currency) && !prices.has(currency)) prices.set(currency, ONE_DOLLAR);
    }
  }
  return prices;
}

/**
 * True when the balance (available + locked) is worth less than the threshold. A currency with
 * no dollar price is never small, unless it is zero: nothing of value is hidden on a guess.
 */
export function isSmallBalance(balance: WalletBalance, rule: SmallBalanceRule): boolean {
  if (isZeroBalance(balance)) return true;
  const total = toAmount(balanceTotal(balance));
  const price = rule.usdPrices.get(balance.currency.toUpperCase());
  if (!total || !price) return false;
  return lt(mul(total, price), rule.thresholdUsd);
}

export function balanceRows(
  balances: readonly WalletBalance[],
  options: { hideZero: boolean; small?: SmallBalanceRule | null },
): BalanceRow[] {
  const { small } = options;
  return balances
    .filter((balance) => !options.hideZero || !isZeroBalance(balance))
    .filter((balance) => !small || !isSmallBalance(balance, small))
    .map((balance) => ({
      currency: balance.currency.toUpperCase(),
      available: balance.available,
      locked: balance.locked,
      total: balanceTotal(balance),
    }));
}

export interface FormattedBalance {
  currency: string;
  total: string;
  available: string;
  locked: string;
  hasLocked: boolean;
  /** The exact total, for a tooltip where the display rounds it down. */
  exactTotal: string;
}

export function formatBalanceRow(row: BalanceRow): FormattedBalance {
  const locked = toAmount(row.locked);
  return {
    currency: row.currency,
    total: formatBalance(row.total, row.currency),
    available: formatBalance(row.available, row.currency),
    locked: formatBalance(row.locked, row.currency),
    hasLocked: locked !== null && !isZero(locked),
    exactTotal: row.total,
  };
}

/** The top bar's list (spec §2.3): non-zero balances only (and not small ones when so chosen), formatted. */
export function balanceMenuItems(
  balances: readonly WalletBalance[],
  small: SmallBalanceRule | null = null,
): FormattedBalance[] {
  return balanceRows(balances, { hideZero: true, small }).map(formatBalanceRow);
}

/** Available balance per upper-case currency, for the send form's balance check. */
export function availableByCurrency(balances: readonly WalletBalance[]): Map<string, string> {
  return new Map(balances.map((balance) => [balance.currency.toUpperCase(), balance.available]));
}
