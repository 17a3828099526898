import { perp } from '@platform/engine';
import type { Logger } from '../../logger.ts';
import type { NewNotification } from '../notifications/service.ts';
import type { Batch } from './batch.ts';
import type { FuturesCore } from './exchange.ts';
import { type LiquidateCommand, type LiquidationOutcome, underMaintenance } from './liquidation.ts';
import {
  crossAccountState,
  liquidationNotices,
  type MarginCalls,
  marginCallNotice,
  type Notifier,
} from './margin-calls.ts';
import type { MarkOf } from './risk.ts';
import type { FuturesState } from './state.ts';
import type { PositionState } from './types.ts';

/** A mark source that announces its updates (modules/futures/marks.ts does); without one the watch polls. */
export interface MarkUpdates {
  onMark?(listener: (marketId: string) => void): () => void;
  /** True while the market's index is older than the cut-off (marks.ts); a source without it is never stale. */
  indexStale?(marketId: string): boolean;
}

export interface LiquidationWatchDeps {
  core: FuturesCore;
  markOf: MarkOf;
  marks?: MarkUpdates | undefined;
  clock: () => Date;
  log: Logger;
  /** Stores notifications with a liquidation's batch ("position liquidated", "position deleveraged"). */
  notify?: Notifier | undefined;
  /** Margin calls, and how to send them (outside any batch). */
  marginCalls?: { calls: MarginCalls; send: (rows: NewNotification[]) => Promise<void> } | undefined;
  /** Poll period without mark updates, ms (1 s). */
  pollMs?: number;
}

type Candidate = { accountId: string; marketId: string };

/** The least time between two passes caused by committed batches. */
const AFTER_BATCH_MS = 50;

/** How long a liquidation whose batch failed waits before it is submitted again. */
const RETRY_AFTER_MS = 5_000;

/**
 * The liquidation engine's watch: on every mark update (or every second without a mark source that
 * announces them) and after every committed batch (fills, funding, margin moves), finds every
 * position under maintenance at the mark (never the last trade) and submits one `liquidate` command
 * per (account, market) not already in flight. Isolated positions are narrowed per market with a
 * perp.LiquidationIndex (kept current from what each committed batch moved: an isolated position's
 * collateral only changes with its own row), then confirmed with the exact rule;
 * cross accounts are checked with the exact rule over their cross positions (their collateral moves
 * with every market's mark, which an index by price cannot follow).
 */
export class LiquidationWatch {
  private readonly indexes = new Map<string, MarketIndex>();
  private indexedState: FuturesState | null = null;
  /** Positions (`account|market`) moved by the batches committed since the last check. */
  private readonly moved = new Set<string>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** (account, market) whose last command failed to be written: not retried before this time (ms). */
  private readonly backoff = new Map<string, number>();
  /** Markets whose index is stale, as of the last pass (warned once per stale period). */
  private readonly staleMarkets = new Set<string>();
  private scheduled = false;
  private callsDue = false;
  private readonly stops: (() => void)[] = [];

  constructor(private readonly deps: LiquidationWatchDeps) {}

  start(): void {
    const { marks, core } = this.deps;
    if (marks?.onMark) this.stops.push(marks.onMark(() => this.schedule()));
    else {
      const timer = setInterval(() => this.schedule(), this.deps.pollMs ?? 1_000);
      timer.unref?.();
      this.stops.push(() => clearInterval(timer));
    }
    this.stops.push(
      core.onCommitted((batch) => {
        this.committed(batch);
        this.schedule(true);
      }),
    );
    this.schedule();
  }

