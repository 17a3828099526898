import {
  decimalMagnitude,
  LIGHTNING_CRYPTO_CURRENCY,
  powerOfTenString,
  REFERENCE_PRICES_USD,
  type ServerMessageKey,
} from '@platform/contracts';
import { compare, decimal } from '@platform/money';
import { fail, failWithText, ok, type Result } from '../../lib/errors.ts';
import { currencyDecimals, parseCurrency, parseWalletAmount, unitsText } from '../wallet/rules.ts';

/**
 * Input rules of money coming in through the provider (checkout deposits, payments, Lightning):
 * the wallet's amount rules (§5 'Amount must be greater than zero', §9 decimals per currency) and
 * a floor and ceiling per currency, the ones the facade's supported-currency list states: about one
 * dollar's worth at least (no provider takes dust) and ten million dollars' worth at most.
 */

/** The ceiling is ten million dollars' worth (10^7): above any real deposit, below what a provider refuses. */
const MAXIMUM_USD_MAGNITUDE = 7;

export function checkoutLimits(currency: string): { minimum: string; maximum: string } {
  const magnitude = decimalMagnitude(REFERENCE_PRICES_USD[currency] ?? '1');
  const decimals = currencyDecimals(currency);
  return {
    minimum: powerOfTenString(Math.max(-magnitude, -decimals)),
    maximum: powerOfTenString(MAXIMUM_USD_MAGNITUDE - magnitude),
  };
}

/** The texts of the checkout limits per kind of checkout (docs/i18n.md "Server texts"). */
const CHECKOUT_TEXTS = {
  deposit: { minimum: 'depositMinimum', maximum: 'depositMaximum' },
  purchase: { minimum: 'purchaseMinimum', maximum: 'purchaseMaximum' },
  payment: { minimum: 'paymentMinimum', maximum: 'paymentMaximum' },
  'Lightning payment': { minimum: 'lightningMinimum', maximum: 'lightningMaximum' },
} as const satisfies Record<string, { minimum: ServerMessageKey; maximum: ServerMessageKey }>;
export type CheckoutNoun = keyof typeof CHECKOUT_TEXTS;

/** A checkout amount as canonical text, or the §5-worded failure. */
export function parseCheckoutAmount(
  input: string | number,
  currency: string,
  noun: CheckoutNoun = 'deposit',
): Result<string> {
  const units = parseWalletAmount(input, currency);
  if (!units.ok) return units;
  const amount = unitsText(units.value, currency);
  const { minimum, maximum } = checkoutLimits(currency);
  if (compare(decimal(amount), decimal(minimum)) < 0) {
    return failWithText(
      'AMOUNT_BELOW_MINIMUM',
      CHECKOUT_TEXTS[noun].minimum,
      { minimum, currency },
      {
        field: 'amount',
        minimum,
      },
    );
  }
  if (compare(decimal(amount), decimal(maximum)) > 0) {
    return failWithText(
      'INVALID_AMOUNT',
      CHECKOUT_TEXTS[noun].maximum,
      { maximum, currency },
      {
        field: 'amount',
        maximum,
      },
    );
  }
  return ok(amount);
}

/**
 * The crypto a facade payment is paid in: the one asked for (never USD, which has no chain), else
 * the order currency itself, else (a USD order) none: the payer picks one at the checkout.
 */
export function parsePayCurrency(input: string | undefined, orderCurrency: string): Result<string | null> {
  if (input === undefined || input.trim() === '') return ok(orderCurrency === 'USD' ? null : orderCurrency);
  const payCurrency = parseCurrency(input);
  if (!payCurrency.ok) return payCurrency;
  if (payCurrency.value === 'USD') {
    return fail('CURRENCY_NOT_SUPPORTED', {
      message: 'Currency USD is not supported',
      details: { field: 'crypto_currency' },
    });
  }
  return payCurrency;
}

/** POST /payment/{id}/select takes Lightning (LNBC) only. */
export function parseSelectedCrypto(input: string): Result<typeof LIGHTNING_CRYPTO_CURRENCY> {
  const wanted = input.trim().toUpperCase();
  if (wanted === LIGHTNING_CRYPTO_CURRENCY) return ok(LIGHTNING_CRYPTO_CURRENCY);
  return fail('CURRENCY_NOT_SUPPORTED', {
    message: `Currency ${wanted || input} is not supported`,
    details: { field: 'crypto_currency', supported: [LIGHTNING_CRYPTO_CURRENCY] },
  });
}
