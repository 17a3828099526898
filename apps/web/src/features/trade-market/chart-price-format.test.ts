import { describe, expect, it } from 'vitest';
import { axisPrice, axisTickmarks } from './chart-price-format.ts';

describe('chart price labels', () => {
  it('writes a crosshair or last-price label at the tick, tiny prices in subscript zeros', () => {
    expect(axisPrice(67229.81, 2)).toBe('67,229.81');
    expect(axisPrice(0.0000000020996, 14)).toBe('0.0₈209960');
    expect(axisPrice(0.0000245469, 10)).toBe('0.0₄245469');
  });

  it('drops the trailing zeros all axis marks share, keeping cents', () => {
    expect(axisTickmarks([0.0000000023, 0.0000000022, 0.0000000021], 14)).toEqual(['0.0₈23', '0.0₈22', '0.0₈21']);
    expect(axisTickmarks([0.00000000225, 0.0000000022], 14)).toEqual(['0.0₈225', '0.0₈220']);
    expect(axisTickmarks([74000, 72000], 2)).toEqual(['74,000.00', '72,000.00']);
    expect(axisTickmarks([1.5, 1.25], 5)).toEqual(['1.50', '1.25']);
    expect(axisTickmarks([], 14)).toEqual([]);
  });
});
