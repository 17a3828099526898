import { decimal, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { candidateRoutes, checkMinimum, type MarketView, priceConversion, usdPrice, usdValue } from './pricing.ts';

const text = (value: ReturnType<typeof decimal> | undefined) =>
  value === undefined ? undefined : formatDecimal(value, { trimZeros: true });

const NOW_MS = 1_700_000_000_000;
/** The freshness every test prices with: two minutes, as the server's default. */
const FRESH = { nowMs: NOW_MS, maxAgeMs: 120_000 };

/** A market view over fixed pairs and reference prices, each confirmed `ageMs[pair]` ago (default now). */
function view(
  pairs: string[],
  references: Record<string, string> = {},
  ageMs: Record<string, number> = {},
): MarketView {
  const known = new Set(pairs);
  return {
    pair: (id: string) => {
      if (!known.has(id)) return undefined;
      const [base = '', quote = ''] = id.split('_');
      return { id, base, quote };
    },
    reference: (id: string) => {
      const price = references[id];
      return price === undefined ? undefined : { price: decimal(price), timestampMs: NOW_MS - (ageMs[id] ?? 0) };
    },
  };
}

const PAIRS = ['BTC_USD', 'ETH_USD', 'ETH_BTC', 'ADA_USD', 'DOT_USD', 'USDT_USD'];

describe('routes', () => {
  const markets = view(PAIRS);

  it('takes the direct market in either direction, else goes through USD', () => {
    expect(candidateRoutes(markets, 'BTC', 'USD')[0]).toEqual([
      { pairId: 'BTC_USD', side: 'sell', from: 'BTC', to: 'USD' },
    ]);
    expect(candidateRoutes(markets, 'BTC', 'ETH')[0]).toEqual([
      { pairId: 'ETH_BTC', side: 'buy', from: 'BTC', to: 'ETH' },
    ]);
    expect(candidateRoutes(markets, 'ADA', 'DOT')).toEqual([
      [
        { pairId: 'ADA_USD', side: 'sell', from: 'ADA', to: 'USD' },
        { pairId: 'DOT_USD', side: 'buy', from: 'USD', to: 'DOT' },
      ],
    ]);
    expect(candidateRoutes(markets, 'ADA', 'XYZ')).toEqual([]);
    expect(candidateRoutes(markets, 'BTC', 'BTC')).toEqual([]);
  });
});

describe('pricing a conversion at the reference price', () => {
  it('buys at the reference, rounds the gross down to the target decimals and keeps a 0.5 % spread rounded up', () => {
    const markets = view(PAIRS, { ETH_USD: '2500' });
    // 5,262 USD / 2,500 = 2.1048 ETH; the spread 0.010524 ETH; ETH has 8 decimals.
    const price = priceConversion(markets, 'USD', 'ETH', 526_200n, FRESH);
    expect(price).toMatchObject({
      ok: true,
      value: {
        grossUnits: 210_480_000n,
        spreadUnits: 1_052_400n,
        toUnits: 209_427_600n,
        priceSource: 'reference',
        route: ['USD', 'ETH'],
      },
    });
    if (price.ok) expect(price.value.grossUnits).toBe(price.value.spreadUnits + price.value.toUnits);
  });

  it('sells at the reference, and the rate is what is received per unit after the spread', () => {
    const markets = view(PAIRS, { BTC_USD: '50000.00' });
    expect(priceConversion(markets, 'BTC', 'USD', 10_000_000n, FRESH)).toMatchObject({
      ok: true,
      value: { grossUnits: 500_000n, spreadUnits: 2_500n, toUnits: 497_500n, priceSource: 'reference', rate: '49750' },
    });
  });

  it('goes through USD in two legs when no market joins the currencies', () => {
    const markets = view(PAIRS, { ADA_USD: '0.5', DOT_USD: '5' });
    const price = priceConversion(markets, 'ADA', 'DOT', 100_000_000n, FRESH);
    // 100 ADA -> 50 USD -> 10 DOT; DOT has 4 decimals.
    expect(price).toMatchObject({
      ok: true,
      value: { grossUnits: 100_000n, spreadUnits: 500n, toUnits: 99_500n, route: ['ADA', 'USD', 'DOT'] },
    });
  });

  it('refuses dust, an unknown route and a pair with no price at all', () => {
    const markets = view(PAIRS, { BTC_USD: '20000000' });
    // 0.01 USD buys 0.0000000005 BTC: nothing at 8 decimals.
    expect(priceConversion(markets, 'USD', 'BTC', 1n, FRESH)).toMatchObject({
      ok: false,
      code: 'AMOUNT_BELOW_MINIMUM',
    });
    expect(priceConversion(markets, 'BTC', 'XYZ', 1n, FRESH)).toMatchObject({
      ok: false,
      code: 'CONVERSION_NOT_SUPPORTED',
    });
    expect(priceConversion(markets, 'ETH', 'USD', 100_000_000n, FRESH)).toMatchObject({
      ok: false,
      code: 'PRICE_UNAVAILABLE',
    });
  });

  it('refuses a result beyond what the ledger holds', () => {
    const markets = view(PAIRS, { BTC_USD: '50000' });
    expect(priceConversion(markets, 'BTC', 'USD', 10n ** 27n, FRESH)).toMatchObject({
      ok: false,
      code: 'INVALID_AMOUNT',
    });
  });
});

describe('a stale reference', () => {
  it('is quoted from up to the limit, and refused one millisecond past it with PRICE_STALE', () => {
    const edge = view(PAIRS, { BTC_USD: '50000' }, { BTC_USD: 120_000 });
    expect(priceConversion(edge, 'BTC', 'USD', 10_000_000n, FRESH)).toMatchObject({ ok: true });
    const stale = view(PAIRS, { BTC_USD: '50000' }, { BTC_USD: 120_001 });
    expect(priceConversion(stale, 'BTC', 'USD', 10_000_000n, FRESH)).toMatchObject({
      ok: false,
      code: 'PRICE_STALE',
      details: { pair: 'BTC_USD', age_seconds: 120, max_age_seconds: 120 },
    });
  });

  it('takes the other route when it is fresh, and refuses when one leg of the only route is stale', () => {
    // ETH_BTC is stale, the legs through USD are fresh: priced through USD.
    const cross = view(PAIRS, { ETH_BTC: '0.05', BTC_USD: '50000', ETH_USD: '2500' }, { ETH_BTC: 600_000 });
    expect(priceConversion(cross, 'BTC', 'ETH', 10_000_000n, FRESH)).toMatchObject({
      ok: true,
      value: { route: ['BTC', 'USD', 'ETH'], grossUnits: 200_000_000n },
    });
    const oneLeg = view(PAIRS, { ADA_USD: '0.5', DOT_USD: '5' }, { DOT_USD: 300_000 });
    expect(priceConversion(oneLeg, 'ADA', 'DOT', 100_000_000n, FRESH)).toMatchObject({
      ok: false,
      code: 'PRICE_STALE',
      details: { pair: 'DOT_USD' },
    });
  });
});

describe('USD values: the minimum and the exposure limits', () => {
  it('value a currency at its reference, else at the catalogue price; never at a book', () => {
    const markets = view(PAIRS, { BTC_USD: '50000' });
    expect(text(usdPrice(markets, 'USD'))).toBe('1');
    expect(text(usdPrice(markets, 'BTC'))).toBe('50000');
    expect(text(usdPrice(markets, 'DOT'))).toBe('7.2');
    // 0.00000333 BTC x 50,000 = 0.1665 USD, counted as 0.17 (rounded up, in the house's favour).
    expect(text(usdValue(markets, 'BTC', 333n))).toBe('0.17');
    expect(text(usdValue(markets, 'USD', 12_345n))).toBe('123.45');
  });

  it('the minimum is about 1 USD', () => {
    const markets = view(PAIRS, { BTC_USD: '50000' });
    expect(checkMinimum(markets, 'BTC', 2_000n)).toMatchObject({ ok: true });
    expect(checkMinimum(markets, 'BTC', 1_999n)).toMatchObject({
      ok: false,
      code: 'AMOUNT_BELOW_MINIMUM',
      message: 'Minimum conversion amount is 0.00002 BTC',
    });
    expect(checkMinimum(markets, 'USD', 99n)).toMatchObject({
      ok: false,
      message: 'Minimum conversion amount is 1 USD',
    });
  });
});
