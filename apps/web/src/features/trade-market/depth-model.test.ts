import { decimal, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import type { BookLevel } from '../market-data/index.ts';
import { buildDepthModel } from './depth-model.ts';

function levels(...pairs: [string, string][]): BookLevel[] {
  return pairs.map(([price, quantity]) => ({
    price,
    quantity,
    priceAmount: decimal(price),
    quantityAmount: decimal(quantity),
  }));
}

const text = (points: { price: { units: bigint; scale: number }; total: { units: bigint; scale: number } }[]) =>
  points.map((point) => [formatDecimal(point.price), formatDecimal(point.total)]);

describe('depth chart model', () => {
  it('sums quantities outwards from the best prices, exactly', () => {
    const model = buildDepthModel(
      levels(['100.00', '0.1'], ['99.00', '0.2'], ['98.00', '0.3']),
      levels(['101.00', '0.7'], ['102.00', '0.1'], ['103.00', '0.2']),
    );
    expect(model && text(model.bids)).toEqual([
      ['100.00', '0.1'],
      ['99.00', '0.3'],
      ['98.00', '0.6'],
    ]);
    expect(model && text(model.asks)).toEqual([
      ['101.00', '0.7'],
      ['102.00', '0.8'],
      ['103.00', '1.0'],
    ]);
    expect(model && formatDecimal(model.mid)).toBe('100.500');
    expect(model && formatDecimal(model.maxTotal)).toBe('1.0');
  });

  it('centres the window on the mid and leaves out levels beyond the nearer side', () => {
    const model = buildDepthModel(levels(['100', '1'], ['99', '1']), levels(['101', '1'], ['102', '1'], ['150', '5']));
    expect(model && [formatDecimal(model.low), formatDecimal(model.mid), formatDecimal(model.high)]).toEqual([
      '99.0',
      '100.5',
      '102.0',
    ]);
    expect(model && text(model.asks)).toEqual([
      ['101', '1'],
      ['102', '2'],
    ]);
    expect(model && formatDecimal(model.maxTotal)).toBe('2');
  });

  it('draws one side alone, and nothing for an empty book', () => {
    const model = buildDepthModel(levels(['100', '1']), []);
    expect(model && [formatDecimal(model.low), formatDecimal(model.high)]).toEqual(['99.0', '101.0']);
    expect(buildDepthModel([], [])).toBeNull();
  });
});
