import { type PayoutItem, REFERENCE_PRICES_USD, type WithdrawalNetwork } from '@platform/contracts';
import { type Amount, decimal, formatDecimal, isPositive, mul, parseDecimal } from '@platform/money';
import { fail, failWithText, ok, type Result } from '../../lib/errors.ts';
import { latestPriceUpdate } from '../markets/index.ts';
import { withdrawalFeeQuote, withdrawalMinimum } from '../wallet/fees.ts';
import { parseCurrency, parseWalletAmount, unitsText } from '../wallet/rules.ts';
import type { WithdrawalDeps } from './deps.ts';
import { parseAddress, parseExtraId, parseNetwork } from './rules.ts';

// The rules one withdrawal is held to before anything is written.

/** Amount text read from a request: 20 digits before the point, extra decimals only to name the rule broken. */
export const AMOUNT_LIMITS = { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 } as const;
/** A fiat amount is stored as given for the caller's records: 18 decimals and 20 digits fit any currency. */
const FIAT_AMOUNT_LIMITS = { allowNegative: false, maxScale: 18, maxIntegerDigits: 20 } as const;

/** One withdrawal as requested (the single call's body, or one §3.5 payout item). */
export type ItemInput = Pick<PayoutItem, 'currency' | 'amount' | 'address' | 'extra_id' | 'network'> &
  Partial<
    Pick<PayoutItem, 'ipn_callback_url' | 'payout_description' | 'unique_external_id' | 'fiat_amount' | 'fiat_currency'>
  >;

/** A withdrawal that passed every rule, with its fee and USD worth. */
export type PreparedItem = {
  currency: string;
  amount: string;
  fee: string;
  total: string;
  address: string;
  extraId: string | null;
  /** Stored only for a currency on several networks. */
  network: string | null;
  usdValue: Amount;
  payoutDescription: string | null;
  uniqueExternalId: string | null;
  ipnCallbackUrl: string | null;
  fiatAmount: string | null;
  fiatCurrency: string | null;
};

/** The result, with the item's position in a mass payout added to a failure's details. */
function at<T>(result: Result<T>, index: number | null): Result<T> {
  if (result.ok || index === null) return result;
  const details = typeof result.details === 'object' && result.details !== null ? result.details : {};
  return { ...result, details: { ...details, index } };
}

function invalid(field: string, message: string, index: number | null) {
  return fail('VALIDATION_ERROR', { message, details: { field, ...(index === null ? {} : { index }) } });
}

export function optionalText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** The amount's first rules, before the currency is known: a decimal number, greater than zero. */
function checkAmountShape(input: string | number): Result<void> {
  const amountText = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  const parsed = amountText === '' ? null : parseDecimal(amountText, AMOUNT_LIMITS);
  if (parsed === null || !parsed.ok) {
    return fail('INVALID_AMOUNT', { details: { field: 'amount', reason: 'not a decimal number' } });
  }
  if (!isPositive(parsed.value)) return fail('AMOUNT_NOT_POSITIVE', { details: { field: 'amount' } });
  return ok(undefined);
}

/**
 * The §5 and §9 rules, in the order the client checks them: the amount is a number greater than
 * zero, the currency is supported (any case), the amount has no more decimals than the currency,
 * it is at least the minimum (the provider's or §9's), the address has at least 10 characters and
 * the currency's format, the destination tag is valid. Then the fee (the provider's or §9's) and
 * the USD worth at the reference price. A failure in a mass payout names its item's index.
 */
