import { lots } from '@platform/engine';
import { invariant } from '../../lib/invariant.ts';
import type { MovementCursor, MovementPage } from '../wallet/index.ts';
import { type HistoricPrice, LedgerLotFeed } from './ledger-lots.ts';
import {
  type CheckpointLog,
  LOT_CHECKPOINT_EVENTS_MIN,
  type LotCheckpointState,
  type LotCheckpointStore,
  prepareCheckpoint,
} from './lot-checkpoints.ts';

/**
 * Accounts (per lot method) whose lot books are kept: a book is rebuilt from the whole ledger
 * history when its account comes back after being dropped, which is what every request cost before.
 */
export const LOT_CACHE_BOOKS_MAX = 5_000;
/**
 * Lot events held over every cached book. A book keeps each event's id and each open lot: about
 * 100 bytes per event measured (100,000 fills with 20,000 lots open: 11 MB), more when most lots
 * stay open, so this bounds the cache at about 100-300 MB. An account whose own history is larger
 * than this is not kept at all: each of its requests builds it afresh.
 */
export const LOT_CACHE_EVENTS_MAX = 1_000_000;

/** What the cache reads: the account's ledger movements (a page after a cursor) and recorded prices. */
export type LotCacheDeps = {
  movements(accountId: string, after?: MovementCursor): Promise<MovementPage>;
  priceAt: HistoricPrice;
  /** Where the books are checkpointed (lot-checkpoints.ts); without it, every cold load reads the whole history. */
  checkpoints?: Pick<LotCheckpointStore, 'read' | 'write' | 'discard'>;
  log?: CheckpointLog;
  now?: () => Date;
};

/** checkpointEvents: new events since the last checkpoint before the next is written. */
export type LotCacheLimits = { books: number; events: number; checkpointEvents?: number };

/** One asset's open lots and totals under the book's method: what the summary values at the live price. */
export type AssetLots = { openLots: readonly lots.OpenLot[]; totals: lots.LotTotals };

/** One account's books under one method, and where its reads of the ledger stopped. */
class AccountBooks {
  readonly books: Map<string, lots.LotBook>;
  readonly feed: LedgerLotFeed;
  cursor: MovementCursor;
  events: number;
  /** The events this entry adds to the cache's count (set when it is stored). */
  counted = 0;
  /** The events of the last checkpoint written or read (0: none). */
  checkpointed: number;
  /** Open lots per asset as last read, until the asset's book takes another event. */
  private readonly views = new Map<string, AssetLots>();

  /** Empty books, or a checkpoint's (restored: the movements after its cursor come next). */
  constructor(
    readonly method: lots.LotMethod,
    from?: LotCheckpointState,
  ) {
    this.books = new Map(from?.books);
    this.feed = new LedgerLotFeed(from?.clocks);
    this.cursor = from?.cursor ?? {};
    this.events = from?.events ?? 0;
    this.checkpointed = this.events;
  }

  /** The books, clocks and cursor of this moment (all changed together, synchronously, by catchUp). */
  state(): LotCheckpointState {
    return { books: this.books, clocks: this.feed.clocks(), cursor: this.cursor, events: this.events };
  }

  apply(asset: string, events: readonly lots.LotEvent[]): void {
    let book = this.books.get(asset);
    if (book === undefined) {
      const created = lots.LotBook.create({ method: this.method });
      invariant(created instanceof lots.LotBook, `lot cache: no book for method ${this.method}`);
      book = created;
      this.books.set(asset, book);
    }
    for (const event of events) {
      const error = book.applyInto(event, null);
      // The ledger never lets a balance go below zero and the feed keeps each asset in order: a bug.
      invariant(error === null, `lot cache: ${asset} event ${event.id} refused: ${error?.reason}`);
    }
    this.events += events.length;
    this.views.delete(asset);
  }

  lotsOf(asset: string): AssetLots | undefined {
    const book = this.books.get(asset);
    if (book === undefined) return undefined;
    let view = this.views.get(asset);
    if (view === undefined) {
      view = { openLots: book.openLots(), totals: book.totals() };
      this.views.set(asset, view);
    }
    return view;
  }
}

/** A read in progress for one key, and the one that will follow it for whoever asked meanwhile. */
type Flight = { current: Promise<AccountBooks>; next: Promise<AccountBooks> | null };

/**
 * Per (account, lot method), the engine's LotBook of every asset, fed from the account's ledger
 * movements and kept between requests (docs/portfolio.md "The lot cache"). Each request reads only
 * the movements after the cursor of the last read (an indexed range per balance) and applies them.
 *
 * - Bounded: at most LOT_CACHE_BOOKS_MAX entries and LOT_CACHE_EVENTS_MAX events, the least
 *   recently used dropped first.
 * - One read at a time per key: a request that comes while a read runs waits for it and then for
 *   one more read, shared by everyone who came meanwhile (that one sees what committed since the
 *   running read began). So a cold account is built once, however many requests ask at once.
 * - Nothing missed: the cursor is per balance, whose postings commit in id order (wallet/movements.ts).
 * - A read that fails drops the entry: the next request builds it afresh, never on a half-applied page.
 */
