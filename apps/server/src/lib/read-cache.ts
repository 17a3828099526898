/**
 * A bounded read-through cache whose entries are dropped by the events that change what they hold
 * (never expired by time). An entry is exact when every change to its key calls `invalidate(key)`
 * once the change is visible to new reads (after commit) and before anyone is told it happened.
 *
 * The race it closes: a load that began before a change and finishes after it may carry the older
 * state. Every load in flight for a key holds a ticket; `invalidate` marks the tickets of the key
 * stale, and a stale load answers its caller but does not store. A load that begins after the
 * change's invalidation sees the committed change, so what it stores is current.
 *
 * Least recently used entries fall out past `maxEntries` (and past `maxWeight`, when values differ
 * in size: a list of orders weighs its length), so keys that go idle cost nothing.
 */
export class ReadCache<Key, Value> {
  private readonly entries = new Map<Key, Value>();
  private readonly loads = new Map<Key, Set<{ stale: boolean }>>();
  private weight = 0;

  constructor(
    readonly maxEntries: number,
    private readonly bound: { weigh: (value: Value) => number; maxWeight: number } | null = null,
  ) {}

  /** The cached value, or undefined; a hit becomes the most recently used entry. */
  get(key: Key): Value | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /**
   * The cached value, else `load()`'s, stored unless the key was invalidated while it loaded or
   * `keep` refuses it (a value too large to hold).
   */
  async read(key: Key, load: () => Promise<Value>, keep?: (value: Value) => boolean): Promise<Value> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const ticket = { stale: false };
    let pending = this.loads.get(key);
    if (pending === undefined) {
      pending = new Set();
      this.loads.set(key, pending);
    }
    pending.add(ticket);
    try {
      const value = await load();
      if (!ticket.stale && (keep === undefined || keep(value))) this.store(key, value);
      return value;
    } finally {
      pending.delete(ticket);
      if (pending.size === 0 && this.loads.get(key) === pending) this.loads.delete(key);
    }
  }

  /** Drops the key's entry and makes every load of it in flight leave no entry behind. */
  invalidate(key: Key): void {
    this.remove(key);
    const pending = this.loads.get(key);
    if (pending !== undefined) for (const ticket of pending) ticket.stale = true;
  }

  /** Drops everything, loads in flight included. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
    for (const pending of this.loads.values()) for (const ticket of pending) ticket.stale = true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the held values' weights (0 without a weight bound). */
  get totalWeight(): number {
    return this.weight;
  }

  private store(key: Key, value: Value): void {
    this.remove(key);
    this.entries.set(key, value);
    this.weight += this.bound?.weigh(value) ?? 0;
    while (this.entries.size > this.maxEntries || (this.bound !== null && this.weight > this.bound.maxWeight)) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  private remove(key: Key): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.weight -= this.bound?.weigh(value) ?? 0;
  }
}
