import type { PerpSpec, RiskTier, ScanEntry } from './api.ts';
import { liquidatableAt, liquidationPriceTicks } from './liquidation.ts';

interface Indexed {
  sizeLots: number;
  costTickLots: bigint;
  collateral: bigint;
  /** The liquidation price (ticks), null when no price liquidates it (then it is in neither list). */
  lp: number | null;
}

/** The first index whose price is >= target (prices ascending). */
function lowerBound(prices: readonly number[], target: number): number {
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
function upperBound(prices: readonly number[], target: number): number {
  let low = 0;
  let high = prices.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (prices[middle]! <= target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Two parallel arrays kept sorted by price ascending. */
class SortedByPrice {
  prices: number[] = [];
  ids: number[] = [];

  insert(price: number, id: number): void {
    const at = upperBound(this.prices, price);
    this.prices.splice(at, 0, price);
    this.ids.splice(at, 0, id);
  }

  remove(price: number, id: number): void {
    for (let at = lowerBound(this.prices, price); at < this.prices.length && this.prices[at] === price; at++) {
      if (this.ids[at] !== id) continue;
      this.prices.splice(at, 1);
      this.ids.splice(at, 1);
      return;
    }
  }

  /** Replaces the content, sorting once (bulk load). */
  load(pairs: { price: number; id: number }[]): void {
    pairs.sort((a, b) => a.price - b.price || a.id - b.id);
    this.prices = pairs.map((pair) => pair.price);
    this.ids = pairs.map((pair) => pair.id);
  }
}

/**
 * The positions of one market sorted by their liquidation price (liquidationPriceTicks, exact): longs
 * are liquidated when mark <= LP, shorts when mark >= LP, so a mark move finds its candidates by a
 * binary search instead of a pass over every position. Candidates are then confirmed with the exact
 * rule (liquidatableAt): the index only narrows, the inequality decides.
 *
 * The caller keeps it current: upsert after every fill, margin change, funding payment, and for cross
 * positions whenever the collateral (wallet - other MM + other P&L) moves. Each upsert is O(log n) to
 * find and O(n) memory moves to insert (fast up to a few hundred thousand entries); load() bulk-loads.
 */
export class LiquidationIndex {
  private readonly entries = new Map<number, Indexed>();
  private readonly longs = new SortedByPrice();
  private readonly shorts = new SortedByPrice();

  constructor(
    private readonly spec: PerpSpec,
    private readonly tiers: readonly RiskTier[],
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The liquidation price the index holds for an entry (null: none, or not indexed). */
  liquidationPrice(id: number): number | null {
    return this.entries.get(id)?.lp ?? null;
  }

  private indexed(entry: ScanEntry): Indexed {
    const position = { sizeLots: entry.sizeLots, costTickLots: entry.costTickLots };
    const lp = liquidationPriceTicks({ spec: this.spec, tiers: this.tiers, position, collateral: entry.collateral });
    return { sizeLots: entry.sizeLots, costTickLots: entry.costTickLots, collateral: entry.collateral, lp };
  }

  /** Adds or replaces an entry (a flat one is removed). */
  upsert(entry: ScanEntry): void {
    this.remove(entry.id);
    if (entry.sizeLots === 0) return;
    const indexed = this.indexed(entry);
    this.entries.set(entry.id, indexed);
    if (indexed.lp === null) return;
    (indexed.sizeLots > 0 ? this.longs : this.shorts).insert(indexed.lp, entry.id);
  }

  remove(id: number): void {
    const old = this.entries.get(id);
    if (old === undefined) return;
    this.entries.delete(id);
    if (old.lp !== null) (old.sizeLots > 0 ? this.longs : this.shorts).remove(old.lp, id);
  }

  /** Replaces the whole content with these entries, sorting once. */
  load(entries: readonly ScanEntry[]): void {
    this.entries.clear();
    const longs: { price: number; id: number }[] = [];
    const shorts: { price: number; id: number }[] = [];
    for (const entry of entries) {
      if (entry.sizeLots === 0) continue;
      const indexed = this.indexed(entry);
      this.entries.set(entry.id, indexed);
      if (indexed.lp !== null) (entry.sizeLots > 0 ? longs : shorts).push({ price: indexed.lp, id: entry.id });
    }
    this.longs.load(longs);
    this.shorts.load(shorts);
  }

  /** The ids liquidatable at this mark: longs with LP >= mark, shorts with LP <= mark, each confirmed exactly. */
  findLiquidatable(markTicks: number): number[] {
    const found: number[] = [];
    const longs = this.longs;
    for (let at = lowerBound(longs.prices, markTicks); at < longs.prices.length; at++)
      this.confirm(longs.ids[at]!, markTicks, found);
    const shorts = this.shorts;
    const end = upperBound(shorts.prices, markTicks);
    for (let at = 0; at < end; at++) this.confirm(shorts.ids[at]!, markTicks, found);
    return found;
  }

  private confirm(id: number, markTicks: number, found: number[]): void {
    const entry = this.entries.get(id)!;
    if (liquidatableAt(this.spec, this.tiers, entry, entry.collateral, markTicks)) found.push(id);
  }
}
