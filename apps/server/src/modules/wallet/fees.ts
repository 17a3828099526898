import type { WithdrawalFeeEstimate } from '@platform/contracts';
import { DEFAULT_WITHDRAWAL_MINIMUM } from '@platform/contracts';
import { unwrap } from '../../lib/errors.ts';
import {
  minimumWithdrawal,
  parseCurrency,
  parseWalletAmount,
  unitsText,
  WALLET_CURRENCIES,
  withdrawalFee,
} from './rules.ts';

/**
 * The wallet's fee and minimum calls (§7.3). Today they answer the §9 schedule, which is also what
 * the client falls back to when they fail (§7.8); a configured payment provider's own quotes take
 * their place when the provider adapters land.
 */
export function withdrawalFeeEstimate(currencyInput: string, amountInput: string): WithdrawalFeeEstimate {
  const currency = unwrap(parseCurrency(currencyInput));
  const units = unwrap(parseWalletAmount(amountInput, currency));
  const { fee, total } = withdrawalFee(units, currency);
  return {
    currency,
    amount: unitsText(units, currency),
    fee: unitsText(fee, currency),
    total_amount: unitsText(total, currency),
  };
}

/** Deposits through the sandbox cost nothing on our side: what is paid arrives. */
export function depositEstimate(currencyInput: string, amountInput: string) {
  const currency = unwrap(parseCurrency(currencyInput));
  const amount = unitsText(unwrap(parseWalletAmount(amountInput, currency)), currency);
  return { currency, amount, estimated_amount: amount, fee: '0', total: amount };
}

export function minimumAmounts() {
  return {
    minimums: Object.fromEntries(WALLET_CURRENCIES.map((currency) => [currency, minimumWithdrawal(currency)])),
    default: DEFAULT_WITHDRAWAL_MINIMUM,
  };
}
