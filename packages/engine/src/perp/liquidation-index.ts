import type { PerpSpec, RiskTier, ScanEntry } from './api.ts';
import { entryLiquidatable, liquidationPriceTicks, type ScanTable, scanTable } from './liquidation.ts';

/** An indexed position with a liquidation price (positions without one are kept aside: no price liquidates them). */
interface Indexed extends ScanEntry {
  /** The liquidation price (ticks). */
  lp: number;
  /** False once replaced or removed: the sorted run skips it until the next compaction. */
  live: boolean;
  /** Its place in the pending list, -1 once merged into the sorted run. */
  pendingAt: number;
}

/** The first index whose price is >= target (prices ascending). */
function lowerBound(prices: Float64Array, target: number): number {
  let low = 0;
  let high = prices.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (prices[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose price is > target (prices ascending). */
function upperBound(prices: Float64Array, target: number): number {
  let low = 0;
  let high = prices.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (prices[middle]! <= target) low = middle + 1;
    else high = middle;
  }
  return low;
}

const byPrice = (a: Indexed, b: Indexed): number => a.lp - b.lp || a.id - b.id;

/** Pending entries are merged into the sorted run once there are this many, or 1/32 of the run if more. */
const PENDING_LIMIT = 1_024;

/**
 * One side's positions by liquidation price: a sorted run (prices and entries in parallel arrays,
 * searched by bisection) plus a short unsorted list of recent insertions; a removal only marks the
 * entry dead. Once the pending list or the dead entries grow past a bound, one linear merge rebuilds
 * the run, so an update costs O(1) plus an amortised share of that merge, never an O(n) array shift.
 */
class SideRun {
  prices: Float64Array = new Float64Array(0);
  entries: Indexed[] = [];
  pending: Indexed[] = [];
  dead = 0;

  insert(entry: Indexed): void {
    entry.pendingAt = this.pending.length;
    this.pending.push(entry);
    if (this.pending.length >= PENDING_LIMIT && this.pending.length * 32 >= this.entries.length) this.compact();
  }

  remove(entry: Indexed): void {
    entry.live = false;
    if (entry.pendingAt >= 0) {
      const last = this.pending.pop()!;
      if (last !== entry) {
        this.pending[entry.pendingAt] = last;
        last.pendingAt = entry.pendingAt;
      }
      entry.pendingAt = -1;
      return;
    }
    this.dead++;
    if (this.dead > PENDING_LIMIT && this.dead * 4 > this.entries.length) this.compact();
  }

  clear(): void {
    this.prices = new Float64Array(0);
    this.entries = [];
    this.pending = [];
    this.dead = 0;
  }

  /** Merges the sorted pending entries into the live part of the run (linear, into preallocated arrays). */
  compact(): void {
    const incoming = this.pending.sort(byPrice);
    const old = this.entries;
    const total = old.length - this.dead + incoming.length;
    const merged = new Array<Indexed>(total);
    const prices = new Float64Array(total);
    let next = 0;
    let at = 0;
    for (let index = 0; index < old.length; index++) {
      const entry = old[index]!;
      if (!entry.live) continue;
      while (next < incoming.length && byPrice(incoming[next]!, entry) < 0) {
        const pending = incoming[next++]!;
        pending.pendingAt = -1;
        prices[at] = pending.lp;
        merged[at++] = pending;
      }
      prices[at] = entry.lp;
      merged[at++] = entry;
    }
    while (next < incoming.length) {
      const pending = incoming[next++]!;
      pending.pendingAt = -1;
      prices[at] = pending.lp;
      merged[at++] = pending;
    }
    this.entries = merged;
    this.prices = prices;
    this.pending = [];
    this.dead = 0;
  }
}

/**
 * The positions of one market sorted by their liquidation price (liquidationPriceTicks, exact): longs
 * are liquidated when mark <= LP, shorts when mark >= LP, so a mark move finds its candidates by a
 * bisection instead of a pass over every position. Candidates are then confirmed with the exact
 * integer rule (the same as findLiquidatable): the index only narrows, the inequality decides.
 *
 * The caller keeps it current: upsert after every fill, margin change and funding payment, and for
 * cross positions whenever the collateral (wallet - other MM + other P&L) moves. An upsert computes
 * the liquidation price (a few µs) and is otherwise O(1) amortised; load() bulk-loads with one sort.
 */
export class LiquidationIndex {
  private readonly entries = new Map<number, Indexed | ScanEntry>();
  private readonly longs = new SideRun();
  private readonly shorts = new SideRun();
  private readonly table: ScanTable;

  constructor(
    private readonly spec: PerpSpec,
    private readonly tiers: readonly RiskTier[],
  ) {
    this.table = scanTable(spec, tiers);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The liquidation price the index holds for an entry (null: none, or not indexed). */
  liquidationPrice(id: number): number | null {
    const entry = this.entries.get(id);
    return entry !== undefined && 'lp' in entry ? entry.lp : null;
  }

  /** The entry with its liquidation price, or a plain copy when no price liquidates it. */
  private indexed(entry: ScanEntry): Indexed | ScanEntry {
    const { id, sizeLots, costTickLots, collateral } = entry;
    const position = { sizeLots, costTickLots };
    const lp = liquidationPriceTicks({ spec: this.spec, tiers: this.tiers, position, collateral });
    if (lp === null) return { id, sizeLots, costTickLots, collateral };
    return { id, sizeLots, costTickLots, collateral, lp, live: true, pendingAt: -1 };
  }

  private side(entry: ScanEntry): SideRun {
    return entry.sizeLots > 0 ? this.longs : this.shorts;
  }

  /** Adds or replaces an entry (a flat one is removed). */
  upsert(entry: ScanEntry): void {
    this.remove(entry.id);
    if (entry.sizeLots === 0) return;
    const indexed = this.indexed(entry);
    this.entries.set(entry.id, indexed);
    if ('lp' in indexed) this.side(indexed).insert(indexed);
  }

  remove(id: number): void {
    const old = this.entries.get(id);
    if (old === undefined) return;
    this.entries.delete(id);
    if ('lp' in old) this.side(old).remove(old);
  }

  /** Replaces the whole content with these entries, sorting once. */
  load(entries: readonly ScanEntry[]): void {
    this.entries.clear();
    this.longs.clear();
    this.shorts.clear();
    for (const entry of entries) {
      if (entry.sizeLots === 0) continue;
      const indexed = this.indexed(entry);
      this.entries.set(entry.id, indexed);
      if (!('lp' in indexed)) continue;
      const side = this.side(indexed); // pushed without the per-insert merge, merged once below
      indexed.pendingAt = side.pending.length;
      side.pending.push(indexed);
    }
    this.longs.compact();
    this.shorts.compact();
  }

  /** The ids liquidatable at this mark: longs with LP >= mark, shorts with LP <= mark, each confirmed exactly. */
  findLiquidatable(markTicks: number): number[] {
    const found: number[] = [];
    const mark = BigInt(markTicks);
    const longs = this.longs;
    for (let at = lowerBound(longs.prices, markTicks); at < longs.prices.length; at++) {
      this.confirm(longs.entries[at]!, mark, found);
    }
    for (const entry of longs.pending) if (entry.lp >= markTicks) this.confirm(entry, mark, found);
    const shorts = this.shorts;
    const end = upperBound(shorts.prices, markTicks);
    for (let at = 0; at < end; at++) this.confirm(shorts.entries[at]!, mark, found);
    for (const entry of shorts.pending) if (entry.lp <= markTicks) this.confirm(entry, mark, found);
    return found;
  }

  private confirm(entry: Indexed, mark: bigint, found: number[]): void {
    if (entry.live && entryLiquidatable(this.table, mark, entry)) found.push(entry.id);
  }
}
