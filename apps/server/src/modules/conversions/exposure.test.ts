import { formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { limitsFromConfig } from './exposure.ts';

const text = (value: Parameters<typeof formatDecimal>[0]) => formatDecimal(value, { trimZeros: true });

describe('conversion limits from the configuration', () => {
  it('default to two minutes, 100,000 USD per account and 1,000,000 USD house-wide per minute', () => {
    const limits = limitsFromConfig(loadConfig({}).conversions);
    expect(limits.referenceMaxAgeMs).toBe(120_000);
    expect(text(limits.accountUsd)).toBe('100000');
    expect(text(limits.houseUsd)).toBe('1000000');
  });

  it('are overridden by the environment, exactly, and refuse anything but a USD amount by name', () => {
    const limits = limitsFromConfig(
      loadConfig({
        CONVERSION_REFERENCE_MAX_AGE_SECONDS: '30',
        CONVERSION_ACCOUNT_LIMIT_USD: '2500.50',
        CONVERSION_HOUSE_LIMIT_USD: '9000000',
      }).conversions,
    );
    expect(limits).toMatchObject({ referenceMaxAgeMs: 30_000 });
    expect(text(limits.accountUsd)).toBe('2500.5');
    expect(text(limits.houseUsd)).toBe('9000000');
    for (const bad of ['1e6', '-5', '10.001', 'lots']) {
      expect(() => loadConfig({ CONVERSION_ACCOUNT_LIMIT_USD: bad })).toThrow(/CONVERSION_ACCOUNT_LIMIT_USD/);
    }
    expect(() => loadConfig({ CONVERSION_HOUSE_LIMIT_USD: '1,000' })).toThrow(/CONVERSION_HOUSE_LIMIT_USD/);
    expect(() => loadConfig({ CONVERSION_REFERENCE_MAX_AGE_SECONDS: '0' })).toThrow(
      /CONVERSION_REFERENCE_MAX_AGE_SECONDS/,
    );
  });
});
