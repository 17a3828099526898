import {
  type AcquisitionKind,
  LOT_METHODS,
  type LotError,
  type LotMethod,
  MAX_EVENTS_PER_HISTORY,
  MAX_TIME_MS,
  MAX_UNITS,
  MIN_TIME_MS,
  type ShortfallPolicy,
} from './api.ts';
import type { LotState } from './open-lots.ts';
import { lotError, MAX_EVENT_ID_LENGTH } from './validate.ts';

/**
 * A LotBook's state as plain JSON (docs/portfolio.md "Checkpoints"): what `apply` needs to go on
 * exactly where the book stopped. Bumped whenever the layout or the meaning of a field changes; a
 * snapshot of another version is refused (its holder rebuilds from the history).
 */
export const LOT_BOOK_SNAPSHOT_VERSION = 1;

/**
 * Columnar, to stay small with tens of thousands of open lots: one array per field, lots in
 * acquisition order. Amounts and USD values are decimal strings, trailing zeros as an exponent
 * (`45e14`: amounts at 18 decimals end in many zeros); times and sequences as differences from the
 * lot before (both grow with acquisition order); kinds one letter each; the consumed part only for
 * the lots a disposal has begun (at most the front lot under each method, in practice).
 */
export interface LotBookSnapshot {
  version: number;
  method: LotMethod;
  shortfall: ShortfallPolicy;
  /** Events applied so far (the next acquisition's sequence). */
  events: number;
  /** Time of the last event applied; null before the first. */
  lastTimeMs: number | null;
  /** acquiredAmount, acquiredCostUsd, disposedAmount, proceedsUsd, feeUsd, consumedCostUsd, uncoveredAmount. */
  sums: string[];
  lots: {
    ids: string[];
    kinds: string;
    timesMs: number[];
    sequences: number[];
    amounts: string[];
    costsUsd: string[];
    /** [index in these arrays, consumed amount, consumed cost] of partly consumed lots. */
    consumed: [number, string, string][];
  };
}

/** The state a snapshot carries, checked; LotBook.restore puts it in place. */
export interface LotBookState {
  method: LotMethod;
  shortfall: ShortfallPolicy;
  events: number;
  lastTimeMs: number;
  sums: bigint[];
  lots: LotState[];
}

const KIND_LETTERS: Record<AcquisitionKind, string> = {
  buy: 'b',
  conversion_in: 'c',
  deposit: 'd',
  transfer_in: 't',
  other: 'o',
};
const KINDS_BY_LETTER = new Map(
  Object.entries(KIND_LETTERS).map(([kind, letter]) => [letter, kind as AcquisitionKind]),
);
const SUM_COUNT = 7;

/** Decimal text of units >= 0, trailing zeros (three or more) written as an exponent. */
export function unitsText(units: bigint): string {
  const text = units.toString();
  let zeros = 0;
  while (zeros < text.length - 1 && text.charCodeAt(text.length - 1 - zeros) === 48) zeros++;
  return zeros < 3 ? text : `${text.slice(0, text.length - zeros)}e${zeros}`;
}

/** 10^0 .. 10^99 (a restore parses two per lot: no power computed per value). */
const POWERS_OF_TEN = Array.from({ length: 100 }, (_, exponent) => 10n ** BigInt(exponent));
const UNITS_TEXT = /^(0|[1-9][0-9]{0,37})(?:e([1-9][0-9]?))?$/;

/** unitsText back to units, or null when it is not one (or exceeds the engine's limit). */
export function parseUnitsText(text: unknown): bigint | null {
  if (typeof text !== 'string') return null;
  const match = UNITS_TEXT.exec(text);
  if (match === null) return null;
  const exponent = match[2];
  const units =
    exponent === undefined ? BigInt(match[1]!) : BigInt(match[1]!) * (POWERS_OF_TEN[Number(exponent)] ?? 0n);
  return units <= MAX_UNITS ? units : null;
}

