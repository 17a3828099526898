import {
  type AcquisitionEvent,
  DEFAULT_LOT_METHOD,
  type DisposalEvent,
  type LotError,
  type LotEvent,
  type LotHistory,
  type LotMethod,
  type LotOptions,
  type LotResult,
  type LotTotals,
  MAX_EVENTS_PER_HISTORY,
  type OpenLot,
  type RealisedRow,
  type ShortfallPolicy,
} from './api.ts';
import { createOpenLotQueue, type LotState, type OpenLotQueue } from './open-lots.ts';
import { decodeLotBook, encodeLotBook, type LotBookSnapshot } from './snapshot.ts';
import { checkEvent, checkMethod, checkScale, lotError } from './validate.ts';

/**
 * The share of a whole carried by the first `part` of `count` units: floor(whole x part / count),
 * and exactly the whole at part = count. Successive differences of it split a whole into parts that
 * add up to it exactly, each within one unit of its exact share (api.ts, rounding). Every operand
 * is >= 0, so bigint division (towards zero) is the floor.
 */
export function cumulativeShare(whole: bigint, part: bigint, count: bigint): bigint {
  return part === count ? whole : (whole * part) / count;
}

export type LotApplyResult = { ok: true; rows: readonly RealisedRow[] } | LotError;

/**
 * a + b without a new bigint when a is 0. A long history keeps every row, and V8 allocates a heap
 * object for every bigint result, so the hot path skips the additions it can (docs/portfolio.md,
 * performance).
 */
const plus = (a: bigint, b: bigint): bigint => (a === 0n ? b : a + b);

/**
 * One asset's lots, fed one event at a time (so a caller can stream a long history, or carry the
 * book across pages). apply() either takes the whole event or, on a named error, changes nothing.
 */
export class LotBook {
  readonly method: LotMethod;
  readonly shortfall: ShortfallPolicy;
  private readonly open: OpenLotQueue;
  private readonly seenIds = new Set<string>();
  private lastTimeMs = Number.NEGATIVE_INFINITY;
  private eventCount = 0;
  // Running sums, kept per event rather than per row; totals() derives the rest from them.
  private acquiredAmount = 0n;
  private acquiredCostUsd = 0n;
  private disposedAmount = 0n;
  private proceedsUsd = 0n;
  private feeUsd = 0n;
  private consumedCostUsd = 0n;
  private uncoveredAmount = 0n;
  /** One disposal's progress, reused: no object per disposal. */
  private readonly split: DisposalSplit = { taken: 0n, proceeds: 0n, fee: 0n };

  private constructor(method: LotMethod, shortfall: ShortfallPolicy) {
    this.method = method;
    this.shortfall = shortfall;
    this.open = createOpenLotQueue(method);
  }

  static create(options: LotOptions = {}): LotBook | LotError {
    const method = options.method ?? DEFAULT_LOT_METHOD;
    if (!checkMethod(method)) return lotError('unknown_method', `unknown lot method ${String(method)}`);
    const shortfall = options.shortfall ?? 'uncovered';
    if (shortfall !== 'uncovered' && shortfall !== 'reject') {
      return lotError('unknown_shortfall_policy', `unknown shortfall policy ${String(shortfall)}`);
    }
    return new LotBook(method, shortfall);
  }

  /**
   * The book's state as plain JSON (snapshot.ts): restore() of it, then apply() of the events that
   * follow, gives exactly the rows, open lots and totals of one pass. Pure: the book is unchanged.
   * The ids of events whose lots are closed are not kept (they would make a snapshot as large as the
   * history): a restored book refuses a duplicate of an open lot's id or of an id applied after it,
   * not of an older one (docs/portfolio.md "Checkpoints").
   */
  snapshot(): LotBookSnapshot {
    return encodeLotBook({
      method: this.method,
      shortfall: this.shortfall,
      events: this.eventCount,
      lastTimeMs: this.lastTimeMs,
      sums: [
        this.acquiredAmount,
        this.acquiredCostUsd,
        this.disposedAmount,
        this.proceedsUsd,
        this.feeUsd,
        this.consumedCostUsd,
        this.uncoveredAmount,
      ],
      lots: this.open.inAcquisitionOrder(),
    });
  }

