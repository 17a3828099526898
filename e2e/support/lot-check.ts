import { decimal, eq, formatDecimal, toScale } from '@platform/money';

/**
 * The independent check's own cost-basis arithmetic (issue 17 "How we will check"): a FIFO lot
 * model written from the documented rules (docs/portfolio.md "Rounding"), sharing no code with the
 * server's lot engine. Amounts in units of 10^-18 of the asset, USD in units of 10^-8.
 */

export const ASSET_SCALE = 18;
export const USD_SCALE = 8;

export type Acquisition = { kind: 'acquisition'; id: string; amount: bigint; costUsd: bigint };
export type Disposal = { kind: 'disposal'; id: string; amount: bigint; proceedsUsd: bigint };
export type LotEvent = Acquisition | Disposal;

type Lot = { id: string; amount: bigint; cost: bigint; consumed: bigint };
export type RealisedRow = {
  disposalId: string;
  lotId: string;
  amount: bigint;
  proceeds: bigint;
  cost: bigint;
  gain: bigint;
};

/** floor(whole x part / total): the first `part` of `total` units carries this much of `whole`. */
const cumulative = (whole: bigint, part: bigint, total: bigint) => (whole * part) / total;

export function fifo(events: readonly LotEvent[]) {
  const open: Lot[] = [];
  const rows: RealisedRow[] = [];
  for (const event of events) {
    if (event.kind === 'acquisition') {
      open.push({ id: event.id, amount: event.amount, cost: event.costUsd, consumed: 0n });
      continue;
    }
    let left = event.amount;
    let done = 0n;
    while (left > 0n) {
      const lot = open[0];
      if (!lot) throw new Error(`disposal ${event.id} exceeds the lots`);
      const take = left < lot.amount - lot.consumed ? left : lot.amount - lot.consumed;
      const cost =
        cumulative(lot.cost, lot.consumed + take, lot.amount) - cumulative(lot.cost, lot.consumed, lot.amount);
      const proceeds =
        cumulative(event.proceedsUsd, done + take, event.amount) - cumulative(event.proceedsUsd, done, event.amount);
      rows.push({ disposalId: event.id, lotId: lot.id, amount: take, proceeds, cost, gain: proceeds - cost });
      lot.consumed += take;
      done += take;
      left -= take;
      if (lot.consumed === lot.amount) open.shift();
    }
  }
  const lots = open.map((lot) => ({
    id: lot.id,
    amount: lot.amount - lot.consumed,
    cost: lot.cost - cumulative(lot.cost, lot.consumed, lot.amount),
  }));
  const amount = lots.reduce((sum, lot) => sum + lot.amount, 0n);
  const cost = lots.reduce((sum, lot) => sum + lot.cost, 0n);
  return { rows, lots, amount, cost };
}

/** USD units of `amount` (asset units) at `priceUsd` (USD units per whole unit), rounded down. */
export const valueAt = (amount: bigint, priceUsd: bigint) => (amount * priceUsd) / 10n ** BigInt(ASSET_SCALE);
/** Open cost per whole unit, rounded down. */
export const averageCost = (cost: bigint, amount: bigint) => (cost * 10n ** BigInt(ASSET_SCALE)) / amount;

export const units = (text: string, scale: number) => toScale(decimal(text), scale, 'down').units;
/** Units of an amount that must be exact at `scale` (a ledger figure): throws if it is not. */
export const exactUnits = (text: string, scale: number) => {
  const scaled = toScale(decimal(text), scale, 'down');
  if (eq(scaled, decimal(text))) return scaled.units;
  throw new Error(`${text} has more than ${scale} decimals`);
};
export const usd = (value: bigint) => formatDecimal({ units: value, scale: USD_SCALE });
export const asset = (value: bigint) => formatDecimal({ units: value, scale: ASSET_SCALE });
