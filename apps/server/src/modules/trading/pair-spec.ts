import { type Amount, decimal, formatDecimal, parseDecimal, toUnits } from '@platform/money';

const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);

/**
 * A trading pair as the exchange core uses it: integer ticks and lots, and the conversions between
 * them and the decimal strings of the API and the ledger.
 *
 * Ledger amounts are "atoms": bigint units at LEDGER_SCALE (18) decimals. Every trade value is exact
 * in atoms because price precision + quantity precision never passes 15 (coins.ts), and a 0.1 % fee
 * adds three decimals at most; fees with finer rates round up to the atom, in the house's favour.
 */
export const LEDGER_SCALE = 18;

export type PairRow = {
  id: string;
  base_currency: string;
  quote_currency: string;
  symbol: string;
  min_trade_amount: string;
  max_trade_amount: string;
  price_precision: number;
  quantity_precision: number;
  maker_fee: string;
  taker_fee: string;
  is_active: boolean;
  is_enabled_by_admin: boolean;
};

export interface PairSpec {
  id: string;
  base: string;
  quote: string;
  symbol: string;
  pricePrecision: number;
  quantityPrecision: number;
  minLots: number;
  maxLots: number;
  minQuantity: string;
  maxQuantity: string;
  /** Fee rates as percentages (0.1 means 0.1 %). */
  makerFeePercent: Amount;
  takerFeePercent: Amount;
  tradable: boolean;
}

/** A pair takes new orders while it is active and enabled by an admin (spec §3.6). */
export function tradableOf(row: Pick<PairRow, 'is_active' | 'is_enabled_by_admin'>): boolean {
  return row.is_active && row.is_enabled_by_admin;
}

export function pairSpecFromRow(row: PairRow): PairSpec {
  const q = row.quantity_precision;
  const lotsOf = (text: string) => {
    const units = toUnits(decimal(text), q);
    if (!units.ok) throw new Error(`pair ${row.id}: ${text} is not a whole number of lots`);
    return Number(units.value);
  };
  return {
    id: row.id,
    base: row.base_currency,
    quote: row.quote_currency,
    symbol: row.symbol,
    pricePrecision: row.price_precision,
    quantityPrecision: q,
    minLots: lotsOf(row.min_trade_amount),
    maxLots: Math.min(lotsOf(row.max_trade_amount), Number.MAX_SAFE_INTEGER),
    minQuantity: trim(decimal(row.min_trade_amount)),
    maxQuantity: trim(decimal(row.max_trade_amount)),
    makerFeePercent: decimal(row.maker_fee),
    takerFeePercent: decimal(row.taker_fee),
    tradable: tradableOf(row),
  };
}

function trim(value: Amount): string {
  return formatDecimal(value, { trimZeros: true });
}

/** A request amount: a decimal string, or a JSON number read by its shortest text (never exponent form). */
export function parseAmountInput(value: string | number | undefined): Amount | 'missing' | 'invalid' {
  if (value === undefined) return 'missing';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (text === '') return 'missing';
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  if (!parsed.ok) return 'invalid';
  return parsed.value;
}

export type UnitsError = 'not_positive' | 'too_many_decimals' | 'too_large';

function toSafeUnits(value: Amount, precision: number): number | UnitsError {
  if (value.units <= 0n) return 'not_positive';
  const units = toUnits(value, precision);
  if (!units.ok) return 'too_many_decimals';
  if (units.value > BigInt(Number.MAX_SAFE_INTEGER)) return 'too_large';
  return Number(units.value);
}

export const toTicks = (spec: PairSpec, price: Amount) => toSafeUnits(price, spec.pricePrecision);
export const toLots = (spec: PairSpec, quantity: Amount) => toSafeUnits(quantity, spec.quantityPrecision);

export function priceText(spec: PairSpec, ticks: number): string {
  return formatDecimal({ units: BigInt(ticks), scale: spec.pricePrecision });
}

export function quantityText(spec: PairSpec, lots: number): string {
  return formatDecimal({ units: BigInt(lots), scale: spec.quantityPrecision });
}

/** Ticks of a feed price, rounded down to the pair's tick (the feed already uses the pair's precision). */
export function ticksOfPrice(spec: PairSpec, price: string): number | null {
  const parsed = parseDecimal(price, { maxScale: 30, maxIntegerDigits: 30 });
  if (!parsed.ok || parsed.value.units <= 0n) return null;
  const { units, scale } = parsed.value;
  const ticks =
    scale <= spec.pricePrecision
      ? units * pow10(spec.pricePrecision - scale)
      : units / pow10(scale - spec.pricePrecision);
  if (ticks <= 0n || ticks > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(ticks);
}

/** Quote value of `lots` at `ticks`, in atoms. */
export function notionalAtoms(spec: PairSpec, ticks: number, lots: number): bigint {
  return BigInt(ticks) * BigInt(lots) * pow10(LEDGER_SCALE - spec.pricePrecision - spec.quantityPrecision);
}

/** Notional units (ticks x lots) of a quote amount, exact or null when it has finer decimals. */
export function quoteAmountNotional(spec: PairSpec, quote: Amount): bigint | null {
  const units = toUnits(quote, spec.pricePrecision + spec.quantityPrecision);
  return units.ok && units.value > 0n ? units.value : null;
}

export function notionalToAtoms(spec: PairSpec, notional: bigint): bigint {
  return notional * pow10(LEDGER_SCALE - spec.pricePrecision - spec.quantityPrecision);
}

export function lotsToAtoms(spec: PairSpec, lots: number): bigint {
  return BigInt(lots) * pow10(LEDGER_SCALE - spec.quantityPrecision);
}

/** `percent` % of `atoms`, rounded up to the atom. */
export function feeAtoms(atoms: bigint, percent: Amount): bigint {
  const denominator = 100n * pow10(percent.scale);
  const numerator = atoms * percent.units;
  return (numerator + denominator - 1n) / denominator;
}

export function maxFeePercent(spec: PairSpec): Amount {
  const { makerFeePercent: m, takerFeePercent: t } = spec;
  const scale = Math.max(m.scale, t.scale);
  const mu = m.units * pow10(scale - m.scale);
  const tu = t.units * pow10(scale - t.scale);
  return { units: mu > tu ? mu : tu, scale };
}

/** Atoms as a canonical decimal string without trailing zeros ('0' for zero). */
export function atomsText(atoms: bigint): string {
  return formatDecimal({ units: atoms, scale: LEDGER_SCALE }, { trimZeros: true });
}

export function atomsOf(text: string): bigint {
  const value = decimal(text);
  const units = toUnits(value, LEDGER_SCALE);
  if (!units.ok) throw new Error(`${text} has more than ${LEDGER_SCALE} decimals`);
  return units.value;
}

/** Basis-point band edges around a reference price, in ticks: the widest a hold must cover. */
export function bandCeilTicks(referenceTicks: number, bandBps: number): number {
  return Number((BigInt(referenceTicks) * BigInt(10_000 + bandBps) + 9_999n) / 10_000n);
}

export function bandFloorTicks(referenceTicks: number, bandBps: number): number {
  return Math.max(1, Number((BigInt(referenceTicks) * BigInt(10_000 - bandBps)) / 10_000n));
}
