import {
  MarketEngine,
  type MarketRules,
  type MarketSnapshot,
  type OrderBook,
  ReferenceOrderBook,
} from '@platform/engine';
import { decimal, toUnits } from '@platform/money';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { fromEngineJson, toEngineJson } from './batch-effects.ts';
import { FundsBook } from './funds.ts';
import type { OrderState } from './order-state.ts';
import { atomsOf, type PairSpec } from './pair-spec.ts';
import { MarketSequencer, parseCommand, type SequencerHooks } from './sequencer.ts';
import { TradingWriter, type WriteJob, type WriterHook } from './writer.ts';

export interface ExchangeOptions {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** Price band in basis points around the reference price. */
  bandBps: number;
  /** A snapshot is written after this many commands since the last one. */
  snapshotEvery: number;
  createBook?: () => OrderBook;
  hooks: SequencerHooks & {
    /** Inside each write transaction: rows that must commit with the batches (order notifications). */
    inTransaction?: WriterHook;
    /** Right after each write commits, before its callers are answered (the read caches). */
    committed?: (jobs: readonly WriteJob[]) => void;
  };
}

export type OrderRow = {
  id: string;
  account_id: string;
  pair_id: string;
  client_order_id: string | null;
  side: 'buy' | 'sell';
  type: OrderState['type'];
  time_in_force: OrderState['timeInForce'];
  post_only: boolean;
  self_trade_prevention: OrderState['selfTradePrevention'];
  price: string | null;
  stop_price: string | null;
  stop_limit_price: string | null;
  quantity: string | null;
  quote_amount: string | null;
  filled_quantity: string;
  filled_total: string;
  fee: string;
  status: OrderState['status'];
  triggered: boolean;
  reject_reason: string | null;
  end_reason: string | null;
  reserve_currency: string;
  reserved: string;
  reference_ticks: bigint | string | null;
  sequence: bigint | string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const units = (text: string | null, precision: number): number | null => {
  if (text === null) return null;
  const value = toUnits(decimal(text), precision);
  if (!value.ok) throw new Error(`${text} is not a whole number of units at ${precision} decimals`);
  return Number(value.value);
};

export function orderFromRow(spec: PairSpec, row: OrderRow): OrderState {
  const quote =
    row.quote_amount === null ? null : toUnits(decimal(row.quote_amount), spec.pricePrecision + spec.quantityPrecision);
  return {
    id: row.id,
    accountId: row.account_id,
    clientOrderId: row.client_order_id,
    pairId: row.pair_id,
    side: row.side,
    type: row.type,
    timeInForce: row.time_in_force,
    postOnly: row.post_only,
    selfTradePrevention: row.self_trade_prevention,
    priceTicks: units(row.price, spec.pricePrecision),
    stopPriceTicks: units(row.stop_price, spec.pricePrecision),
    stopLimitPriceTicks: units(row.stop_limit_price, spec.pricePrecision),
    quantityLots: units(row.quantity, spec.quantityPrecision),
    quoteNotional: quote === null ? null : quote.ok ? quote.value : null,
    lotCap: spec.maxLots,
    filledLots: units(row.filled_quantity, spec.quantityPrecision) ?? 0,
    filledTotal: atomsOf(row.filled_total),
    fee: atomsOf(row.fee),
    reserveCurrency: row.reserve_currency,
    reserved: atomsOf(row.reserved),
    referenceTicks: row.reference_ticks === null ? null : Number(row.reference_ticks),
    status: row.status,
    triggered: row.triggered,
    rejectReason: row.reject_reason,
    endReason: row.end_reason,
    sequence: row.sequence === null ? null : Number(row.sequence),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function marketRules(spec: PairSpec, bandBps: number): MarketRules {
  return {
    minQuantityLots: spec.minLots,
    maxQuantityLots: spec.maxLots,
    priceBandBps: bandBps,
    selfTradePrevention: 'cancel_newest',
  };
}

/**
 * Every market's sequencer, and what it takes to bring them back: at start each book is rebuilt from
 * its latest snapshot plus the journal after it, and the open orders from the orders table. Orders
 * that were held but never journaled (the server died between the two) were never acknowledged:
 * they are rejected and their funds released.
 */
export class Exchange {
  private readonly markets = new Map<string, MarketSequencer>();
  /** Available balances as trading sees them, shared by every market. */
  readonly funds: FundsBook;
  /** The one writer of every market's batches. */
  readonly writer: TradingWriter;

  constructor(private readonly options: ExchangeOptions) {
    this.funds = new FundsBook(options.db);
    this.writer = new TradingWriter({
      db: options.db,
      log: options.log,
      funds: this.funds,
      ...(options.hooks.inTransaction ? { inTransaction: options.hooks.inTransaction } : {}),
      ...(options.hooks.committed ? { committed: options.hooks.committed } : {}),
    });
  }

  market(pairId: string): MarketSequencer | undefined {
    return this.markets.get(pairId);
  }

  all(): MarketSequencer[] {
    return [...this.markets.values()];
  }

  async start(specs: PairSpec[]): Promise<void> {
    for (const spec of specs) {
      const { onTrades, onOrders } = this.options.hooks;
      const sequencer = new MarketSequencer(spec, this.newEngine(spec), {
        pubsub: this.options.pubsub,
        log: this.options.log,
        clock: this.options.clock,
        bandBps: this.options.bandBps,
        hooks: { ...(onTrades ? { onTrades } : {}), ...(onOrders ? { onOrders } : {}) },
        writer: this.writer,
        funds: this.funds,
        snapshotEvery: this.options.snapshotEvery,
        reload: (market) => this.rebuild(market),
      });
      await this.rebuild(sequencer);
      this.markets.set(spec.id, sequencer);
    }
  }

  private newEngine(spec: PairSpec): MarketEngine {
    const book = this.options.createBook?.() ?? new ReferenceOrderBook();
    return new MarketEngine(book, marketRules(spec, this.options.bandBps));
  }

  /** Loads a market's book (snapshot + journal) and its open orders from the database. */
  async rebuild(sequencer: MarketSequencer): Promise<void> {
    const { db, log } = this.options;
    const spec = sequencer.spec;
    const engine = this.newEngine(spec);
    const snapshot = await db.query<{ sequence: bigint | string; state_hash: string; snapshot: unknown }>(
      'SELECT sequence, state_hash, snapshot FROM market_snapshots WHERE pair_id = $1 ORDER BY sequence DESC LIMIT 1',
      [spec.id],
    );
    let from = 0;
    const latest = snapshot.rows[0];
    if (latest !== undefined) {
      engine.restore(fromEngineJson<MarketSnapshot>(latest.snapshot));
      from = Number(latest.sequence);
      if (engine.stateHash() !== latest.state_hash) {
        throw new Error(`market ${spec.id}: snapshot ${from} does not match its state hash`);
      }
    }
    const journal = await db.query<{ sequence: bigint | string; command: unknown }>(
      'SELECT sequence, command FROM market_journal WHERE pair_id = $1 AND sequence > $2 ORDER BY sequence',
      [spec.id, from],
    );
    let last = from;
    for (const row of journal.rows) {
      engine.apply(parseCommand(row.command));
      last = Number(row.sequence);
    }
    const open = await db.query<OrderRow>(
      `SELECT * FROM orders WHERE pair_id = $1 AND status IN ('pending', 'partial') AND sequence IS NOT NULL`,
      [spec.id],
    );
    sequencer.orders.clear();
    for (const row of open.rows) sequencer.orders.set(row.id, orderFromRow(spec, row));
    sequencer.engine = engine;
    sequencer.lastSequence = last;
    sequencer.snapshotSequence = from;
    const engineIds = new Set(engine.openOrders().map((order) => order.orderId));
    const missing = [...sequencer.orders.keys()].filter((id) => !engineIds.has(id));
    const extra = [...engineIds].filter((id) => !sequencer.orders.has(id));
    if (missing.length > 0 || extra.length > 0) {
      log.error(
        { pair: spec.id, missing, extra },
        'open orders differ between the journal replay and the orders table',
      );
    }
    sequencer.publishSnapshot();
  }

  /**
   * Stops taking commands, lets every market and the writer drain, and writes a snapshot of every
   * market that moved since its last one (nothing is in flight any more, so each is durable).
   */
  async stop(): Promise<void> {
    for (const market of this.markets.values()) market.closed = true;
    await Promise.all([...this.markets.values()].map((market) => market.drained()));
    await this.writer.idle();
    for (const market of this.markets.values()) {
      if (market.lastSequence <= market.snapshotSequence) continue;
      market.snapshotSequence = market.lastSequence;
      try {
        await this.options.db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO market_snapshots (pair_id, sequence, state_hash, snapshot) VALUES ($1, $2, $3, $4::jsonb)
             ON CONFLICT DO NOTHING`,
            [market.spec.id, market.lastSequence, market.engine.stateHash(), toEngineJson(market.engine.snapshot())],
          );
          await tx.query('DELETE FROM market_snapshots WHERE pair_id = $1 AND sequence < $2', [
            market.spec.id,
            market.lastSequence,
          ]);
        });
      } catch (error) {
        this.options.log.error({ err: error, pair: market.spec.id }, 'snapshot write failed');
      }
    }
    this.funds.close();
  }
}
