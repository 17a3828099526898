import {
  COINS,
  DEFAULT_WITHDRAWAL_BASE_FEE,
  decimalMagnitude,
  type ProviderPriceQuote,
  powerOfTenString,
  providerPriceQuoteSchema,
  REFERENCE_PRICES_USD,
  type SupportedCurrency,
  supportedCurrencySchema,
  tradingPairSchema,
  WITHDRAWAL_BASE_FEES,
} from '@platform/contracts';
import { formatDecimal } from '@platform/money';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { EncodedCache, EncodedSnapshot, SLOW_CACHE_CONTROL, sendEncoded } from '../../http/encoded-body.ts';
import { fail, ok, type Result, unwrap } from '../../lib/errors.ts';
import { errorResponses } from '../auth/index.ts';
import type { MarketFeed, MarketSnapshots } from '../markets/index.ts';
import { PAIR_NOT_FOUND } from '../markets/service.ts';
import { encodeChecked, VersionedBodies } from '../markets/snapshots.ts';

/** Longest currency code in a path: listed codes are a few characters; longer is never one. */
const MAX_CURRENCY_LENGTH = 20;

/** The payment provider's path segment (spec §7.4: /v1/{payment-provider}). */
export const PROVIDER_PREFIX = '/v1/triple-a';
const tags = ['payment-provider'];

/** Spec §9 withdrawal base fees per currency (the wallet's schedule); other currencies pay the default. */
const PROCESSING_FEES = WITHDRAWAL_BASE_FEES;
const DEFAULT_PROCESSING_FEE = DEFAULT_WITHDRAWAL_BASE_FEE;

/** Spec §9 mock currency USD: min 1, max 1,000,000, fee 0.5. */
const USD_CURRENCY: SupportedCurrency = {
  currency_code: 'USD',
  currency_name: 'US Dollar',
  currency_type: 'fiat',
  network: null,
  min_amount: '1',
  max_amount: '1000000',
  processing_fee: '0.5',
  is_active: true,
  logo_url: null,
};

export function supportedCurrencies(): SupportedCurrency[] {
  const crypto = COINS.map((coin): SupportedCurrency => {
    const magnitude = decimalMagnitude(REFERENCE_PRICES_USD[coin.symbol] ?? '1');
    // About one dollar's worth at minimum, ten million dollars' worth at most.
    return {
      currency_code: coin.code,
      currency_name: coin.name,
      currency_type: 'crypto',
      network: coin.network,
      min_amount: powerOfTenString(-magnitude),
      max_amount: powerOfTenString(7 - magnitude),
      processing_fee: PROCESSING_FEES[coin.symbol] ?? DEFAULT_PROCESSING_FEE,
      is_active: coin.isEnabled,
      logo_url: null,
    };
  });
  return [...crypto, USD_CURRENCY];
}

function quoteOf(feed: MarketFeed | undefined, pairId: string, nowMs: number): Result<ProviderPriceQuote> {
  const stats = feed?.stats(pairId);
  if (!stats) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
  return ok({
    base_currency: pairId.split('_')[0] ?? '',
    quote_currency: pairId.split('_')[1] ?? '',
    price: formatDecimal(stats.price),
    timestamp: new Date(stats.timestampMs || nowMs).toISOString(),
    volume_24h: formatDecimal(stats.volume24h),
    change_24h: formatDecimal(stats.change24h),
    change_percent_24h: formatDecimal(stats.changePercent24h),
  });
}

/** Spec §5: the built-in quote for a lookup with no usable currency, from the reference prices. */
function builtInQuote(base: string, quote: string, nowMs: number): ProviderPriceQuote {
  const baseCurrency = isMissing(base) ? 'BTC' : base;
  const quoteCurrency = isMissing(quote) ? 'USD' : quote;
  return {
    base_currency: baseCurrency,
    quote_currency: quoteCurrency,
    price: quoteCurrency === 'USD' ? (REFERENCE_PRICES_USD[baseCurrency] ?? REFERENCE_PRICES_USD.BTC ?? '0') : '0',
    timestamp: new Date(nowMs).toISOString(),
    volume_24h: '0',
    change_24h: '0',
    change_percent_24h: '0',
  };
}

const isMissing = (value: string) => ['', 'undefined', 'null'].includes(value.trim().toLowerCase());