  /** Stops watching and waits for the commands in flight. */
  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /**
   * A pass soon: at once after a mark update (with the margin calls), at most every
   * AFTER_BATCH_MS after committed batches (liquidations only), so that a busy order flow does
   * not run a pass per batch.
   */
  private schedule(afterBatch = false): void {
    if (!afterBatch) this.callsDue = true;
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      const withCalls = this.callsDue;
      this.callsDue = false;
      try {
        this.check(withCalls);
      } catch (error) {
        this.deps.log.error({ err: error }, 'futures liquidation check failed');
      }
    };
    if (afterBatch) setTimeout(run, AFTER_BATCH_MS).unref?.();
    else setImmediate(run);
  }

  /** One pass: submits the liquidations due and (withCalls) sends the margin calls due. Returns the commands submitted. */
  check(withCalls = true): Promise<unknown>[] {
    const stale = this.staleNow();
    const candidates = this.candidates(stale);
    const markets = candidates.length > 0 ? openMarketsByAccount(this.deps.core.state) : new Map<string, string[]>();
    const submitted = candidates.map((candidate) => this.submit(candidate, markets.get(candidate.accountId) ?? []));
    const calls = this.deps.marginCalls;
    if (calls && withCalls) {
      const state = this.deps.core.state;
      const now = this.deps.clock();
      const rows = calls.calls
        .check(state, this.deps.markOf, (marketId) => stale.has(marketId))
        .map((call) => marginCallNotice(state, call, now));
      if (rows.length > 0) {
        calls.send(rows).catch((error: unknown) => this.deps.log.error({ err: error }, 'margin call not sent'));
      }
    }
    return submitted.filter((p): p is Promise<unknown> => p !== null);
  }

  /**
   * The markets whose index is stale now. The first pass that sees one stale warns, and the first
   * that sees it fresh again says so: one warning per market per stale period.
   */
  staleNow(): ReadonlySet<string> {
    const indexStale = this.deps.marks?.indexStale?.bind(this.deps.marks);
    if (!indexStale) return this.staleMarkets;
    for (const marketId of this.deps.core.state.markets.keys()) {
      const stale = indexStale(marketId);
      if (stale === this.staleMarkets.has(marketId)) continue;
      if (stale) {
        this.staleMarkets.add(marketId);
        this.deps.log.warn(
          { market: marketId },
          'futures index stale: no price source answered within FUTURES_INDEX_STALE_MS; liquidations and margin calls paused in this market',
        );
      } else {
        this.staleMarkets.delete(marketId);
        this.deps.log.info({ market: marketId }, 'futures index fresh again: liquidations resume');
      }
    }
    return this.staleMarkets;
  }

  /**
   * Every (account, market) under maintenance at the current marks, not already in flight. Nothing
   * in a market whose index is stale (`stale`, from staleNow): its last mark may be far from the
   * market; a cross account holding a position in such a market is left alone altogether, since
   * its margin balance counts that mark.
   */
  candidates(stale: ReadonlySet<string> = this.staleNow()): Candidate[] {
    const state = this.deps.core.state;
    if (this.indexedState !== state) this.rebuild(state);
    else this.catchUp(state);
    const found = new Map<string, Candidate>();
    const now = this.deps.clock().getTime();
    const add = (accountId: string, marketId: string) => {
      const key = `${accountId}|${marketId}`;
      if (this.inFlight.has(key) || (this.backoff.get(key) ?? 0) > now) return;
      found.set(key, { accountId, marketId });
    };
    for (const [marketId, { index, positions }] of this.indexes) {
      const mark = this.deps.markOf(marketId);
      if (mark === null || stale.has(marketId)) continue;
      for (const id of index.findLiquidatable(mark)) {
        const position = positions[id]!;
        if (underMaintenance(state, position.accountId, marketId, this.deps.markOf)) add(position.accountId, marketId);
      }
    }
    for (const [accountId, positions] of crossGroups(state)) {
      if (positions.some((position) => stale.has(position.marketId))) continue;
      const cross = crossAccountState(state, accountId, positions, this.deps.markOf);
      if (!cross?.liquidatable) continue;
      for (const position of positions) add(accountId, position.marketId);
    }
    return [...found.values()];
  }

  /** Notes what a committed batch moved (re-indexed at the next check). */
  committed(batch: Batch): void {
    for (const key of batch.positions.keys()) this.moved.add(key);
  }

  /** Forgets the index: the next check rebuilds it from the state (after a reload, or in tests). */
  refresh(): void {
    this.indexedState = null;
  }

  /** The isolated positions of every market, indexed by liquidation price. */
  private rebuild(state: FuturesState): void {
    this.indexes.clear();
    this.moved.clear();
    for (const spec of state.markets.values()) {
      this.indexes.set(spec.id, { index: new perp.LiquidationIndex(spec, spec.tiers), ids: new Map(), positions: [] });
    }
    const entries = new Map<string, perp.ScanEntry[]>();
    for (const position of state.positions.values()) {
      const slot = this.indexes.get(position.marketId);
      const entry = slot ? indexEntry(state, slot, position) : null;
      if (!entry) continue;
      const list = entries.get(position.marketId) ?? [];
      list.push(entry);
      entries.set(position.marketId, list);
    }
    for (const [marketId, list] of entries) this.indexes.get(marketId)!.index.load(list);
    this.indexedState = state;
  }

  /** Re-indexes the positions the committed batches moved. */
  private catchUp(state: FuturesState): void {
    for (const key of this.moved) {
      const position = state.positions.get(key);
      const slot = position ? this.indexes.get(position.marketId) : undefined;
      if (!position || !slot) continue;
      const entry = indexEntry(state, slot, position);
      if (entry) slot.index.upsert(entry);
      else {
        const id = slot.ids.get(position.accountId);
        if (id !== undefined) slot.index.remove(id);
      }
    }
    this.moved.clear();
  }

  /** Submits the command with the marks of every market where the account holds a position (`markets`). */
  private submit(candidate: Candidate, markets: readonly string[]): Promise<unknown> | null {
    const { core } = this.deps;
    const key = `${candidate.accountId}|${candidate.marketId}`;
    const marks: Record<string, number> = {};
    for (const marketId of markets) {
      const mark = this.deps.markOf(marketId);
      if (mark !== null) marks[marketId] = mark;
    }
    if (marks[candidate.marketId] === undefined) return null;
    const command: LiquidateCommand = { ...candidate, marks };
    const notify = this.deps.notify;
    const done = core
      .command<LiquidationOutcome>('liquidate', command, {
        accounts: [candidate.accountId],
        decided: (ctx, outcome) => {
          if (!notify) return;
          const spec = ctx.state.markets.get(command.marketId)!;
          notify(ctx.batch, liquidationNotices(spec, outcome, ctx.now));
        },
      })
      .catch((error: unknown) => {
        // A command that cannot be written (the batch was dropped and the state reloaded) is not
        // retried at once: the next attempt waits, so a persistent fault does not spin.
        this.backoff.set(key, this.deps.clock().getTime() + RETRY_AFTER_MS);
        this.deps.log.error({ err: error, ...candidate }, 'futures liquidation failed');
      })
      .finally(() => {
        this.inFlight.delete(key);
        this.schedule(true);
      });
    this.inFlight.set(key, done);
    return done;
  }
}

