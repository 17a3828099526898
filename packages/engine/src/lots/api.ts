/**
 * Cost-basis (lot) accounting for one asset: the contract between the engine's lot maths and the
 * server's portfolio module. Pure and deterministic, integers only (docs/portfolio.md).
 *
 * Units:
 * - an amount of the asset: bigint units at the asset's scale (10^-scale of one whole unit, scale
 *   0..18), always > 0 in an event;
 * - USD: bigint units of 10^-8 USD (USD_UNITS_PER_DOLLAR, the same as perp.MONEY_SCALE), >= 0 in an
 *   event; gains are signed;
 * - time: epoch milliseconds (an integer number), UTC.
 *
 * Rounding (docs/portfolio.md "Rounding"): every split of a whole (a lot's cost over the disposals
 * that consume it; a disposal's proceeds and fee over the lots it consumes; a holding's value over
 * its open lots) is cumulative: the first k units of a whole W of n units carry floor(W x k / n),
 * and a part is the difference of two such floors. The parts of one whole therefore always add up
 * to it exactly, each part is within one unit of its exact share, and the last part takes what is
 * left. The floor means a consumed part of a lot carries at most its exact cost (the realised gain
 * is never understated) and the lot's open remainder keeps the sub-unit rest.
 */

/** USD units per dollar: 10^-8 USD, as the futures code (perp.MONEY_SCALE). */
export const USD_UNITS_PER_DOLLAR = 100_000_000n;
/** Digits after the point of a USD amount. */
export const USD_DECIMALS = 8;

/** Most decimals of an asset: the ledger's NUMERIC(38, 18). */
export const MAX_ASSET_SCALE = 18;
/**
 * Largest absolute value of any amount or USD value in an event: 38 digits, the ledger's
 * NUMERIC(38, ...). It bounds the bigint work per event and keeps the HIFO ordering's float
 * pre-check (open-lots.ts) finite.
 */
export const MAX_UNITS = 10n ** 38n - 1n;
/**
 * Most events in one history. Every event may leave a lot and a row in memory (a few hundred bytes
 * each), so five million is about a gigabyte: past that the caller must split the work (per tax
 * year with carried-over open lots), not hand the engine more.
 */
export const MAX_EVENTS_PER_HISTORY = 5_000_000;
/**
 * Times lie in 1970-01-01 .. 9999-12-31 UTC: every one has a four-digit year, an ISO date in the
 * tax report, and a tax year whose end is still a valid JavaScript date.
 */
export const MIN_TIME_MS = 0;
export const MAX_TIME_MS = 253_402_300_799_999;

/** How disposals pick lots: first in first out (the default), last in first out, highest cost per unit first. */
export type LotMethod = 'fifo' | 'lifo' | 'hifo';
export const LOT_METHODS: readonly LotMethod[] = ['fifo', 'lifo', 'hifo'];
export const DEFAULT_LOT_METHOD: LotMethod = 'fifo';

/**
 * What a disposal larger than the open lots does.
 * - 'uncovered' (default): the part no lot covers becomes a row with no lot (lotId null) and a
 *   zero cost basis, counted in the totals' uncoveredAmount. A custodial ledger never lets a
 *   balance go negative, so this only happens when the history lacks an acquisition (a deposit
 *   before records began, a missing event kind); refusing would blank the user's whole portfolio
 *   and tax report over one gap, while a zero basis is the conservative tax reading (the gain is
 *   overstated, never understated) and stays visible as its own row.
 * - 'reject': the history fails with insufficient_lots (for checks that must prove coverage).
 */
export type ShortfallPolicy = 'uncovered' | 'reject';

export type AcquisitionKind = 'buy' | 'conversion_in' | 'deposit' | 'transfer_in' | 'other';
export type DisposalKind = 'sell' | 'conversion_out' | 'withdrawal' | 'transfer_out' | 'fee' | 'other';

/**
 * Something that adds to the holding: one lot.
 * amount: what was received, net of any fee taken in this asset (a buy whose fee is charged in the
 * base: the lot is the net amount received and its cost the whole USD paid, so the fee raises the
 * cost per unit). costUsd: the total USD value given for it, fees paid in USD or the quote
 * included (a deposit: its USD value when it was credited; a transfer in: its market value).
 */