export async function prepareItem(
  deps: WithdrawalDeps,
  input: ItemInput,
  index: number | null,
): Promise<Result<PreparedItem>> {
  const shape = checkAmountShape(input.amount);
  if (!shape.ok) return at(shape, index);
  const currency = parseCurrency(input.currency);
  if (!currency.ok) return at(currency, index);
  const network = parseNetwork(input.network, currency.value);
  if (!network.ok) return at(network, index);
  const units = parseWalletAmount(input.amount, currency.value);
  if (!units.ok) return at(units, index);
  const minimum = await withdrawalMinimum(deps, currency.value, undefined, network.value);
  if (units.value < minimum.units) {
    const message = `Minimum withdrawal amount is ${minimum.text} ${currency.value}`;
    return at(fail('AMOUNT_BELOW_MINIMUM', { message, details: { field: 'amount', minimum: minimum.text } }), index);
  }
  const address = parseAddress(input.address, currency.value, network.value);
  if (!address.ok) return at(address, index);
  const extraId = parseExtraId(input.extra_id, currency.value);
  if (!extraId.ok) return at(extraId, index);
  const fiatAmount = parseFiatAmount(input.fiat_amount, index);
  if (!fiatAmount.ok) return fiatAmount;
  const ipnCallbackUrl = parseCallbackUrl(input.ipn_callback_url, index);
  if (!ipnCallbackUrl.ok) return ipnCallbackUrl;
  const checked = { currency: currency.value, network: network.value, units: units.value };
  const priced = await pricedItem(deps, checked);
  if (!priced.ok) return priced;
  return ok({
    ...priced.value,
    address: address.value,
    extraId: extraId.value,
    payoutDescription: optionalText(input.payout_description),
    uniqueExternalId: optionalText(input.unique_external_id),
    ipnCallbackUrl: ipnCallbackUrl.value,
    fiatAmount: fiatAmount.value,
    fiatCurrency: optionalText(input.fiat_currency)?.toUpperCase() ?? null,
  });
}

/** The fee (the provider's or §9's) and the USD worth of a checked amount. */
async function pricedItem(
  deps: WithdrawalDeps,
  { currency, network, units }: { currency: string; network: WithdrawalNetwork | undefined; units: bigint },
): Promise<Result<Pick<PreparedItem, 'currency' | 'network' | 'amount' | 'fee' | 'total' | 'usdValue'>>> {
  const { fee, total } = await withdrawalFeeQuote(deps, currency, units, network);
  const amount = unitsText(units, currency);
  const price = usdPrice(deps, currency);
  if (!price.ok) return price;
  return ok({
    currency,
    network: network?.network ?? null,
    amount,
    fee: unitsText(fee, currency),
    total: unitsText(total, currency),
    usdValue: mul(decimal(amount), price.value),
  });
}

function parseFiatAmount(input: string | number | null | undefined, index: number | null): Result<string | null> {
  if (input === undefined || input === null || String(input).trim() === '') return ok(null);
  const parsed = parseDecimal(String(input).trim(), FIAT_AMOUNT_LIMITS);
  if (!parsed.ok) return invalid('fiat_amount', 'Invalid fiat amount', index);
  return ok(formatDecimal(parsed.value, { trimZeros: true }));
}

/** Stored as given, never called (docs/withdrawals.md); still, only a plain http(s) URL is kept. */
function parseCallbackUrl(input: string | null | undefined, index: number | null): Result<string | null> {
  const text = optionalText(input);
  if (text === null) return ok(null);
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return invalid('ipn_callback_url', 'Invalid callback URL', index);
  }
  return ok(text);
}

/**
 * The USD price of a currency now: the running market feed's, else the last published price of
 * its USD pair, else the catalogue's reference price (the same order of sources the markets use).
 */
export function usdPrice(deps: Pick<WithdrawalDeps, 'feed' | 'pubsub'>, currency: string): Result<Amount> {
  if (currency === 'USD') return ok({ units: 1n, scale: 0 });
  const fromFeed = deps.feed.usdPrice(currency);
  if (fromFeed !== undefined && isPositive(fromFeed)) return ok(fromFeed);
  const published = latestPriceUpdate(deps.pubsub, `${currency}_USD`)?.price;
  const fromPubSub = published === undefined ? null : parseDecimal(String(published), AMOUNT_LIMITS);
  if (fromPubSub?.ok && isPositive(fromPubSub.value)) return ok(fromPubSub.value);
  const reference = REFERENCE_PRICES_USD[currency];
  if (reference !== undefined) return ok(decimal(reference));
  return failWithText('PRICE_UNAVAILABLE', 'noUsdPrice', { currency });
}
