import { describe, expect, it } from 'vitest';
import { parseAddress, parseExtraId } from './rules.ts';

const messageOf = (result: ReturnType<typeof parseAddress> | ReturnType<typeof parseExtraId>) =>
  result.ok ? null : (result.message ?? result.code);

describe('withdrawal destination rules (§5)', () => {
  it.each([
    ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    ['BTC', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
    ['BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
    ['ETH', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e'],
    ['ETH', '0x742d35cc6634c0532925a3b844bc454e4438f44e'],
    ['USDT', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e'],
    ['USDC', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e'],
    ['LTC', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9'],
    ['LTC', 'ltc1qqurswpc8qurswpc8qurswpc8qurswpc8p4r4uu'],
    ['XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
    ['SOL', 'any-address-of-ten-or-more'],
    ['DOGE', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
  ])('accepts a %s address %s (trimmed)', (currency, address) => {
    expect(parseAddress(`  ${address} `, currency)).toEqual({ ok: true, value: address });
  });

  it.each([
    ['BTC', 'short', 'ADDRESS_INVALID'],
    ['SOL', '   123456789   ', 'ADDRESS_INVALID'],
    ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', 'Invalid BTC address format'],
    ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr', 'Invalid BTC address format'],
    ['BTC', '0x742d35Cc6634C0532925a3b844Bc454e4438f44e', 'Invalid BTC address format'],
    ['BTC', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', 'Invalid BTC address format'],
    ['ETH', '0x742d35Cc6634C0532925a3b844Bc454e4438f44', 'Invalid ETH address format'],
    ['ETH', '0x742d35Cc6634C0532925a3b844Bc454e4438f44E', 'Invalid ETH address format'],
    ['ETH', '742d35Cc6634C0532925a3b844Bc454e4438f44e00', 'Invalid ETH address format'],
    ['USDT', 'TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9', 'Invalid USDT address format'],
    ['USDC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'Invalid USDC address format'],
    ['LTC', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH8', 'Invalid LTC address format'],
    ['LTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'Invalid LTC address format'],
    ['XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi', 'Invalid XRP address format'],
    ['XRP', 'xHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'Invalid XRP address format'],
  ])('refuses a %s address %s', (currency, address, message) => {
    expect(messageOf(parseAddress(address, currency))).toBe(message);
  });

  it('reads XRP destination tags as integers 0..4294967295', () => {
    expect(parseExtraId(undefined, 'XRP')).toEqual({ ok: true, value: null });
    expect(parseExtraId(null, 'XRP')).toEqual({ ok: true, value: null });
    expect(parseExtraId('  ', 'XRP')).toEqual({ ok: true, value: null });
    expect(parseExtraId('0', 'XRP')).toEqual({ ok: true, value: '0' });
    expect(parseExtraId(' 12345 ', 'XRP')).toEqual({ ok: true, value: '12345' });
    expect(parseExtraId(4294967295, 'XRP')).toEqual({ ok: true, value: '4294967295' });
    for (const bad of ['4294967296', '-1', 'abc', '1.5', '1e3', '99999999999', -1, 1.5, 1e21]) {
      expect(messageOf(parseExtraId(bad, 'XRP'))).toBe('DESTINATION_TAG_INVALID');
    }
  });

  it('keeps a short memo for the other currencies', () => {
    expect(parseExtraId('memo-1', 'XLM')).toEqual({ ok: true, value: 'memo-1' });
    expect(parseExtraId(42, 'BTC')).toEqual({ ok: true, value: '42' });
    expect(messageOf(parseExtraId('x'.repeat(65), 'XLM'))).toBe('DESTINATION_TAG_INVALID');
    expect(messageOf(parseExtraId('line\nbreak', 'XLM'))).toBe('DESTINATION_TAG_INVALID');
  });
});
