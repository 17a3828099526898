import { formatDecimal, isNegative, stripTrailingZeros } from '@platform/money';
import { formatDate, formatTime } from '../../lib/date-format.ts';
import { groupThousands, MISSING_VALUE, toAmount } from '../../lib/format.ts';

/** The wallet histories as the screen shows them. */

/** Spec §4 wallet and transaction statuses; a transfer's four statuses fall into them. */
export type WalletStatus = 'pending' | 'completed' | 'failed';

export function transferWalletStatus(status: string): WalletStatus {
  if (status === 'FINISHED') return 'completed';
  if (status === 'REJECTED') return 'failed';
  return 'pending';
}

/**
 * A movement, exact and signed: '+1,250.5', '-0.000001'. History amounts are not cut to the
 * balance display's decimals (§5): a history must show what really moved, to the last unit.
 */
export function formatSignedAmount(value: string): string {
  const amount = toAmount(value);
  if (!amount) return MISSING_VALUE;
  const text = groupThousands(formatDecimal(stripTrailingZeros(amount)));
  return isNegative(amount) || amount.units === 0n ? text : `+${text}`;
}

/** An unsigned exact amount: '1,250.5'. */
export function formatExactAmount(value: string): string {
  const amount = toAmount(value);
  return amount ? groupThousands(formatDecimal(stripTrailingZeros(amount))) : MISSING_VALUE;
}

export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, limit)));
}

/** References are ids: the first characters tell them apart on screen; the whole one is in the title. */
export const REFERENCE_SHOWN_CHARS = 8;

export function shortReference(reference: string): string {
  return reference.length > REFERENCE_SHOWN_CHARS ? `${reference.slice(0, REFERENCE_SHOWN_CHARS)}…` : reference;
}

/** The date and the time of an ISO instant, written as every screen writes them (lib/date-format). */
export function formatDateTime(iso: string): { date: string; time: string } {
  const date = formatDate(iso);
  if (date === MISSING_VALUE) return { date, time: '' };
  return { date, time: formatTime(iso) };
}