export class LotCache {
  private readonly entries = new Map<string, AccountBooks>();
  private readonly flights = new Map<string, Flight>();
  /** Keys whose checkpoint is being written: one write at a time per key. */
  private readonly writing = new Map<string, Promise<void>>();
  private heldEvents = 0;

  constructor(
    private readonly deps: LotCacheDeps,
    private readonly limits: LotCacheLimits = { books: LOT_CACHE_BOOKS_MAX, events: LOT_CACHE_EVENTS_MAX },
  ) {}

  /** The account's open lots per asset under the method, up to date with what has committed. */
  async lots(accountId: string, method: lots.LotMethod): Promise<(asset: string) => AssetLots | undefined> {
    const books = await this.read(accountId, method);
    return (asset) => books.lotsOf(asset);
  }

  /** How many entries and events are kept (tests, metrics). */
  size(): { books: number; events: number } {
    return { books: this.entries.size, events: this.heldEvents };
  }

  private read(accountId: string, method: lots.LotMethod): Promise<AccountBooks> {
    const key = `${accountId}:${method}`;
    const flight = this.flights.get(key);
    if (flight === undefined) return this.start(key, accountId, method);
    flight.next ??= flight.current.then(
      () => this.start(key, accountId, method),
      () => this.start(key, accountId, method),
    );
    return flight.next;
  }

  private start(key: string, accountId: string, method: lots.LotMethod): Promise<AccountBooks> {
    const current = this.catchUp(key, accountId, method);
    const flight: Flight = { current, next: null };
    this.flights.set(key, flight);
    const settle = () => {
      if (this.flights.get(key) === flight && flight.next === null) this.flights.delete(key);
    };
    current.then(settle, settle);
    return current;
  }

  private async catchUp(key: string, accountId: string, method: lots.LotMethod): Promise<AccountBooks> {
    const cached = this.entries.get(key);
    if (cached !== undefined) return this.advance(key, accountId, cached);
    const checkpoint = await this.deps.checkpoints?.read(accountId, method);
    if (!checkpoint) return this.advance(key, accountId, new AccountBooks(method));
    try {
      return await this.advance(key, accountId, new AccountBooks(method, checkpoint));
    } catch (error) {
      // A checkpoint that passed its checks but whose tail the books refuse (or a read that failed
      // right after it): never served, and not read again; the whole history decides.
      this.deps.log?.warn(
        { err: error, accountId, method },
        'lot checkpoint: its tail failed, building from the ledger',
      );
      await this.deps.checkpoints?.discard(accountId, method);
      return this.advance(key, accountId, new AccountBooks(method));
    }
  }

  /** Reads the movements after the books' cursor and applies them; stores the entry. */
  private async advance(key: string, accountId: string, books: AccountBooks): Promise<AccountBooks> {
    try {
      const page = await this.deps.movements(accountId, books.cursor);
      const histories = await books.feed.events(page.movements, this.deps.priceAt);
      for (const [asset, events] of histories) books.apply(asset, events);
      books.cursor = page.cursor;
    } catch (error) {
      this.remove(key);
      throw error;
    }
    this.store(key, books);
    this.scheduleCheckpoint(key, accountId, books);
    return books;
  }

  /**
   * After the request is answered (setImmediate: the caller's continuation runs first), writes a
   * checkpoint when the books took at least `checkpointEvents` events since the last one. The
   * snapshot is taken when the write starts, from the books as they are then (catchUp changes books
   * and cursor in one synchronous step, so they always match). One write at a time per key; a
   * failure is logged and the next build or catch-up tries again.
   */
  private scheduleCheckpoint(key: string, accountId: string, books: AccountBooks): void {
    const store = this.deps.checkpoints;
    const threshold = this.limits.checkpointEvents ?? LOT_CHECKPOINT_EVENTS_MIN;
    if (store === undefined || this.writing.has(key) || books.events - books.checkpointed < threshold) return;
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        // Dropped meanwhile (a failed read may have left it half-applied): nothing to save.
        if (this.entries.get(key) !== books) return;
        const prepared = prepareCheckpoint(accountId, books.method, books.state());
        await store.write(accountId, books.method, prepared, this.deps.now?.() ?? new Date());
        books.checkpointed = Math.max(books.checkpointed, prepared.events);
      })
      .catch((error: unknown) => {
        this.deps.log?.warn({ err: error, accountId, method: books.method }, 'lot checkpoint: write failed');
      })
      .finally(() => this.writing.delete(key));
    this.writing.set(key, write);
  }

  /** Resolves when every checkpoint write under way has finished (tests, the bench, shutdown). */
  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing.values());
  }

  private store(key: string, books: AccountBooks): void {
    this.remove(key);
    this.entries.set(key, books);
    books.counted = books.events;
    this.heldEvents += books.counted;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.books && this.heldEvents <= this.limits.events) break;
      this.entries.delete(oldest);
      this.heldEvents -= entry.counted;
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldEvents -= entry.counted;
  }
}
