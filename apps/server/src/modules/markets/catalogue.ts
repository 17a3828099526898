import { normalizePairId, type TradingPairSeed, type UpdateTradingPairRequest } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';

export const PAIR_NOT_FOUND = 'Trading pair not found';

/** A trading_pairs row: the seeded §3.6 fields and their timestamps. */
export type PairRow = TradingPairSeed & { created_at: Date; updated_at: Date };

const PAIR_COLUMNS = `id, base_currency, quote_currency, symbol, min_trade_amount::text, max_trade_amount::text,
  price_precision, quantity_precision, trading_fee::text, maker_fee::text, taker_fee::text, is_active,
  is_enabled_by_admin, supported_by_provider, created_at, updated_at`;

/** Called with the pair's new row after an admin opened or closed it. */
export type PairChangeListener = (pair: Readonly<PairRow>) => void;

/**
 * The trading pairs, held in memory: the rows of trading_pairs, read once at start (the seed writes
 * the table before) and changed only through `update`, which writes the row and then this copy, so
 * the public lists never ask the database. `version` moves on every change, for the snapshots.
 */
export class PairCatalogue {
  private readonly byId = new Map<string, PairRow>();
  private readonly listeners: PairChangeListener[] = [];
  private changes = 0;
  /** Updates run one after another, so this copy ends as the database does. */
  private updating: Promise<unknown> = Promise.resolve();

  private constructor(private ordered: PairRow[]) {
    for (const row of ordered) this.byId.set(row.id, row);
  }

  /** Every pair, in the catalogue's order (sort_order, then id). */
  static async load(db: Queryable): Promise<PairCatalogue> {
    const result = await db.query<PairRow>(`SELECT ${PAIR_COLUMNS} FROM trading_pairs ORDER BY sort_order, id`);
    return new PairCatalogue(result.rows);
  }

  get version(): number {
    return this.changes;
  }

  all(): readonly PairRow[] {
    return this.ordered;
  }

  /** The pair a path names (BTC_USD, BTC-USD, BTC/USD, any case), or NOT_FOUND. */
  find(symbol: string): Result<PairRow> {
    const id = normalizePairId(symbol);
    const row = id === null ? undefined : this.byId.get(id);
    return row ? ok(row) : fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
  }

  /** Tells the listener of every later change (the exchange closes or opens the market). */
  onChange(listener: PairChangeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /**
   * Opens or closes a pair: the row first (it is what the next start reads), then this copy and the
   * listeners, so the next read of any list and the next order on the pair see the change.
   */
  update(db: Queryable, pairId: string, change: UpdateTradingPairRequest, now: () => Date): Promise<Result<PairRow>> {
    const next = this.updating.then(() => this.write(db, pairId, change, now()));
    this.updating = next.catch(() => undefined);
    return next;
  }

  private async write(
    db: Queryable,
    pairId: string,
    change: UpdateTradingPairRequest,
    now: Date,
  ): Promise<Result<PairRow>> {
    if (!this.byId.has(pairId)) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
    const result = await db.query<PairRow>(
      `UPDATE trading_pairs SET is_enabled_by_admin = $2, is_active = COALESCE($3, is_active), updated_at = $4
       WHERE id = $1 RETURNING ${PAIR_COLUMNS}`,
      [pairId, change.is_enabled_by_admin, change.is_active ?? null, now.toISOString()],
    );
    const row = result.rows[0];
    if (!row) return fail('NOT_FOUND', { message: PAIR_NOT_FOUND });
    this.byId.set(row.id, row);
    this.ordered = this.ordered.map((existing) => (existing.id === row.id ? row : existing));
    this.changes++;
    for (const listener of this.listeners) listener(row);
    return ok(row);
  }
}
