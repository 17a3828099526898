import fc from 'fast-check';
import type { Amount } from './amount.ts';
import type { Rounding } from './rounding.ts';
import { ROUNDINGS } from './rounding.ts';

// Shared generators for the property tests; not exported from the package.

const LARGE = 10n ** 45n;

/** Any amount: signed, up to 45 digits of units, scale 0 to 18. */
export const amountArbitrary: fc.Arbitrary<Amount> = fc
  .record({ units: fc.bigInt({ min: -LARGE, max: LARGE }), scale: fc.integer({ min: 0, max: 18 }) })
  .map(({ units, scale }) => ({ units, scale }));

/** Amounts that crowd around small values, so equal values at different scales and ties occur often. */
export const smallAmountArbitrary: fc.Arbitrary<Amount> = fc
  .record({ units: fc.bigInt({ min: -2000n, max: 2000n }), scale: fc.integer({ min: 0, max: 3 }) })
  .map(({ units, scale }) => ({ units, scale }));

export const mixedAmountArbitrary: fc.Arbitrary<Amount> = fc.oneof(amountArbitrary, smallAmountArbitrary);

export const nonZeroAmountArbitrary: fc.Arbitrary<Amount> = mixedAmountArbitrary.filter((value) => value.units !== 0n);

export const positiveAmountArbitrary: fc.Arbitrary<Amount> = fc
  .record({ units: fc.bigInt({ min: 1n, max: 10n ** 20n }), scale: fc.integer({ min: 0, max: 10 }) })
  .map(({ units, scale }) => ({ units, scale }));

export const roundingArbitrary: fc.Arbitrary<Rounding> = fc.constantFrom(...ROUNDINGS);

export const scaleArbitrary: fc.Arbitrary<number> = fc.integer({ min: 0, max: 18 });

/**
 * Canonical decimal text within the default limits (20 integer digits, 18 decimals): no leading
 * zeros and no negative zero, so parsing then formatting must give it back character for character.
 */
export const canonicalDecimalTextArbitrary: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/))
  .filter(([isNegative, text]) => !isNegative || /[1-9]/.test(text))
  .map(([isNegative, text]) => (isNegative ? `-${text}` : text));