type MarketIndex = { index: perp.LiquidationIndex; ids: Map<string, number>; positions: PositionState[] };

/** The index entry of an open isolated position (its id assigned once per account), or null. */
function indexEntry(state: FuturesState, slot: MarketIndex, position: PositionState): perp.ScanEntry | null {
  if (position.sizeLots === 0) return null;
  if (state.setting(position.accountId, position.marketId).mode !== 'isolated') return null;
  let id = slot.ids.get(position.accountId);
  if (id === undefined) {
    id = slot.positions.length;
    slot.ids.set(position.accountId, id);
    slot.positions.push(position);
  }
  return { id, sizeLots: position.sizeLots, costTickLots: position.costTickLots, collateral: position.isolatedMargin };
}

/** The markets of every account's open positions, in one pass over the state. */
function openMarketsByAccount(state: FuturesState): Map<string, string[]> {
  const markets = new Map<string, string[]>();
  for (const position of state.positions.values()) {
    if (position.sizeLots === 0) continue;
    const list = markets.get(position.accountId);
    if (list) list.push(position.marketId);
    else markets.set(position.accountId, [position.marketId]);
  }
  return markets;
}

/** The open cross positions of every account, in one pass over the state. */
export function crossGroups(state: FuturesState): Map<string, PositionState[]> {
  const groups = new Map<string, PositionState[]>();
  for (const position of state.positions.values()) {
    if (position.sizeLots === 0) continue;
    if (state.setting(position.accountId, position.marketId).mode !== 'cross') continue;
    const group = groups.get(position.accountId);
    if (group) group.push(position);
    else groups.set(position.accountId, [position]);
  }
  return groups;
}
