import { MAX_ASSET_SCALE, type OpenLot } from './api.ts';

/** One open lot valued at a price. */
export interface LotValuation {
  lotId: string;
  remainingAmount: bigint;
  remainingCostUsd: bigint;
  valueUsd: bigint;
  /** valueUsd - remainingCostUsd. */
  unrealisedUsd: bigint;
}

export interface HoldingValuation {
  lots: LotValuation[];
  amount: bigint;
  costUsd: bigint;
  /** floor(amount x price / 10^scale): the holding's value as the portfolio shows it. */
  valueUsd: bigint;
  unrealisedUsd: bigint;
}

function assertScaleAndPrice(scale: number, priceUsd: bigint): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_ASSET_SCALE) {
    throw new RangeError(`asset scale must be an integer 0..${MAX_ASSET_SCALE}, got ${String(scale)}`);
  }
  if (typeof priceUsd !== 'bigint' || priceUsd < 0n) throw new RangeError('price must be a bigint >= 0');
}

/**
 * Values the open lots at one price and gives each its unrealised P&L.
 *
 * priceUsd: USD units (10^-8 USD) per one whole unit of the asset (10^scale amount units). The value
 * is rounded down (amounts and prices are >= 0, so down is also towards zero): a holding is never
 * shown above what it is worth at that price. The holding's value is floor(total amount x price /
 * 10^scale), the figure the portfolio shows for the balance, and it is split over the lots (in the
 * order given, acquisition order from computeLots) by cumulative share, so the lots' values add up
 * to it exactly and each is within one unit of its exact value. The holding's unrealised P&L is
 * likewise exactly the sum of the lots'.
 */
export function valueOpenLots(openLots: readonly OpenLot[], scale: number, priceUsd: bigint): HoldingValuation {
  assertScaleAndPrice(scale, priceUsd);
  const unitsPerWhole = 10n ** BigInt(scale);
  const lots: LotValuation[] = [];
  let amount = 0n;
  let costUsd = 0n;
  let valueSoFar = 0n;
  for (const lot of openLots) {
    amount += lot.remainingAmount;
    costUsd += lot.remainingCostUsd;
    const valueAfter = (amount * priceUsd) / unitsPerWhole;
    const valueUsd = valueAfter - valueSoFar;
    valueSoFar = valueAfter;
    lots.push({
      lotId: lot.lotId,
      remainingAmount: lot.remainingAmount,
      remainingCostUsd: lot.remainingCostUsd,
      valueUsd,
      unrealisedUsd: valueUsd - lot.remainingCostUsd,
    });
  }
  return { lots, amount, costUsd, valueUsd: valueSoFar, unrealisedUsd: valueSoFar - costUsd };
}

/**
 * Average cost of the open lots, in USD units per one whole unit of the asset, rounded down (like
 * every other division here); null when nothing is open.
 */
export function averageCostUsd(openLots: readonly OpenLot[], scale: number): bigint | null {
  assertScaleAndPrice(scale, 0n);
  let amount = 0n;
  let costUsd = 0n;
  for (const lot of openLots) {
    amount += lot.remainingAmount;
    costUsd += lot.remainingCostUsd;
  }
  if (amount === 0n) return null;
  return (costUsd * 10n ** BigInt(scale)) / amount;
}