export interface AcquisitionEvent {
  type: 'acquisition';
  id: string;
  timeMs: number;
  kind: AcquisitionKind;
  amount: bigint;
  costUsd: bigint;
}

/**
 * Something that takes from the holding: consumes lots.
 * amount: everything that left the holding, a fee charged in this asset included. proceedsUsd: the
 * gross USD value received (or, for a fee taken in this asset, its market value as well); feeUsd:
 * every fee of the disposal in USD (paid in the quote, or the market value of the part of amount
 * that was a fee). gain = proceeds - cost basis - fee; see docs/portfolio.md for the mapping.
 */
export interface DisposalEvent {
  type: 'disposal';
  id: string;
  timeMs: number;
  kind: DisposalKind;
  amount: bigint;
  proceedsUsd: bigint;
  feeUsd: bigint;
}

export type LotEvent = AcquisitionEvent | DisposalEvent;

/**
 * One asset's history in chronological order. Events with the same time keep the order given here
 * (the caller's own sequence, e.g. the ledger entry's): the index in `events` is the tie-break
 * everywhere (consumption order, HIFO ties), so the result depends on nothing else.
 */
export interface LotHistory {
  asset: string;
  /** Decimals of the asset's amounts, 0..18. */
  scale: number;
  events: readonly LotEvent[];
}

export interface LotOptions {
  method?: LotMethod;
  shortfall?: ShortfallPolicy;
  /**
   * false: make no realised rows (result.realised stays empty), only the open lots and the totals.
   * What a portfolio page needs; it skips most of the allocation of a long history. Default true.
   */
  realisedRows?: boolean;
}

/** An open lot. The cost and amount of the acquisition, and what is left of them. */
export interface OpenLot {
  lotId: string;
  kind: AcquisitionKind;
  acquiredTimeMs: number;
  /** Index of the acquisition in the history: the tie-break after time. */
  sequence: number;
  amount: bigint;
  costUsd: bigint;
  remainingAmount: bigint;
  remainingCostUsd: bigint;
}

/** One (disposal, lot) match. lotId null: the part of the disposal no lot covered (cost 0). */
export interface RealisedRow {
  disposalId: string;
  disposalKind: DisposalKind;
  lotId: string | null;
  acquisitionKind: AcquisitionKind | null;
  acquiredTimeMs: number | null;
  soldTimeMs: number;
  amount: bigint;
  proceedsUsd: bigint;
  costUsd: bigint;
  feeUsd: bigint;
  /** proceedsUsd - costUsd - feeUsd. */
  gainUsd: bigint;
}

export interface LotTotals {
  acquiredAmount: bigint;
  acquiredCostUsd: bigint;
  disposedAmount: bigint;
  proceedsUsd: bigint;
  feeUsd: bigint;
  /** Cost basis of the disposed amount (the consumed parts of lots). */
  consumedCostUsd: bigint;
  realisedGainUsd: bigint;
  openAmount: bigint;
  openCostUsd: bigint;
  /** Disposed amount that no lot covered (ShortfallPolicy 'uncovered'). */
  uncoveredAmount: bigint;
}

export interface LotResult {
  ok: true;
  asset: string;
  scale: number;
  method: LotMethod;
  /** In the order the disposals happened; within a disposal, in the order its lots were consumed. */
  realised: RealisedRow[];
  /** In acquisition order. */
  openLots: OpenLot[];
  totals: LotTotals;
}

export type LotErrorReason =
  | 'invalid_scale'
  | 'unknown_method'
  | 'unknown_shortfall_policy'
  | 'too_many_events'
  | 'invalid_event'
  | 'invalid_time'
  | 'events_out_of_order'
  | 'invalid_amount'
  | 'invalid_value'
  | 'duplicate_event_id'
  | 'insufficient_lots'
  /** LotBook.restore: a snapshot out of shape, of another version, or inconsistent. */
  | 'invalid_snapshot';

export interface LotError {
  ok: false;
  reason: LotErrorReason;
  /** The event at fault (absent for a fault of the history as a whole). */
  eventId?: string;
  eventIndex?: number;
  /** insufficient_lots: the part of the disposal no lot covers. */
  shortfallAmount?: bigint;
  message: string;
}
