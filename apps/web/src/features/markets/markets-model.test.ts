import type { TradingPair } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { type LivePair, toLivePair } from '../market-data/index.ts';
import { computeOverview, filterMarkets, nextSort, sortMarkets } from './markets-model.ts';

function live(id: string, price: string | null, change: string | null, volume: string | null = '10'): LivePair {
  const [base = '', quote = ''] = id.split('_');
  const pair: TradingPair = {
    id,
    base_currency: base,
    quote_currency: quote,
    symbol: `${base}/${quote}`,
    min_trade_amount: '0.001',
    max_trade_amount: '1000',
    price_precision: 2,
    quantity_precision: 6,
    trading_fee: '0.1',
    maker_fee: '0.1',
    taker_fee: '0.1',
    is_active: true,
    is_enabled_by_admin: true,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    supported_by_provider: false,
    current_price: price,
    volume_24h: volume,
    change_24h: change,
  };
  return toLivePair(pair, undefined);
}

const pairs = [
  live('BTC_USD', '67000.5', '-2.5', '100'),
  live('ETH_USD', '3400', '1.25', '1000'),
  live('DOGE_USD', '0.12', '12', '1000000'),
  live('USDT_USD', '1.0001', '0', '5000000'),
  live('ETH_BTC', '0.05', '3', '20'),
  live('NEW_USD', null, null, null),
];
const ids = (list: readonly LivePair[]) => list.map((pair) => pair.id);

describe('markets model', () => {
  it('filters by quote, category, search and favourites', () => {
    expect(ids(filterMarkets(pairs, { quote: 'BTC', category: 'all', search: '' }))).toEqual(['ETH_BTC']);
    expect(ids(filterMarkets(pairs, { quote: 'USD', category: 'meme', search: '' }))).toEqual(['DOGE_USD']);
    expect(ids(filterMarkets(pairs, { quote: 'USD', category: 'stable', search: '' }))).toEqual(['USDT_USD']);
    expect(ids(filterMarkets(pairs, { quote: 'USD', category: 'all', search: 'bitc' }))).toEqual(['BTC_USD']);
    expect(ids(filterMarkets(pairs, { quote: 'USD', category: 'all', search: 'eth/usd' }))).toEqual(['ETH_USD']);
    const favourites = new Set(['ETH_USD']);
    expect(
      ids(filterMarkets(pairs, { quote: 'USD', category: 'all', search: '', favouritesOnly: true, favourites })),
    ).toEqual(['ETH_USD']);
  });

  it('sorts exactly, with missing values last in both directions', () => {
    const usd = pairs.filter((pair) => pair.quoteCurrency === 'USD');
    expect(ids(sortMarkets(usd, { column: 'price', direction: 'desc' }))).toEqual([
      'BTC_USD',
      'ETH_USD',
      'USDT_USD',
      'DOGE_USD',
      'NEW_USD',
    ]);
    expect(ids(sortMarkets(usd, { column: 'price', direction: 'asc' })).at(-1)).toBe('NEW_USD');
    expect(ids(sortMarkets(usd, { column: 'change', direction: 'asc' }))[0]).toBe('BTC_USD');
    expect(ids(sortMarkets(usd, { column: 'volume', direction: 'desc' }))[0]).toBe('BTC_USD');
    expect(ids(sortMarkets(usd, { column: 'pair', direction: 'asc' }))[0]).toBe('BTC_USD');
    const caps = new Map([
      ['ETH', '400000000000'],
      ['BTC', '1300000000000'],
    ]);
    expect(ids(sortMarkets(usd, { column: 'marketCap', direction: 'desc' }, caps)).slice(0, 2)).toEqual([
      'BTC_USD',
      'ETH_USD',
    ]);
  });

  it('flips the sorted column and starts others in their natural direction', () => {
    expect(nextSort({ column: 'price', direction: 'desc' }, 'price')).toEqual({ column: 'price', direction: 'asc' });
    expect(nextSort({ column: 'price', direction: 'desc' }, 'pair')).toEqual({ column: 'pair', direction: 'asc' });
    expect(nextSort({ column: 'pair', direction: 'asc' }, 'volume')).toEqual({ column: 'volume', direction: 'desc' });
  });

  it('computes the overview in dollars: volume converted through the quote, gainers and losers', () => {
    const overview = computeOverview(pairs);
    // 100 x 67000.5 + 1000 x 3400 + 1e6 x 0.12 + 5e6 x 1.0001 + 20 x 0.05 x 67000.5 (ETH_BTC in BTC, then USD)
    expect(overview.totalVolumeUsd).toBe('15287550.50');
    expect(overview.marketCount).toBe(6);
    expect(ids(overview.gainers)).toEqual(['DOGE_USD', 'ETH_USD']);
    expect(ids(overview.losers)).toEqual(['BTC_USD']);
    expect(ids(overview.trending)).toEqual(['BTC_USD', 'USDT_USD', 'ETH_USD', 'DOGE_USD']);
    expect(overview.advancing).toBe(2);
    expect(overview.declining).toBe(1);
  });
});
