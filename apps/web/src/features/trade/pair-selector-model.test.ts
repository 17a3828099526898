import { describe, expect, it } from 'vitest';
import { FAVOURITES_TAB, filterPairs, quoteTabs, valueTradedOrder } from './pair-selector-model.ts';

const pair = (base: string, quote: string) => ({ id: `${base}_${quote}`, baseCurrency: base, quoteCurrency: quote });
const pairs = [
  pair('BTC', 'USD'),
  pair('ETH', 'USD'),
  pair('USDT', 'USD'),
  pair('SOL', 'USDT'),
  pair('ETH', 'BTC'),
  pair('LINK', 'ETH'),
  pair('BTC', 'EUR'),
];
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe('pair selector model (spec §2.6)', () => {
  it('makes quote tabs from the pairs, the usual ones first', () => {
    expect(quoteTabs(pairs)).toEqual(['USD', 'USDT', 'BTC', 'ETH', 'EUR']);
  });

  it("filters a tab by symbol or coin name, the symbol's matches first", () => {
    expect(ids(filterPairs(pairs, 'USD', '', []))).toEqual(['BTC_USD', 'ETH_USD', 'USDT_USD']);
    expect(ids(filterPairs(pairs, 'USD', 'eth', []))).toEqual(['ETH_USD', 'USDT_USD']);
    expect(ids(filterPairs(pairs, 'USD', 'bitcoin', []))).toEqual(['BTC_USD']);
    expect(ids(filterPairs(pairs, 'BTC', 'eth/btc', []))).toEqual(['ETH_BTC']);
    expect(ids(filterPairs(pairs, 'USD', 'zzz', []))).toEqual([]);
  });

  it('lists the favourites in the order the user keeps them, across quotes', () => {
    expect(ids(filterPairs(pairs, FAVOURITES_TAB, '', ['LINK_ETH', 'BTC_USD', 'GONE_USD']))).toEqual([
      'LINK_ETH',
      'BTC_USD',
    ]);
    expect(ids(filterPairs(pairs, FAVOURITES_TAB, 'btc', ['LINK_ETH', 'BTC_USD']))).toEqual(['BTC_USD']);
  });

  it('opens a quote tab on its busiest markets; favourites keep their order', () => {
    const order = valueTradedOrder([
      { id: 'USDT_USD', quoteVolume24h: '5000000.00' },
      { id: 'ETH_USD', quoteVolume24h: '900000000.00' },
      { id: 'BTC_USD', quoteVolume24h: '24000000000.00' },
      { id: 'SOL_USDT', quoteVolume24h: null },
      { id: 'ETH_BTC', quoteVolume24h: '10.5' },
    ]);
    expect(ids(filterPairs(pairs, 'USD', '', [], order))).toEqual(['BTC_USD', 'ETH_USD', 'USDT_USD']);
    // A search ranks by match first, then by value traded.
    expect(ids(filterPairs(pairs, 'USD', 'usd', [], order))).toEqual(['USDT_USD']);
    expect(ids(filterPairs(pairs, FAVOURITES_TAB, '', ['USDT_USD', 'BTC_USD'], order))).toEqual([
      'USDT_USD',
      'BTC_USD',
    ]);
    // Exact decimals, not text: 900,000,000 is less than 24,000,000,000.
    expect(order.get('BTC_USD')).toBe(0);
    expect(order.get('SOL_USDT')).toBe(4);
  });
});
