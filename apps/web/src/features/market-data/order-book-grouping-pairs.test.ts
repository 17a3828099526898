import { REFERENCE_PRICES_USD, TRADING_PAIRS } from '@platform/contracts';
import { compare, decimal, div, formatDecimal } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { compressZeros } from '../../lib/subscript-zeros.ts';
import { groupingSteps } from './order-book-grouping.ts';

/** A step as a fraction of the price, to 12 decimals. */
const relative = (step: string, price: string) => div(decimal(step), decimal(price), 12, 'half_up');

describe('order book grouping steps per pair', () => {
  it('are the tick times 1, 10, 100 and 1,000', () => {
    expect(groupingSteps(2).map((step) => formatDecimal(step))).toEqual(['0.01', '0.1', '1', '10']);
    expect(groupingSteps(14).map((step) => compressZeros(formatDecimal(step)))).toEqual([
      '0.0₁₃1',
      '0.0₁₂1',
      '0.0₁₁1',
      '0.0₁₀1',
    ]);
  });

  it('fit every USD pair: the finest at most 0.001 % of the price, the widest at most 1 % (BABYDOGE too)', () => {
    const checked: string[] = [];
    for (const pair of TRADING_PAIRS.filter((candidate) => candidate.quote_currency === 'USD')) {
      const price = REFERENCE_PRICES_USD[pair.base_currency];
      if (!price) continue;
      const steps = groupingSteps(pair.price_precision).map((step) => formatDecimal(step));
      const finest = relative(steps[0] ?? '0', price);
      const widest = relative(steps.at(-1) ?? '0', price);
      expect({ pair: pair.id, fine: compare(finest, decimal('0.00001')) <= 0 }).toEqual({ pair: pair.id, fine: true });
      expect({ pair: pair.id, coarse: compare(widest, decimal('0.01')) <= 0 }).toEqual({ pair: pair.id, coarse: true });
      checked.push(pair.base_currency);
    }
    expect(checked).toEqual(expect.arrayContaining(['BTC', 'BABYDOGE', 'SHIB', 'PEPE', 'FLOKI']));
  });
});
