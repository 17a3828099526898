import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dataDir.endsWith('data')).toBe(true);
  });

  it('names every bad value', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
      expect(message).toContain('JWT_SECRET: must be at least 32 characters');
    }
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });
});

describe('price source configuration', () => {
  it('runs on the simulator alone by default, with real public endpoints ready', () => {
    const config = loadConfig({});
    expect(config.priceSources).toEqual(['simulator']);
    expect(config.simulatorTickMs).toBe(250);
    expect(config.simulatorSeed).toBe('meridian');
    expect(config.exchangeRestUrl).toBe('https://data-api.binance.vision');
    expect(config.exchangeWsUrl).toBe('wss://data-stream.binance.vision');
    expect(config.marketDataUrl).toBe('https://api.coingecko.com/api/v3');
    expect(config.marketDataApiKey).toBeUndefined();
    expect(config.historyDays).toBe(365);
    expect(config.historyMinuteHours).toBe(24);
    expect(config.priceFeedEnabled).toBe(true);
  });

  it('keeps the simulator last whatever the order given', () => {
    expect(loadConfig({ PRICE_SOURCES: 'simulator, exchange,market-data' }).priceSources).toEqual([
      'exchange',
      'market-data',
      'simulator',
    ]);
    expect(loadConfig({ PRICE_SOURCES: 'market-data' }).priceSources).toEqual(['market-data', 'simulator']);
  });

  it('refuses unknown price sources and bad numbers by name', () => {
    expect(() => loadConfig({ PRICE_SOURCES: 'exchange,oracle' })).toThrow(/PRICE_SOURCES/);
    expect(() => loadConfig({ PRICE_SOURCES: ' , ' })).toThrow(/PRICE_SOURCES/);
    expect(() => loadConfig({ SIMULATOR_TICK_MS: '5' })).toThrow(/SIMULATOR_TICK_MS/);
    expect(() => loadConfig({ EXCHANGE_WS_URL: 'http://x' })).toThrow(/EXCHANGE_WS_URL/);
    expect(() => loadConfig({ HISTORY_DAYS: '-1' })).toThrow(/HISTORY_DAYS/);
  });

  it('keeps test servers quick with a small history unless told otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).historyDays).toBe(2);
    expect(loadConfig({ NODE_ENV: 'test' }).historyMinuteHours).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', HISTORY_DAYS: '30' }).historyDays).toBe(30);
  });
});

describe('fair-use configuration', () => {
  it('meters as Binance does by default, every budget on its own variable', () => {
    expect(loadConfig({}).fairUse).toEqual({
      publicWeightPerMinute: 6_000,
      accountWeightPerMinute: 6_000,
      ordersPer10Seconds: 100,
      ordersPerMinute: 300,
      ordersPerIpPerMinute: 1_200,
      withdrawalsPerMinute: 30,
    });
    const raised = loadConfig({ FAIR_USE_PUBLIC_WEIGHT_PER_MINUTE: '1000000000', FAIR_USE_ORDERS_PER_10S: '7' });
    expect(raised.fairUse.publicWeightPerMinute).toBe(1_000_000_000);
    expect(raised.fairUse.ordersPer10Seconds).toBe(7);
  });

  it('refuses a budget of zero, a fraction or a word, by name', () => {
    expect(() => loadConfig({ FAIR_USE_ORDERS_PER_MINUTE: '0' })).toThrow(/FAIR_USE_ORDERS_PER_MINUTE/);
    expect(() => loadConfig({ FAIR_USE_WITHDRAWALS_PER_MINUTE: '1.5' })).toThrow(/FAIR_USE_WITHDRAWALS_PER_MINUTE/);
    expect(() => loadConfig({ FAIR_USE_ACCOUNT_WEIGHT_PER_MINUTE: 'lots' })).toThrow(/FAIR_USE_ACCOUNT_WEIGHT/);
  });
});