  /** A book from a snapshot, or `invalid_snapshot` (another version, out of shape, inconsistent). */
  static restore(snapshot: unknown): LotBook | LotError {
    const state = decodeLotBook(snapshot);
    if ('ok' in state) return state;
    const book = new LotBook(state.method, state.shortfall);
    for (const lot of state.lots) {
      book.open.add(lot);
      book.seenIds.add(lot.lotId);
    }
    book.eventCount = state.events;
    book.lastTimeMs = state.lastTimeMs;
    const [acquiredAmount, acquiredCostUsd, disposedAmount, proceedsUsd, feeUsd, consumedCostUsd, uncoveredAmount] =
      state.sums as [bigint, bigint, bigint, bigint, bigint, bigint, bigint];
    book.acquiredAmount = acquiredAmount;
    book.acquiredCostUsd = acquiredCostUsd;
    book.disposedAmount = disposedAmount;
    book.proceedsUsd = proceedsUsd;
    book.feeUsd = feeUsd;
    book.consumedCostUsd = consumedCostUsd;
    book.uncoveredAmount = uncoveredAmount;
    return book;
  }

  apply(event: LotEvent): LotApplyResult {
    const rows: RealisedRow[] = [];
    const error = this.applyInto(event, rows);
    return error ?? { ok: true, rows };
  }

  /**
   * apply(), appending the rows to `sink` (computeLots' loop, without an array per event), or
   * making no rows at all when sink is null (open lots and totals only: the portfolio's case).
   */
  applyInto(event: LotEvent, sink: RealisedRow[] | null): LotError | null {
    const index = this.eventCount;
    const invalid = checkEvent(event, index) ?? this.checkPlace(event, index);
    if (invalid) return invalid;
    if (event.type === 'disposal' && this.shortfall === 'reject') {
      const openAmount = this.openAmount();
      if (event.amount > openAmount) {
        this.seenIds.delete(event.id);
        const shortfallAmount = event.amount - openAmount;
        const message = `disposal ${event.id} exceeds the open lots by ${shortfallAmount} units`;
        return lotError('insufficient_lots', message, { id: event.id, index }, shortfallAmount);
      }
    }
    this.eventCount++;
    this.lastTimeMs = event.timeMs;
    if (event.type === 'acquisition') this.acquire(event, index);
    else this.dispose(event, sink);
    return null;
  }

  /** The open lots, in acquisition order. */
  openLots(): OpenLot[] {
    return this.open.inAcquisitionOrder().map((lot) => ({
      lotId: lot.lotId,
      kind: lot.kind,
      acquiredTimeMs: lot.acquiredTimeMs,
      sequence: lot.sequence,
      amount: lot.amount,
      costUsd: lot.costUsd,
      remainingAmount: lot.amount - lot.consumedAmount,
      remainingCostUsd: lot.costUsd - lot.consumedCostUsd,
    }));
  }

  /**
   * The sums. Every row's gain is proceeds - cost - fee of that row, and the rows of a disposal
   * split its proceeds and fee exactly, so Σ gains = proceeds - consumed cost - fees holds exactly
   * (the property tests check it against the rows themselves).
   */
  totals(): LotTotals {
    return {
      acquiredAmount: this.acquiredAmount,
      acquiredCostUsd: this.acquiredCostUsd,
      disposedAmount: this.disposedAmount,
      proceedsUsd: this.proceedsUsd,
      feeUsd: this.feeUsd,
      consumedCostUsd: this.consumedCostUsd,
      realisedGainUsd: this.proceedsUsd - this.consumedCostUsd - this.feeUsd,
      openAmount: this.openAmount(),
      openCostUsd: this.acquiredCostUsd - this.consumedCostUsd,
      uncoveredAmount: this.uncoveredAmount,
    };
  }

  private openAmount(): bigint {
    return this.acquiredAmount - (this.disposedAmount - this.uncoveredAmount);
  }

  private checkPlace(event: LotEvent, index: number): LotError | null {
    if (index >= MAX_EVENTS_PER_HISTORY) {
      const message = `a history holds at most ${MAX_EVENTS_PER_HISTORY} events`;
      return lotError('too_many_events', message, { id: event.id, index });
    }
    if (event.timeMs < this.lastTimeMs) {
      const message = `event ${event.id} is earlier than the event before it`;
      return lotError('events_out_of_order', message, { id: event.id, index });
    }
    // Add, then look at the size: one hash lookup instead of has() and add(). Only a valid event
    // reaches the book's state, so the id is taken out again if a later check refuses the event.
    const idsBefore = this.seenIds.size;
    this.seenIds.add(event.id);
    if (this.seenIds.size === idsBefore) {
      return lotError('duplicate_event_id', `event id ${event.id} appears twice`, { id: event.id, index });
    }
    return null;
  }

  private acquire(event: AcquisitionEvent, sequence: number): void {
    this.open.add({
      lotId: event.id,
      kind: event.kind,
      acquiredTimeMs: event.timeMs,
      sequence,
      amount: event.amount,
      costUsd: event.costUsd,
      unitCostEstimate: Number(event.costUsd) / Number(event.amount),
      consumedAmount: 0n,
      consumedCostUsd: 0n,
    });
    this.acquiredAmount = plus(this.acquiredAmount, event.amount);
    this.acquiredCostUsd = plus(this.acquiredCostUsd, event.costUsd);
  }

