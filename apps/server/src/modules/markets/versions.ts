/**
 * How many times each pair's live figures (price, 24 h statistics) changed, and how many times any
 * did. Read snapshots are tagged with the version they were built from and rebuilt on the first
 * read after it moves, so a reader never sees figures older than the feed's own.
 */
export class StatsVersions {
  private readonly byPair = new Map<string, number>();
  private anyPair = 0;

  bump(pairId: string): void {
    this.byPair.set(pairId, (this.byPair.get(pairId) ?? 0) + 1);
    this.anyPair++;
  }

  of(pairId: string): number {
    return this.byPair.get(pairId) ?? 0;
  }

  get total(): number {
    return this.anyPair;
  }
}

/**
 * The feed's set of pairs to publish, which also counts a change of the pair the moment it is
 * marked: a trade or a quote moves the version at once, not at the next publish (250 ms later,
 * or never when the feed's timers are off), so a read right after a trade already shows it.
 */
export class ChangedPairs extends Set<string> {
  constructor(private readonly versions: StatsVersions) {
    super();
  }

  override add(pairId: string): this {
    this.versions.bump(pairId);
    return super.add(pairId);
  }
}
