import type { PerpSpec } from './api.ts';

const todo = (): never => {
  throw new Error('not implemented yet');
};

/** Money units (10^-8 USD) per tick x lot: 10^(8 - priceDecimals - quantityDecimals). */
export function unitsPerTickLot(spec: PerpSpec): bigint {
  return todo();
}
/** |lots| x ticks as money, exact. */
export function notionalMoney(spec: PerpSpec, priceTicks: number, lots: number): bigint {
  return todo();
}
/** A tick-lot amount (a cost basis) as money, exact. */
export function tickLotsToMoney(spec: PerpSpec, tickLots: bigint): bigint {
  return todo();
}
/** Money as a canonical decimal string ('-12.5', '0'). */
export function moneyToDecimal(money: bigint): string {
  return todo();
}
/** A decimal string with at most 8 decimals as money; null when malformed or finer than 10^-8. */
export function decimalToMoney(text: string): bigint | null {
  return todo();
}
/** A rate (RATE_SCALE) as a canonical decimal fraction ('0.0004'). */
export function rateToDecimal(rate: bigint): string {
  return todo();
}
/** A decimal fraction with at most 8 decimals as a rate; null when malformed. */
export function decimalToRate(text: string): bigint | null {
  return todo();
}
