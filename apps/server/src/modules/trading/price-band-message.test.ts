import { basisPointsAsPercent, priceBandMessage } from '@platform/contracts';
import { describe, expect, it } from 'vitest';

describe('the out-of-band price message', () => {
  it.each([
    [1000, '10'],
    [250, '2.5'],
    [15, '0.15'],
    [10, '0.1'],
    [9000, '90'],
  ])('%i basis points read %s%%', (bps, percent) => {
    expect(basisPointsAsPercent(bps)).toBe(percent);
  });

  it('names the field and the band', () => {
    expect(priceBandMessage('price', 1000)).toBe('Price must be within 10% of the market price');
    expect(priceBandMessage('stop_price', 250)).toBe('Stop price must be within 2.5% of the market price');
  });
});
