import { describe, expect, it } from 'vitest';
import { carriedSide, resolvePairId, searchWithPair } from './trade-route.ts';

const known = new Set(['BTC_USD', 'ETH_USD', 'ETH_BTC']);

describe('trade route (spec §2.1)', () => {
  it('falls back to the default market of Settings > Preferences when it is known, else BTC/USD', () => {
    const known = new Set(['BTC_USD', 'ETH_USD']);
    expect(resolvePairId(null, null, known, 'ETH_USD')).toBe('ETH_USD');
    expect(resolvePairId(null, 'DOGE/USD', known, 'ETH_USD')).toBe('ETH_USD');
    expect(resolvePairId(null, null, known, 'XRP_USD')).toBe('BTC_USD');
    // The address and the pair seen last in this session still come first.
    expect(resolvePairId('BTC/USD', null, known, 'ETH_USD')).toBe('BTC_USD');
    expect(resolvePairId(null, 'BTC/USD', known, 'ETH_USD')).toBe('BTC_USD');
  });

  it('takes the pair from the address in BTC/USD or BTC_USD form, any case', () => {
    expect(resolvePairId('ETH/USD', null, known)).toBe('ETH_USD');
    expect(resolvePairId('eth_btc', null, known)).toBe('ETH_BTC');
    expect(resolvePairId(' Eth-Usd ', null, known)).toBe('ETH_USD');
  });

  it('falls back to the remembered pair when valid, else BTC/USD', () => {
    expect(resolvePairId('DOGE/USD', 'ETH/USD', known)).toBe('ETH_USD');
    expect(resolvePairId(null, 'ETH/BTC', known)).toBe('ETH_BTC');
    expect(resolvePairId('garbage', 'XRP/EUR', known)).toBe('BTC_USD');
    expect(resolvePairId(null, null, known)).toBe('BTC_USD');
  });

  it("trusts the address's pair until the pairs list is known", () => {
    expect(resolvePairId('DOGE/USD', 'ETH/USD', null)).toBe('DOGE_USD');
    expect(resolvePairId('???', 'ETH/USD', null)).toBe('ETH_USD');
  });

  it('reads the carried action', () => {
    expect(carriedSide('buy')).toBe('buy');
    expect(carriedSide('sell')).toBe('sell');
    expect(carriedSide('deposit')).toBeNull();
    expect(carriedSide(null)).toBeNull();
  });

  it('writes the pair readably and keeps the other parameters', () => {
    expect(searchWithPair('?pair=eth_usd&action=sell', 'ETH_USD')).toBe('?pair=ETH/USD&action=sell');
    expect(searchWithPair('', 'BTC_USD')).toBe('?pair=BTC/USD');
  });
});