  /**
   * Consumes lots from the front of the queue until the disposal is covered. The disposal's proceeds
   * and fee are split over its rows by cumulative share of its amount, and each lot's cost by
   * cumulative share of the lot's amount, so both add up exactly (api.ts, rounding).
   */
  private dispose(event: DisposalEvent, sink: RealisedRow[] | null): void {
    const split = this.split;
    split.taken = 0n;
    split.proceeds = 0n;
    split.fee = 0n;
    while (split.taken < event.amount) {
      const lot = this.open.front();
      if (lot === undefined) break;
      const lotLeft = lot.consumedAmount === 0n ? lot.amount : lot.amount - lot.consumedAmount;
      const wanted = split.taken === 0n ? event.amount : event.amount - split.taken;
      const take = wanted < lotLeft ? wanted : lotLeft;
      const consumed = plus(lot.consumedAmount, take);
      const consumedCost = cumulativeShare(lot.costUsd, consumed, lot.amount);
      const costUsd = lot.consumedCostUsd === 0n ? consumedCost : consumedCost - lot.consumedCostUsd;
      lot.consumedAmount = consumed;
      lot.consumedCostUsd = consumedCost;
      if (consumed === lot.amount) this.open.removeFront();
      this.consumedCostUsd = plus(this.consumedCostUsd, costUsd);
      split.taken = plus(split.taken, take);
      if (sink) sink.push(rowOf(event, split, take, costUsd, lot));
    }
    const uncovered = event.amount - split.taken;
    if (uncovered > 0n) {
      // Only under the 'uncovered' policy: 'reject' refused the event before anything changed.
      split.taken = event.amount;
      if (sink) sink.push(rowOf(event, split, uncovered, 0n, null));
      this.uncoveredAmount += uncovered;
    }
    this.disposedAmount = plus(this.disposedAmount, event.amount);
    this.proceedsUsd = plus(this.proceedsUsd, event.proceedsUsd);
    this.feeUsd = plus(this.feeUsd, event.feeUsd);
  }
}

/** How much of a disposal's amount, proceeds and fee its rows so far have taken. */
interface DisposalSplit {
  taken: bigint;
  proceeds: bigint;
  fee: bigint;
}

/**
 * The next row of a disposal: `amount` more of it (split.taken already counts it), matched with
 * `lot` (null: uncovered) at `costUsd`; its proceeds and fee are the growth of their cumulative shares.
 */
function rowOf(
  event: DisposalEvent,
  split: DisposalSplit,
  amount: bigint,
  costUsd: bigint,
  lot: LotState | null,
): RealisedRow {
  const proceedsSoFar = cumulativeShare(event.proceedsUsd, split.taken, event.amount);
  const feeSoFar = cumulativeShare(event.feeUsd, split.taken, event.amount);
  const proceedsUsd = split.proceeds === 0n ? proceedsSoFar : proceedsSoFar - split.proceeds;
  const feeUsd = split.fee === 0n ? feeSoFar : feeSoFar - split.fee;
  split.proceeds = proceedsSoFar;
  split.fee = feeSoFar;
  return {
    disposalId: event.id,
    disposalKind: event.kind,
    lotId: lot ? lot.lotId : null,
    acquisitionKind: lot ? lot.kind : null,
    acquiredTimeMs: lot ? lot.acquiredTimeMs : null,
    soldTimeMs: event.timeMs,
    amount,
    proceedsUsd,
    costUsd,
    feeUsd,
    gainUsd: proceedsUsd - costUsd - feeUsd,
  };
}

/**
 * Runs a whole history through a LotBook: every realised row, the open lots and the totals, or the
 * first named error (with the event at fault).
 */
export function computeLots(history: LotHistory, options: LotOptions = {}): LotResult | LotError {
  const badScale = checkScale(history.scale);
  if (badScale) return badScale;
  if (history.events.length > MAX_EVENTS_PER_HISTORY) {
    return lotError('too_many_events', `a history holds at most ${MAX_EVENTS_PER_HISTORY} events`);
  }
  const book = LotBook.create(options);
  if (!(book instanceof LotBook)) return book;
  const realised: RealisedRow[] = [];
  const sink = options.realisedRows === false ? null : realised;
  for (const event of history.events) {
    const error = book.applyInto(event, sink);
    if (error) return error;
  }
  return {
    ok: true,
    asset: history.asset,
    scale: history.scale,
    method: book.method,
    realised,
    openLots: book.openLots(),
    totals: book.totals(),
  };
}
