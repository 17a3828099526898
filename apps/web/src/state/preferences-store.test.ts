import { CLIENT_STATE_STORAGE_KEY, PREFERENCES_STORAGE_KEY } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { formatLocalDateTime } from '../features/orders/order-format.ts';
import { formatDateTime } from '../features/wallet/history-model.ts';
import { formatBalance, formatCompact, formatPercent, formatUsdPrice } from '../lib/format.ts';
import { useAppStore } from './app-store.ts';
import {
  defaultPreferences,
  localizeSeparators,
  mergeStoredPreferences,
  numberFormatPreference,
  numberSeparators,
  timeZonePreference,
  usePreferences,
} from './preferences-store.ts';

const stored = () => JSON.parse(localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? '{}') as { state?: object };

describe('Settings > Preferences store', () => {
  it('starts on BTC/USD, no order confirmation, cancel with undo, every balance shown, device zone, language format', () => {
    const state = usePreferences.getState();
    expect(state).toMatchObject(defaultPreferences);
    expect(defaultPreferences).toEqual({
      defaultPair: 'BTC_USD',
      confirmOrders: false,
      cancelMode: 'undo',
      hideSmallBalances: false,
      smallBalanceUsd: '1',
      timeZone: 'device',
      numberFormat: 'locale',
    });
    expect(timeZonePreference()).toBeUndefined();
    expect(numberFormatPreference()).toBe('locale');
  });

  it('keeps each choice under its own key, outside the spec §3.1 client state', () => {
    usePreferences.getState().setPreference('cancelMode', 'confirm');
    usePreferences.getState().setPreference('timeZone', 'Asia/Tokyo');
    expect(stored().state).toMatchObject({ cancelMode: 'confirm', timeZone: 'Asia/Tokyo' });
    useAppStore.getState().setTheme('retroTerminal');
    const clientState = JSON.parse(localStorage.getItem(CLIENT_STATE_STORAGE_KEY) ?? '{}') as { state: object };
    expect(Object.keys(clientState.state)).not.toContain('cancelMode');
  });

  it('reads a damaged stored field as its default without losing the others', () => {
    const merged = mergeStoredPreferences(
      {
        defaultPair: 'eth/usd',
        confirmOrders: 'yes',
        cancelMode: 'never',
        timeZone: 'Mars/Olympus',
        numberFormat: 'dot-comma',
        smallBalanceUsd: '1000000',
      },
      usePreferences.getState(),
    );
    expect(merged).toMatchObject({
      defaultPair: 'ETH_USD',
      confirmOrders: false,
      cancelMode: 'undo',
      timeZone: 'device',
      numberFormat: 'dot-comma',
      smallBalanceUsd: '1',
    });
    expect(mergeStoredPreferences({ defaultPair: 'not a pair' }, usePreferences.getState()).defaultPair).toBe(
      'BTC_USD',
    );
  });
});

describe('number format preference', () => {
  it.each([
    ['comma-dot', '1,234,567.89'],
    ['dot-comma', '1.234.567,89'],
    ['space-comma', '1\u202f234\u202f567,89'],
  ] as const)('%s writes 1,234,567.89 as %s', (format, expected) => {
    expect(localizeSeparators('1,234,567.89', numberSeparators(format, 'en'))).toBe(expected);
  });

  it("'locale' follows the language: German groups with dots", () => {
    expect(numberSeparators('locale', 'en')).toEqual({ group: ',', decimal: '.' });
    expect(numberSeparators('locale', 'de')).toEqual({ group: '.', decimal: ',' });
  });

  it('changes only the separators of numbers, not the text around them', () => {
    const separators = numberSeparators('dot-comma', 'en');
    expect(localizeSeparators('≈ 0.5 BTC, then 1,000.25 USD', separators)).toBe('≈ 0,5 BTC, then 1.000,25 USD');
  });

  it('prices, balances, compact figures and percentages follow it', () => {
    expect(formatUsdPrice('1234.5')).toBe('$1,234.50');
    usePreferences.getState().setPreference('numberFormat', 'dot-comma');
    expect(formatUsdPrice('1234.5')).toBe('$1.234,50');
    expect(formatBalance('12345.678', 'USD')).toBe('12.345,67');
    expect(formatCompact('1234567890')).toBe('$1,23B');
    expect(formatPercent('-2.5')).toBe('-2,50%');
    usePreferences.getState().setPreference('numberFormat', 'space-comma');
    expect(formatUsdPrice('0.00001234')).toBe('$0,00001234');
    expect(formatBalance('1234567.5', 'BTC')).toBe('1\u202f234\u202f567,50000000');
  });
});

describe('time zone preference', () => {
  const instant = '2026-11-24T23:30:15.000Z';

  it('every date display uses the chosen zone', () => {
    usePreferences.getState().setPreference('timeZone', 'UTC');
    expect(timeZonePreference()).toBe('UTC');
    expect(formatLocalDateTime(instant)).toBe('11/24/2026, 23:30:15');
    expect(formatDateTime(instant).date).toBe('11/24/2026');

    usePreferences.getState().setPreference('timeZone', 'Asia/Tokyo');
    expect(formatLocalDateTime(instant)).toBe('11/25/2026, 08:30:15');
    expect(formatDateTime(instant)).toEqual({ date: '11/25/2026', time: '08:30:15' });
  });
});
