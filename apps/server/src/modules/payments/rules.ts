import { decimalMagnitude, powerOfTenString, REFERENCE_PRICES_USD } from '@platform/contracts';
import { compare, decimal } from '@platform/money';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { currencyDecimals, parseWalletAmount, unitsText } from '../wallet/rules.ts';

/**
 * Input rules of money coming in through the provider (checkout deposits, payments, Lightning):
 * the wallet's amount rules (§5 'Amount must be greater than zero', §9 decimals per currency) and
 * a floor and ceiling per currency, the ones the facade's supported-currency list states: about one
 * dollar's worth at least (no provider takes dust) and ten million dollars' worth at most.
 */

export function checkoutLimits(currency: string): { minimum: string; maximum: string } {
  const magnitude = decimalMagnitude(REFERENCE_PRICES_USD[currency] ?? '1');
  const decimals = currencyDecimals(currency);
  return { minimum: powerOfTenString(Math.max(-magnitude, -decimals)), maximum: powerOfTenString(7 - magnitude) };
}

/** A checkout amount as canonical text, or the §5-worded failure. */
export function parseCheckoutAmount(input: string | number, currency: string, noun = 'deposit'): Result<string> {
  const units = parseWalletAmount(input, currency);
  if (!units.ok) return units;
  const amount = unitsText(units.value, currency);
  const { minimum, maximum } = checkoutLimits(currency);
  if (compare(decimal(amount), decimal(minimum)) < 0) {
    return fail('AMOUNT_BELOW_MINIMUM', {
      message: `Minimum ${noun} amount is ${minimum} ${currency}`,
      details: { field: 'amount', minimum },
    });
  }
  if (compare(decimal(amount), decimal(maximum)) > 0) {
    return fail('INVALID_AMOUNT', {
      message: `Maximum ${noun} amount is ${maximum} ${currency}`,
      details: { field: 'amount', maximum },
    });
  }
  return ok(amount);
}
