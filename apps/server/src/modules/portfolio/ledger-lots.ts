import { REFERENCE_PRICES_USD } from '@platform/contracts';
import { lots } from '@platform/engine';
import { type Amount, abs, isNegative, mulToScale, negate, parseDecimal, toScale } from '@platform/money';
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

type Leg = { currency: string; amount: Amount; units: bigint };
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

/** A signed ledger sum (parseDecimal reads magnitudes only). */
function ledgerAmount(text: string): Amount {
  const negative = text.startsWith('-');
  const parsed = parseDecimal(negative ? text.slice(1) : text, { maxScale: LOT_ASSET_SCALE, maxIntegerDigits: 38 });
  if (!parsed.ok) throw new Error(`ledger amount out of range: ${text}`);
  return negative ? negate(parsed.value) : parsed.value;
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
    const amount = ledgerAmount(movement.amount);
    last.legs.push({ currency: movement.currency, amount, units: toScale(abs(amount), LOT_ASSET_SCALE, 'down').units });
  }
  return entries;
}

/** 10^-8 USD units of an amount at a USD price, rounded down. */
function usdUnits(amount: Amount, price: Amount): bigint {
  return mulToScale(abs(amount), price, lots.USD_DECIMALS, 'down').units;
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
 * transfer out needs no value (it realises nothing).
 */
async function legValues(entry: Entry, price: ReturnType<typeof priceCache>): Promise<Map<Leg, bigint>> {
  const values = new Map<Leg, bigint>();
  const assets = entry.legs.filter((leg) => leg.currency !== NUMERAIRE);
  const usd = entry.legs.find((leg) => leg.currency === NUMERAIRE);
  const received = assets.find((leg) => !isNegative(leg.amount));
  const exchange = received !== undefined && assets.some((leg) => isNegative(leg.amount));
  const whole =
    usd !== undefined
      ? toScale(abs(usd.amount), lots.USD_DECIMALS, 'down').units
      : exchange
        ? usdUnits(received.amount, (await price(received.currency, entry.timeMs)) ?? ZERO)
        : null;
  for (const leg of assets) {
    if (whole !== null) values.set(leg, whole);
    else if (isNegative(leg.amount) && DISPOSAL_KINDS[entry.kind] === 'transfer_out') values.set(leg, 0n);
    else values.set(leg, usdUnits(leg.amount, (await price(leg.currency, entry.timeMs)) ?? ZERO));
  }
  return values;
}

const ZERO: Amount = { units: 0n, scale: 0 };

function lotEvent(entry: Entry, leg: Leg, valueUsd: bigint, timeMs: number): lots.LotEvent {
  const base = { id: entry.id, timeMs, amount: leg.units };
  if (!isNegative(leg.amount)) {
    return { ...base, type: 'acquisition', kind: ACQUISITION_KINDS[entry.kind] ?? 'other', costUsd: valueUsd };
  }
  const kind = DISPOSAL_KINDS[entry.kind] ?? 'other';
  return { ...base, type: 'disposal', kind, proceedsUsd: valueUsd, feeUsd: 0n };
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
  private readonly lastTimeMs = new Map<string, number>();

  /** Each asset's events of this page, in the ledger's order. Nothing changes when it throws. */
  async events(movements: readonly AccountMovement[], priceAt: HistoricPrice): Promise<Map<string, lots.LotEvent[]>> {
    const price = priceCache(priceAt);
    const histories = new Map<string, lots.LotEvent[]>();
    const lastTimeMs = new Map(this.lastTimeMs);
    for (const entry of entriesOf(movements)) {
      if (entry.legs.every((leg) => leg.currency === NUMERAIRE)) continue;
      const values = await legValues(entry, price);
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
