import { REFERENCE_PRICES_USD } from '@platform/contracts';
import { lots } from '@platform/engine';
import { type Amount, isNegative, parseDecimal } from '@platform/money';
import type { AccountMovement } from '../wallet/index.ts';

/**
 * The account's lot histories, one per asset, built from its ledger movements (docs/portfolio.md
 * "Lots from the ledger"). USD is the numeraire and has no lots; every other currency, stablecoins
 * included, is an asset.
 */

/** Every asset is accounted at the ledger's 18 decimals, so every recorded amount is exact. */
export const LOT_ASSET_SCALE = 18;
const NUMERAIRE = 'USD';

/** The recorded USD price of a currency at a past moment, or null. */
export type HistoricPrice = (currency: string, timeMs: number) => Promise<string | null>;

/** One currency's part of an entry: its magnitude in 10^-18 units and its direction. */
type Leg = { currency: string; negative: boolean; units: bigint };
type Entry = { id: string; kind: string; timeMs: number; legs: Leg[] };

const ACQUISITION_KINDS: Record<string, lots.AcquisitionKind> = {
  trade: 'buy',
  conversion: 'conversion_in',
  deposit: 'deposit',
  transfer: 'transfer_in',
};
// A withdrawal (to one's own wallet elsewhere, as far as we know) and a transfer to another user
// realise nothing: the lots leave with the coins (transfer_out, left out of the realised report).
const DISPOSAL_KINDS: Record<string, lots.DisposalKind> = {
  trade: 'sell',
  conversion: 'conversion_out',
  withdrawal: 'transfer_out',
  transfer: 'transfer_out',
};

const LEDGER_AMOUNT = /^(-?)(\d{1,38})(?:\.(\d{1,18}))?$/;
const ASSET_UNITS_PER_USD_UNIT = 10n ** BigInt(LOT_ASSET_SCALE - lots.USD_DECIMALS);

/**
 * A signed ledger sum as a leg: exact, since the ledger keeps at most 18 decimals. Parsed by hand:
 * a cold build reads every movement of the account's history (hundreds of thousands for a busy
 * trader), and this is most of its time.
 */
function ledgerLeg(currency: string, text: string): Leg {
  const match = LEDGER_AMOUNT.exec(text);
  if (match === null) throw new Error(`ledger amount out of range: ${text}`);
  const fraction = (match[3] ?? '').padEnd(LOT_ASSET_SCALE, '0');
  return { currency, negative: match[1] === '-', units: BigInt(match[2]! + fraction) };
}

/** Movements (in the ledger's order) grouped by entry, each at its own created_at. */
function entriesOf(movements: readonly AccountMovement[]): Entry[] {
  const entries: Entry[] = [];
  let last: Entry | undefined;
  for (const movement of movements) {
    if (last?.id !== movement.entryId) {
      last = { id: movement.entryId, kind: movement.kind, timeMs: movement.createdAtMs, legs: [] };
      entries.push(last);
    }
    last.legs.push(ledgerLeg(movement.currency, movement.amount));
  }
  return entries;
}

/** 10^-8 USD units of a leg at a USD price (>= 0), rounded down. */
function usdUnits(leg: Leg, price: Amount): bigint {
  const shift = LOT_ASSET_SCALE + price.scale - lots.USD_DECIMALS;
  const product = leg.units * price.units;
  return shift >= 0 ? product / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
}

/** Recorded prices, asked once per currency and minute of one build; then the catalogue's reference price. */
function priceCache(priceAt: HistoricPrice) {
  const cache = new Map<string, Promise<Amount | null>>();
  return (currency: string, timeMs: number): Promise<Amount | null> => {
    const key = `${currency}@${Math.floor(timeMs / 60_000)}`;
    let price = cache.get(key);
    if (price === undefined) {
      price = priceAt(currency, timeMs).then((text) => {
        const parsed = parseDecimal(text ?? REFERENCE_PRICES_USD[currency] ?? '0', { maxScale: 30 });
        return parsed.ok && !isNegative(parsed.value) ? parsed.value : null;
      });
      cache.set(key, price);
    }
    return price;
  };
}

/**
 * The USD value of each non-USD leg of an entry. With a USD leg (a fill on a USD pair, a conversion
 * from or to USD) every leg is worth that leg, exactly: the USD paid including the fee for what
 * was bought, the USD received net of the fee for what was sold. An exchange of two assets is
 * worth what was received at its recorded price; a lone deposit or transfer in at its own. A
 * transfer out needs no value (it realises nothing). Without a USD leg only, a price is awaited.
 */