/** The snapshot of a book's state (lots in acquisition order). */
export function encodeLotBook(state: LotBookState): LotBookSnapshot {
  const lots: LotBookSnapshot['lots'] = {
    ids: [],
    kinds: '',
    timesMs: [],
    sequences: [],
    amounts: [],
    costsUsd: [],
    consumed: [],
  };
  let kinds = '';
  let previousTimeMs = 0;
  let previousSequence = 0;
  state.lots.forEach((lot, index) => {
    lots.ids.push(lot.lotId);
    kinds += KIND_LETTERS[lot.kind];
    lots.timesMs.push(lot.acquiredTimeMs - previousTimeMs);
    lots.sequences.push(lot.sequence - previousSequence);
    previousTimeMs = lot.acquiredTimeMs;
    previousSequence = lot.sequence;
    lots.amounts.push(unitsText(lot.amount));
    lots.costsUsd.push(unitsText(lot.costUsd));
    if (lot.consumedAmount !== 0n) {
      lots.consumed.push([index, unitsText(lot.consumedAmount), unitsText(lot.consumedCostUsd)]);
    }
  });
  lots.kinds = kinds;
  return {
    version: LOT_BOOK_SNAPSHOT_VERSION,
    method: state.method,
    shortfall: state.shortfall,
    events: state.events,
    lastTimeMs: state.events === 0 ? null : state.lastTimeMs,
    sums: state.sums.map(unitsText),
    lots,
  };
}

const invalid = (message: string): LotError => lotError('invalid_snapshot', `lot book snapshot: ${message}`);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= max;

/** The header of a snapshot: version, method, policy, counters and sums. */
function decodeHeader(value: unknown): Omit<LotBookState, 'lots'> | LotError {
  if (!isRecord(value)) return invalid('not an object');
  if (value.version !== LOT_BOOK_SNAPSHOT_VERSION) return invalid(`version ${String(value.version)} is not ours`);
  if (!(LOT_METHODS as readonly unknown[]).includes(value.method)) return invalid('unknown method');
  if (value.shortfall !== 'uncovered' && value.shortfall !== 'reject') return invalid('unknown shortfall policy');
  if (!isCount(value.events, MAX_EVENTS_PER_HISTORY)) return invalid('event count out of range');
  const noEvents = value.events === 0;
  const lastTimeValid = noEvents
    ? value.lastTimeMs === null
    : isCount(value.lastTimeMs, MAX_TIME_MS) && value.lastTimeMs >= MIN_TIME_MS;
  if (!lastTimeValid) return invalid('last event time out of range');
  if (!Array.isArray(value.sums) || value.sums.length !== SUM_COUNT) return invalid('sums out of shape');
  const sums = value.sums.map(parseUnitsText);
  if (sums.some((sum) => sum === null)) return invalid('a sum is not a unit count');
  return {
    method: value.method as LotMethod,
    shortfall: value.shortfall,
    events: value.events,
    lastTimeMs: noEvents ? Number.NEGATIVE_INFINITY : (value.lastTimeMs as number),
    sums: sums as bigint[],
  };
}

