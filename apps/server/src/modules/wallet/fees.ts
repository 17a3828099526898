import type { WithdrawalFeeEstimate, WithdrawalNetwork } from '@platform/contracts';
import { DEFAULT_WITHDRAWAL_MINIMUM, WITHDRAWAL_FEE_BPS } from '@platform/contracts';
import { type Amount, parseDecimal, toScale } from '@platform/money';
import type { PaymentGateway, PaymentProvider } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { ok, type Result } from '../../lib/errors.ts';
import {
  currencyDecimals,
  minimumWithdrawal,
  parseCurrency,
  parseNetwork,
  parseWalletAmount,
  unitsText,
  WALLET_CURRENCIES,
  withdrawalFee,
} from './rules.ts';

/**
 * The wallet's fee and minimum quotes (§7.3), shared by the estimate calls and the withdrawals
 * themselves, so a withdrawal applies exactly the numbers its estimate showed. The payment provider
 * is asked first (payoutFee, minimumPayout, estimate); when it fails, takes too long or has no
 * answer, the §9 schedule applies, which is also what the client falls back to (§7.8). A failure
 * is logged, never shown to the caller.
 */

/** Longest wait for a provider's quote before the §9 default is used: a quote must not hold up a form. */
export const PROVIDER_QUOTE_TIMEOUT_MS = 3_000;
/** Minimums change rarely; the minimum-amounts call would otherwise ask once per currency each time. */
const MINIMUM_CACHE_MS = 60_000;
/** Provider amounts read: as long as the ledger's, with room for a provider's extra decimals. */
const PROVIDER_AMOUNT_LIMITS = { allowNegative: false, maxScale: 30, maxIntegerDigits: 20 } as const;

export type QuoteSource = 'provider' | 'default';

/** What the quotes are made with: the payment gateway, and the log and clock of the server. */
export type FeeContext = Pick<AppContext, 'log' | 'clock'> & { gateway: PaymentGateway };

/**
 * The configured provider, read at call time (tests swap it). Never null since the composition root
 * builds the gateway before its users; the callers' checks for null can go.
 */
export function providerOrNull(context: Pick<FeeContext, 'gateway'>): PaymentProvider | null {
  return context.gateway.provider;
}

