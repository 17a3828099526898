import { compare, isPositive, parseDecimal } from '@platform/money';
import { toAmount } from '../../../lib/format.ts';

/** USD moves between the wallets in cents. */
export const TRANSFER_DECIMALS = 2;

export type TransferProblem = 'invalid' | 'tooMuch' | null;

/** What is wrong with an amount to transfer, given what may move now. */
export function transferProblem(amount: string, transferable: string | null): TransferProblem {
  const parsed = parseDecimal(amount.trim(), { maxScale: TRANSFER_DECIMALS });
  if (!parsed.ok || !isPositive(parsed.value)) return 'invalid';
  const limit = transferable ? toAmount(transferable) : null;
  if (limit && compare(parsed.value, limit) > 0) return 'tooMuch';
  return null;
}
