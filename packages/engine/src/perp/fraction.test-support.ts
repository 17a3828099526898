/**
 * A tiny exact rational number for the perp maths tests: the reference computations use it instead
 * of the engine's integer tricks (half ticks, cross-multiplication, ceil by remainder), so that a
 * mistake in those tricks cannot hide behind the same mistake in the test.
 */
function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export class Fraction {
  readonly num: bigint;
  readonly den: bigint;

  constructor(numerator: bigint | number, denominator: bigint | number = 1n) {
    let num = BigInt(numerator);
    let den = BigInt(denominator);
    if (den === 0n) throw new RangeError('zero denominator');
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    const divisor = gcd(num, den) || 1n;
    this.num = num / divisor;
    this.den = den / divisor;
  }

  add(other: Fraction): Fraction {
    return new Fraction(this.num * other.den + other.num * this.den, this.den * other.den);
  }
  sub(other: Fraction): Fraction {
    return this.add(other.neg());
  }
  mul(other: Fraction): Fraction {
    return new Fraction(this.num * other.num, this.den * other.den);
  }
  div(other: Fraction): Fraction {
    return new Fraction(this.num * other.den, this.den * other.num);
  }
  neg(): Fraction {
    return new Fraction(-this.num, this.den);
  }
  abs(): Fraction {
    return this.num < 0n ? this.neg() : this;
  }
  sign(): number {
    return this.num > 0n ? 1 : this.num < 0n ? -1 : 0;
  }
  cmp(other: Fraction): number {
    return this.sub(other).sign();
  }
  isInteger(): boolean {
    return this.den === 1n;
  }
  /** The largest integer <= this. */
  floor(): bigint {
    const quotient = this.num / this.den;
    return this.num < 0n && quotient * this.den !== this.num ? quotient - 1n : quotient;
  }
  /** The smallest integer >= this. */
  ceil(): bigint {
    return -this.neg().floor();
  }
  /** Nearest integer; a half goes away from zero. */
  roundHalfAwayFromZero(): bigint {
    const magnitude = this.abs().add(new Fraction(1n, 2n)).floor();
    return this.sign() < 0 ? -magnitude : magnitude;
  }
  /** Nearest integer; a half goes towards zero. */
  roundHalfTowardZero(): bigint {
    const magnitude = this.abs().sub(new Fraction(1n, 2n)).ceil();
    return this.sign() < 0 ? -magnitude : magnitude;
  }
  static min(a: Fraction, b: Fraction): Fraction {
    return a.cmp(b) <= 0 ? a : b;
  }
  static max(a: Fraction, b: Fraction): Fraction {
    return a.cmp(b) >= 0 ? a : b;
  }
}

export const frac = (numerator: bigint | number, denominator: bigint | number = 1n): Fraction =>
  new Fraction(numerator, denominator);