/** The provider's answer, or undefined when it failed or took longer than PROVIDER_QUOTE_TIMEOUT_MS. */
async function askProvider<T>(
  context: FeeContext,
  what: string,
  details: Record<string, string>,
  call: (provider: PaymentProvider) => Promise<T>,
  onFailure?: (error: unknown) => void,
): Promise<T | undefined> {
  const provider = providerOrNull(context);
  if (provider === null) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${PROVIDER_QUOTE_TIMEOUT_MS} ms`)),
      PROVIDER_QUOTE_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call(provider), timeout]);
  } catch (error) {
    if (onFailure) onFailure(error);
    else
      context.log.warn(
        { err: error, provider: provider.name, ...details },
        `payment provider ${what} failed; using the §9 default`,
      );
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** A provider's decimal text, or null (logged) when it is not a non-negative decimal. */
function providerAmount(context: FeeContext, what: string, text: string): Amount | null {
  const parsed = parseDecimal(String(text).trim(), PROVIDER_AMOUNT_LIMITS);
  if (parsed.ok) return parsed.value;
  context.log.warn(
    { answer: text },
    `payment provider ${what} answered something that is not an amount; using the §9 default`,
  );
  return null;
}

/** Units of the currency's last decimal, rounded up (a fee or a floor never shrinks by rounding). */
function unitsUp(value: Amount, currency: string): bigint {
  return toScale(value, currencyDecimals(currency), 'up').units;
}

type MinimumCacheEntry = { units: bigint; source: QuoteSource; expiresAtMs: number };
const minimumCaches = new WeakMap<PaymentProvider, Map<string, MinimumCacheEntry>>();

/**
 * The smallest withdrawal of a currency in its units: the provider's minimumPayout when it answers,
 * else §9's ('Minimum withdrawal amount is {min} {X}').
 */
export async function withdrawalMinimum(
  context: FeeContext,
  currency: string,
  onFailure?: (error: unknown) => void,
  network?: WithdrawalNetwork,
): Promise<{ units: bigint; text: string; source: QuoteSource }> {
  // A network other than the currency's default has its own minimum (the provider's is per currency).
  if (network && !network.is_default) {
    const units = unitsUp(parseAmountConstant(network.minimum), currency);
    return { units, text: unitsText(units, currency), source: 'default' };
  }
  const provider = providerOrNull(context);
  const nowMs = context.clock().getTime();
  const cache = provider === null ? undefined : minimumCaches.get(provider);
  const cached = cache?.get(currency);
  if (cached !== undefined && cached.expiresAtMs > nowMs) {
    return { units: cached.units, text: unitsText(cached.units, currency), source: cached.source };
  }
  const answer = await askProvider(context, 'minimumPayout', { currency }, (p) => p.minimumPayout(currency), onFailure);
  const fromProvider =
    answer === undefined || answer === null ? null : providerAmount(context, 'minimumPayout', answer);
  const units = unitsUp(fromProvider ?? parseAmountConstant(minimumWithdrawal(currency)), currency);
  const source: QuoteSource = fromProvider === null ? 'default' : 'provider';
  // Only answers are kept: a failing provider is asked again next time.
  if (provider !== null && answer !== undefined) {
    const entries = minimumCaches.get(provider) ?? new Map<string, MinimumCacheEntry>();
    entries.set(currency, { units, source, expiresAtMs: nowMs + MINIMUM_CACHE_MS });
    minimumCaches.set(provider, entries);
  }
  return { units, text: unitsText(units, currency), source };
}

function parseAmountConstant(text: string): Amount {
  const parsed = parseDecimal(text, PROVIDER_AMOUNT_LIMITS);
  if (!parsed.ok) throw new Error(`not a decimal constant: ${text}`);
  return parsed.value;
}

/**
 * What a withdrawal of `units` costs: the provider's payoutFee when it answers (rounded up to the
 * currency's decimals), else §9's (the larger of the base fee and 0.1 %). The user pays amount + fee.
 */
export async function withdrawalFeeQuote(
  context: FeeContext,
  currency: string,
  units: bigint,
  network?: WithdrawalNetwork,
): Promise<{ fee: bigint; total: bigint; source: QuoteSource }> {
  // A network other than the default: its base fee, or 0.1 % when larger (the §9 rule, per network).
  if (network && !network.is_default) {
    const base = unitsUp(parseAmountConstant(network.fee), currency);
    const proportional = (units * BigInt(WITHDRAWAL_FEE_BPS) + 9_999n) / 10_000n;
    const fee = proportional > base ? proportional : base;
    return { fee, total: units + fee, source: 'default' };
  }
  const amount = unitsText(units, currency);
  const answer = await askProvider(context, 'payoutFee', { currency, amount }, (p) => p.payoutFee(currency, amount));
  const fromProvider = answer === undefined || answer === null ? null : providerAmount(context, 'payoutFee', answer);
  if (fromProvider === null) return { ...withdrawalFee(units, currency), source: 'default' };
  const fee = unitsUp(fromProvider, currency);
  return { fee, total: units + fee, source: 'provider' };
}

/** GET /api/v1/wallet/withdrawal-fee-estimate (and /withdrawal-fee): §3.5's fee estimate. */
export async function withdrawalFeeEstimate(
  context: FeeContext,
  currencyInput: string,
  amountInput: string,
  networkInput?: string,
): Promise<Result<WithdrawalFeeEstimate>> {
  const parsed = parseFeeQuery(currencyInput, amountInput);
  if (!parsed.ok) return parsed;
  const { currency, units } = parsed.value;
  const chosen = parseNetwork(networkInput, currency);
  if (!chosen.ok) return chosen;
  const { fee, total } = await withdrawalFeeQuote(context, currency, units, chosen.value);
  return ok({
    currency,
    amount: unitsText(units, currency),
    fee: unitsText(fee, currency),
    total_amount: unitsText(total, currency),
  });
}

/** The currency and amount a fee or estimate is asked about. */
function parseFeeQuery(currencyInput: string, amountInput: string): Result<{ currency: string; units: bigint }> {
  const currency = parseCurrency(currencyInput);
  if (!currency.ok) return currency;
  const units = parseWalletAmount(amountInput, currency.value);
  if (!units.ok) return units;
  return ok({ currency: currency.value, units: units.value });
}

/**
 * GET /api/v1/wallet/deposit-estimate: what arrives on the balance for a deposit of `amount`. The
 * provider's estimate of `amount` of the currency into the same currency is what reaches us after
 * its own costs; we charge nothing on top (§9: crypto deposits are free). Without an answer, what is
 * paid arrives.
 */
export async function depositEstimate(
  context: FeeContext,
  currencyInput: string,
  amountInput: string,
): Promise<Result<{ currency: string; amount: string; estimated_amount: string; fee: string; total: string }>> {
  const parsed = parseFeeQuery(currencyInput, amountInput);
  if (!parsed.ok) return parsed;
  const { currency, units } = parsed.value;
  const amount = unitsText(units, currency);
  const answer = await askProvider(context, 'estimate', { currency, amount }, (p) =>
    p.estimate(amount, currency, currency),
  );
  const fromProvider = answer === undefined || answer === null ? null : providerAmount(context, 'estimate', answer);
  // What arrives is rounded down to what the wallet can hold; a provider "estimate" above the
  // amount paid is not believed.
  let arrives = fromProvider === null ? units : toScale(fromProvider, currencyDecimals(currency), 'down').units;
  if (arrives > units) arrives = units;
  return ok({
    currency,
    amount,
    estimated_amount: unitsText(arrives, currency),
    fee: unitsText(units - arrives, currency),
    total: amount,
  });
}

/** GET /api/v1/wallet/minimum-amounts: the smallest withdrawal per wallet currency, the provider's when it says. */
export async function minimumAmounts(context: FeeContext) {
  // One line in the log for a provider that fails them all, not one per currency.
  const failed: string[] = [];
  let firstError: unknown;
  const minimums = await Promise.all(
    WALLET_CURRENCIES.map(async (currency) => {
      const minimum = await withdrawalMinimum(context, currency, (error) => {
        failed.push(currency);
        firstError ??= error;
      });
      return [currency, minimum.text] as const;
    }),
  );
  if (failed.length > 0) {
    context.log.warn(
      { err: firstError, currencies: failed },
      'payment provider minimumPayout failed; using the §9 minimums',
    );
  }
  return { minimums: Object.fromEntries(minimums), default: DEFAULT_WITHDRAWAL_MINIMUM };
}