function legValues(entry: Entry, price: ReturnType<typeof priceCache>): Map<Leg, bigint> | Promise<Map<Leg, bigint>> {
  const usd = entry.legs.find((leg) => leg.currency === NUMERAIRE);
  if (usd === undefined) return pricedLegValues(entry, price);
  const whole = usd.units / ASSET_UNITS_PER_USD_UNIT;
  const values = new Map<Leg, bigint>();
  for (const leg of entry.legs) if (leg.currency !== NUMERAIRE) values.set(leg, whole);
  return values;
}

async function pricedLegValues(entry: Entry, price: ReturnType<typeof priceCache>): Promise<Map<Leg, bigint>> {
  const values = new Map<Leg, bigint>();
  const received = entry.legs.find((leg) => !leg.negative);
  const exchange = received !== undefined && entry.legs.some((leg) => leg.negative);
  const whole = exchange ? usdUnits(received, (await price(received.currency, entry.timeMs)) ?? ZERO) : null;
  for (const leg of entry.legs) {
    if (whole !== null) values.set(leg, whole);
    else if (leg.negative && DISPOSAL_KINDS[entry.kind] === 'transfer_out') values.set(leg, 0n);
    else values.set(leg, usdUnits(leg, (await price(leg.currency, entry.timeMs)) ?? ZERO));
  }
  return values;
}

const ZERO: Amount = { units: 0n, scale: 0 };

function lotEvent(entry: Entry, leg: Leg, valueUsd: bigint, timeMs: number): lots.LotEvent {
  // Object literals of one shape each (no spread): a cold build makes one per entry of the history.
  if (!leg.negative) {
    const kind = ACQUISITION_KINDS[entry.kind] ?? 'other';
    return { type: 'acquisition', id: entry.id, timeMs, amount: leg.units, kind, costUsd: valueUsd };
  }
  const kind = DISPOSAL_KINDS[entry.kind] ?? 'other';
  return { type: 'disposal', id: entry.id, timeMs, amount: leg.units, kind, proceedsUsd: valueUsd, feeUsd: 0n };
}

/**
 * Turns movements into each asset's lot events, page after page: the pages must follow each other
 * (each one's entries after the last one's, per currency), as wallet.movements gives them with a
 * cursor. An event's time is its entry's created_at, raised to the asset's event before it when two
 * transactions' clocks crossed (the engine needs chronological order; the entry id is the
 * tie-break). Per asset, not across assets: a page holds only what was committed since the last,
 * and writes to different balances may commit out of id order (wallet/movements.ts), so only one
 * asset's own events are sure to come in order; a whole history read at once gets the same times.
 */
export class LedgerLotFeed {
  private readonly lastTimeMs: Map<string, number>;

  /** clocks: each asset's last event time, as clocks() gave them (a checkpoint's), to go on from there. */
  constructor(clocks: ReadonlyMap<string, number> = new Map()) {
    this.lastTimeMs = new Map(clocks);
  }

  /** Each asset's last event time so far (a checkpoint keeps them with the books). */
  clocks(): Map<string, number> {
    return new Map(this.lastTimeMs);
  }

  /** Each asset's events of this page, in the ledger's order. Nothing changes when it throws. */
  async events(movements: readonly AccountMovement[], priceAt: HistoricPrice): Promise<Map<string, lots.LotEvent[]>> {
    const price = priceCache(priceAt);
    const histories = new Map<string, lots.LotEvent[]>();
    const lastTimeMs = new Map(this.lastTimeMs);
    for (const entry of entriesOf(movements)) {
      if (entry.legs.every((leg) => leg.currency === NUMERAIRE)) continue;
      const pending = legValues(entry, price);
      const values = pending instanceof Map ? pending : await pending;
      for (const [leg, value] of values) {
        const events = histories.get(leg.currency) ?? [];
        if (events.length === 0) histories.set(leg.currency, events);
        const timeMs = Math.max(lastTimeMs.get(leg.currency) ?? 0, entry.timeMs);
        lastTimeMs.set(leg.currency, timeMs);
        events.push(lotEvent(entry, leg, value, timeMs));
      }
    }
    for (const [currency, timeMs] of lastTimeMs) this.lastTimeMs.set(currency, timeMs);
    return histories;
  }
}

/** Each asset's events of a whole history, in the ledger's order. */
export function lotHistories(
  movements: readonly AccountMovement[],
  priceAt: HistoricPrice,
): Promise<Map<string, lots.LotEvent[]>> {
  return new LedgerLotFeed().events(movements, priceAt);
}