const supportedCurrenciesSchema = z.array(supportedCurrencySchema);
const tradingPairsSchema = z.array(tradingPairSchema);
const priceQuotesSchema = z.array(providerPriceQuoteSchema);

/**
 * The facade's reads as bodies encoded once per change: the currencies never change while the
 * server runs, the pairs and quotes follow the markets' versions (markets/snapshots.ts).
 */
function providerSnapshots(snapshots: MarketSnapshots, feed: MarketFeed, clock: () => Date) {
  const currencies = new EncodedSnapshot(() => supportedCurrenciesSchema.parse(supportedCurrencies()));
  const prices = new EncodedCache<'usd'>(1);
  const quotes = new VersionedBodies();
  return {
    currencies: () => currencies.get(),
    prices: () =>
      prices.get('usd', snapshots.allVersion(), () => {
        const nowMs = clock().getTime();
        const usdPairs = snapshots.pairs.all().filter((pair) => pair.quote_currency === 'USD');
        return priceQuotesSchema.parse(
          usdPairs.flatMap((pair) => {
            const found = quoteOf(feed, pair.id, nowMs);
            return found.ok ? [found.value] : [];
          }),
        );
      }),
    /** Unknown pairs are refused before the cache, so it holds catalogued pairs only. */
    quote: (pairId: string) => {
      const known = snapshots.pairs.find(pairId);
      if (!known.ok || known.value.id !== pairId) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
      return quotes.get(pairId, snapshots.pairVersion(pairId), () => {
        const found = quoteOf(feed, pairId, clock().getTime());
        return found.ok ? ok(encodeChecked(providerPriceQuoteSchema, found.value)) : found;
      });
    },
  };
}

/** Payment-provider facade, market-data part (spec §7.4): currencies, pairs and prices. */
export function providerModule(
  scope: FastifyInstance,
  context: AppContext,
  markets: { feed: MarketFeed; snapshots: MarketSnapshots },
): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { clock, log } = context;
  const { snapshots } = markets;
  const bodies = providerSnapshots(snapshots, markets.feed, clock);

  app.get(
    `${PROVIDER_PREFIX}/currencies/supported`,
    {
      schema: { tags, summary: 'Currencies the provider accepts', response: { 200: supportedCurrenciesSchema } },
    },
    async (request, reply) => sendEncoded(request, reply, bodies.currencies(), SLOW_CACHE_CONTROL),
  );

  app.get(
    `${PROVIDER_PREFIX}/trading-pairs/supported`,
    { schema: { tags, summary: 'Every trading pair', response: { 200: tradingPairsSchema } } },
    async (request, reply) => sendEncoded(request, reply, snapshots.tradingPairs()),
  );

  app.get(
    `${PROVIDER_PREFIX}/trading-pairs/active`,
    { schema: { tags, summary: 'Trading pairs open for trading', response: { 200: tradingPairsSchema } } },
    async (request, reply) => sendEncoded(request, reply, snapshots.tradingPairs(true)),
  );

  app.get(
    `${PROVIDER_PREFIX}/prices`,
    {
      schema: {
        tags,
        summary: 'Quotes of every coin against USD',
        response: { 200: priceQuotesSchema },
      },
    },
    async (request, reply) => sendEncoded(request, reply, bodies.prices()),
  );

  app.get(
    `${PROVIDER_PREFIX}/price/:base/:quote`,
    {
      schema: {
        tags,
        summary: 'Quote of one pair',
        params: z.object({ base: z.string().max(MAX_CURRENCY_LENGTH), quote: z.string().max(MAX_CURRENCY_LENGTH) }),
        response: { 200: providerPriceQuoteSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { base, quote } = request.params;
      if (isMissing(base) || isMissing(quote)) {
        log.error({ base, quote }, 'price quote asked without a base or quote currency; answering the built-in quote');
        // Stamped with the time of asking, so never cached: a misconfigured caller, not a hot path.
        return builtInQuote(base.toUpperCase(), quote.toUpperCase(), clock().getTime());
      }
      const pairId = `${base.toUpperCase()}_${quote.toUpperCase()}`;
      return sendEncoded(request, reply, unwrap(bodies.quote(pairId)));
    },
  );
}