/** The lot arrays, each lot checked on its own and against the one before it. */
function decodeLots(value: unknown, header: Omit<LotBookState, 'lots'>): LotState[] | LotError {
  if (!isRecord(value)) return invalid('lots out of shape');
  const { ids, kinds, timesMs, sequences, amounts, costsUsd, consumed } = value;
  if (!Array.isArray(ids) || typeof kinds !== 'string' || !Array.isArray(consumed)) return invalid('lots out of shape');
  const count = ids.length;
  const columns = [timesMs, sequences, amounts, costsUsd];
  if (kinds.length !== count || columns.some((column) => !Array.isArray(column) || column.length !== count)) {
    return invalid('lot columns of different lengths');
  }
  const lots: LotState[] = [];
  let timeMs = 0;
  let sequence = 0;
  for (let index = 0; index < count; index++) {
    const lotId = ids[index];
    const kind = KINDS_BY_LETTER.get(kinds[index]!);
    const timeStep = (timesMs as unknown[])[index];
    const sequenceStep = (sequences as unknown[])[index];
    const amount = parseUnitsText((amounts as unknown[])[index]);
    const costUsd = parseUnitsText((costsUsd as unknown[])[index]);
    if (typeof lotId !== 'string' || lotId.length === 0 || lotId.length > MAX_EVENT_ID_LENGTH) return invalid('lot id');
    if (kind === undefined || amount === null || amount === 0n || costUsd === null) return invalid(`lot ${lotId}`);
    if (!isCount(timeStep, MAX_TIME_MS) || !isCount(sequenceStep, MAX_EVENTS_PER_HISTORY))
      return invalid(`lot ${lotId}`);
    if (index > 0 && sequenceStep === 0) return invalid(`lot ${lotId}: sequences must grow`);
    timeMs += timeStep;
    sequence += sequenceStep;
    if (timeMs > header.lastTimeMs || sequence >= header.events) return invalid(`lot ${lotId} after the last event`);
    const unitCostEstimate = Number(costUsd) / Number(amount);
    lots.push({
      lotId,
      kind,
      acquiredTimeMs: timeMs,
      sequence,
      amount,
      costUsd,
      unitCostEstimate,
      consumedAmount: 0n,
      consumedCostUsd: 0n,
    });
  }
  return applyConsumed(lots, consumed);
}

/**
 * The consumed parts, each checked against the rounding rule that made it (the consumed cost is
 * floor(cost x consumed / amount), api.ts), so a tampered part is refused, not carried on.
 */
function applyConsumed(lots: LotState[], consumed: unknown[]): LotState[] | LotError {
  let previous = -1;
  for (const entry of consumed) {
    if (!Array.isArray(entry) || entry.length !== 3 || !isCount(entry[0], lots.length - 1) || entry[0] <= previous) {
      return invalid('consumed parts out of shape');
    }
    previous = entry[0];
    const lot = lots[entry[0]]!;
    const amount = parseUnitsText(entry[1]);
    const costUsd = parseUnitsText(entry[2]);
    if (
      amount === null ||
      amount === 0n ||
      amount >= lot.amount ||
      costUsd !== (lot.costUsd * (amount ?? 0n)) / lot.amount
    ) {
      return invalid(`consumed part of lot ${lot.lotId}`);
    }
    lot.consumedAmount = amount;
    lot.consumedCostUsd = costUsd;
  }
  return lots;
}

/**
 * A snapshot back to a book's state, or `invalid_snapshot` when anything is out of shape, of another
 * version, or inconsistent (the open lots must add up to the open amount and cost the sums give;
 * lot ids unique). The input is data from outside (a database row), checked field by field.
 */
export function decodeLotBook(value: unknown): LotBookState | LotError {
  const header = decodeHeader(value);
  if ('ok' in header) return header;
  const lots = decodeLots((value as Record<string, unknown>).lots, header);
  if (!Array.isArray(lots)) return lots;
  const [acquiredAmount, acquiredCostUsd, disposedAmount, , , consumedCostUsd, uncoveredAmount] = header.sums as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  let openAmount = 0n;
  let openCostUsd = 0n;
  const ids = new Set<string>();
  for (const lot of lots) {
    openAmount += lot.amount - lot.consumedAmount;
    openCostUsd += lot.costUsd - lot.consumedCostUsd;
    ids.add(lot.lotId);
  }
  if (ids.size !== lots.length) return invalid('a lot id appears twice');
  if (
    openAmount !== acquiredAmount - (disposedAmount - uncoveredAmount) ||
    openCostUsd !== acquiredCostUsd - consumedCostUsd
  ) {
    return invalid('the open lots do not add up to the sums');
  }
  return { ...header, lots };
}
