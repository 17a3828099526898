import { decimal, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import {
  type BookLevel,
  type BookSides,
  candidateRoutes,
  checkMinimum,
  type MarketView,
  priceConversion,
  usdPrice,
  walkAsks,
  walkBids,
} from './pricing.ts';

const level = (price: string, quantity: string): BookLevel => [decimal(price), decimal(quantity)];
const text = (value: ReturnType<typeof decimal> | undefined) =>
  value === undefined ? undefined : formatDecimal(value, { trimZeros: true });

/** A market view over fixed pairs, books and reference prices. */
function view(
  pairs: string[],
  books: Record<string, BookSides> = {},
  references: Record<string, string> = {},
): MarketView {
  const known = new Set(pairs);
  return {
    pair: (id) => {
      if (!known.has(id)) return undefined;
      const [base = '', quote = ''] = id.split('_');
      return { id, base, quote };
    },
    book: (id) => (known.has(id) ? (books[id] ?? { bids: [], asks: [] }) : undefined),
    reference: (id) => (references[id] === undefined ? undefined : decimal(references[id])),
  };
}

const PAIRS = ['BTC_USD', 'ETH_USD', 'ETH_BTC', 'ADA_USD', 'DOT_USD', 'USDT_USD'];

describe('walking the book', () => {
  const bids = [level('100', '1'), level('99', '2'), level('98', '5')];
  const asks = [level('101', '1'), level('102', '2'), level('103', '5')];

  it('sells into the bids level by level, and says so when the book is too thin', () => {
    expect(text(walkBids(bids, decimal('1')))).toBe('100');
    expect(text(walkBids(bids, decimal('2.5')))).toBe('248.5');
    expect(text(walkBids(bids, decimal('8')))).toBe('788');
    expect(walkBids(bids, decimal('8.01'))).toBeUndefined();
    expect(walkBids([], decimal('1'))).toBeUndefined();
  });

  it('buys from the asks level by level, the last level partly and rounded down', () => {
    expect(text(walkAsks(asks, decimal('101')))).toBe('1');
    // 101 for the first, 204 for two more, 1 buys 1/103 = 0.009708737864077669 (rounded down).
    expect(text(walkAsks(asks, decimal('306')))).toBe('3.009708737864077669');
    expect(walkAsks(asks, decimal('821'))).toBeUndefined();
  });
});

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

describe('pricing a conversion', () => {
  it('walks the book, rounds the gross down to the target decimals and keeps a 0.5 % spread rounded up', () => {
    const markets = view(PAIRS, {
      ETH_USD: { bids: [], asks: [level('2500', '1'), level('2510', '1'), level('2520', '2')] },
    });
    const price = priceConversion(markets, 'USD', 'ETH', 526_200n);
    expect(price).toMatchObject({ ok: true });
    if (!price.ok) return;
    // 2500 + 2510 buy 2 ETH; 252 more buy 0.1 at 2520: 2.1 ETH; the spread 0.0105 ETH.
    expect(price.value).toMatchObject({
      grossUnits: 210_000_000n,
      spreadUnits: 1_050_000n,
      toUnits: 208_950_000n,
      priceSource: 'order_book',
      route: ['USD', 'ETH'],
    });
    expect(price.value.grossUnits).toBe(price.value.spreadUnits + price.value.toUnits);
  });

  it('falls back to the reference price when the book cannot fill the amount', () => {
    const markets = view(PAIRS, { BTC_USD: { bids: [level('50000', '0.01')], asks: [] } }, { BTC_USD: '50000.00' });
    const price = priceConversion(markets, 'BTC', 'USD', 10_000_000n);
    expect(price).toMatchObject({
      ok: true,
      value: { grossUnits: 500_000n, spreadUnits: 2_500n, toUnits: 497_500n, priceSource: 'reference', rate: '49750' },
    });
  });

  it('goes through USD in two legs, and reports the reference when any leg used it', () => {
    const markets = view(
      PAIRS,
      { ADA_USD: { bids: [level('0.5', '1000')], asks: [] } },
      { ADA_USD: '0.5', DOT_USD: '5' },
    );
    const price = priceConversion(markets, 'ADA', 'DOT', 100_000_000n);
    // 100 ADA -> 50 USD (book) -> 10 DOT (reference); DOT has 4 decimals.
    expect(price).toMatchObject({
      ok: true,
      value: { grossUnits: 100_000n, spreadUnits: 500n, toUnits: 99_500n, priceSource: 'reference' },
    });
    if (price.ok) expect(price.value.route).toEqual(['ADA', 'USD', 'DOT']);
  });

  it('refuses dust, an unknown route and a pair with no price at all', () => {
    const markets = view(PAIRS, {}, { BTC_USD: '20000000' });
    // 0.01 USD buys 0.0000000005 BTC: nothing at 8 decimals.
    expect(priceConversion(markets, 'USD', 'BTC', 1n)).toMatchObject({ ok: false, code: 'AMOUNT_BELOW_MINIMUM' });
    expect(priceConversion(markets, 'BTC', 'XYZ', 1n)).toMatchObject({ ok: false, code: 'CONVERSION_NOT_SUPPORTED' });
    expect(priceConversion(markets, 'ETH', 'USD', 100_000_000n)).toMatchObject({
      ok: false,
      code: 'PRICE_UNAVAILABLE',
    });
  });

  it('refuses a result beyond what the ledger holds', () => {
    const markets = view(PAIRS, {}, { BTC_USD: '50000' });
    expect(priceConversion(markets, 'BTC', 'USD', 10n ** 27n)).toMatchObject({ ok: false, code: 'INVALID_AMOUNT' });
  });
});

describe('the minimum', () => {
  it('is about 1 USD at the reference, the book middle, or the catalogue price', () => {
    const markets = view(
      PAIRS,
      { ETH_USD: { bids: [level('2000', '1')], asks: [level('2002', '1')] } },
      {
        BTC_USD: '50000',
      },
    );
    expect(text(usdPrice(markets, 'USD'))).toBe('1');
    expect(text(usdPrice(markets, 'BTC'))).toBe('50000');
    expect(text(usdPrice(markets, 'ETH'))).toBe('2001');
    expect(text(usdPrice(markets, 'DOT'))).toBe('7.2');
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
