import type { WalletBalance } from '@platform/contracts';
import { add, formatDecimal, isZero } from '@platform/money';
import { formatBalance, toAmount } from '../../lib/format.ts';

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

export function balanceRows(balances: readonly WalletBalance[], options: { hideZero: boolean }): BalanceRow[] {
  return balances
    .filter((balance) => !options.hideZero || !isZeroBalance(balance))
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

/** The top bar's list (spec §2.3): non-zero balances only, formatted. */
export function balanceMenuItems(balances: readonly WalletBalance[]): FormattedBalance[] {
  return balanceRows(balances, { hideZero: true }).map(formatBalanceRow);
}

/** Available balance per upper-case currency, for the send form's balance check. */
export function availableByCurrency(balances: readonly WalletBalance[]): Map<string, string> {
  return new Map(balances.map((balance) => [balance.currency.toUpperCase(), balance.available]));
}
