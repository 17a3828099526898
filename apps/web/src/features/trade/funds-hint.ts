import { add, compare, decimal, isZero } from '@platform/money';
import { toAmount } from '../../lib/format.ts';
import type { OrderSummary } from './order-form.ts';

/**
 * Whether the trader lacks the funds for the side they chose (issue 13: the newcomer on BTC/USD
 * with no USD): nothing of the currency the order spends, or less than the order as typed needs
 * (a buy spends its total and fee in the quote currency, a sell its quantity of the base).
 * Unknown balances (signed out, not loaded) are not a lack.
 */
export function lacksFunds(preview: OrderSummary, side: 'buy' | 'sell'): boolean {
  const available = toAmount(preview.available);
  if (available === null) return false;
  if (isZero(available)) return true;
  const total = toAmount(preview.total);
  const fee = toAmount(preview.fee) ?? decimal('0');
  const spend = side === 'buy' ? (total ? add(total, fee) : null) : toAmount(preview.quantity);
  return spend !== null && compare(spend, available) > 0;
}
