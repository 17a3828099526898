import type { MarketCommand } from '@platform/engine';
import { formatDecimal } from '@platform/money';
import { invariant } from '../../lib/invariant.ts';
import type { EntryInput, Statement } from '../ledger/service.ts';
import type { FundsBook } from './funds.ts';
import type { OrderState } from './order-state.ts';
import { atomsText, type PairSpec, priceText, quantityText } from './pair-spec.ts';

/** A trade as written to the trades table and announced. */
export interface TradeRecord {
  id: string;
  pairId: string;
  sequence: number;
  priceTicks: number;
  quantityLots: number;
  total: bigint;
  takerSide: 'buy' | 'sell';
  makerOrderId: string;
  takerOrderId: string;
  makerAccountId: string;
  takerAccountId: string;
  makerFee: bigint;
  takerFee: bigint;
  executedAt: Date;
}

/** What happened to an order in a batch, for notifications (spec §4: placed, filled, cancelled, rejected). */
export interface OrderChange {
  kind: 'placed' | 'filled' | 'cancelled' | 'rejected' | 'expired' | 'completed';
  order: OrderState;
}

/**
 * JSON for the journal and the snapshots: a bigint (a quote budget) is written as the string
 * '123n' and read back as a bigint. No other value of the engine is a string ending in a digit and 'n'.
 */
export function toEngineJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${item}n` : item));
}

/** Reads what toEngineJson wrote (a string, or the value a jsonb column already parsed). */
export function fromEngineJson<T>(json: unknown): T {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  return JSON.parse(text, (_key, item) =>
    typeof item === 'string' && /^-?\d+n$/.test(item) ? BigInt(item.slice(0, -1)) : item,
  ) as T;
}

/**
 * Everything one market batch writes, gathered while its commands apply. Every change to a user's
 * available balance is passed on to the funds book at once (under the batch's write ticket), so the
 * next command, of this market or another, sees it before the batch is written.
 */
export class BatchEffects {
  readonly journalRows: { s: number; c: unknown; a: boolean }[] = [];
  readonly touched = new Map<string, OrderState>();
  readonly trades: TradeRecord[] = [];
  readonly entries: EntryInput[] = [];
  readonly changes: OrderChange[] = [];

  constructor(
    readonly spec: PairSpec,
    private readonly funds: FundsBook,
    readonly ticket: number,
  ) {}

  get commandCount(): number {
    return this.journalRows.length;
  }

  journal(command: MarketCommand, accepted: boolean): void {
    this.journalRows.push({ s: command.sequence, c: JSON.parse(toEngineJson(command)), a: accepted });
  }

  touch(order: OrderState): void {
    this.touched.set(order.id, order);
  }

  /** available -> locked for an order (the caller has checked the funds). */
  hold(order: OrderState, amount: bigint): void {
    if (amount <= 0n) return;
    const owner = { kind: 'user' as const, accountId: order.accountId };
    this.entries.push({
      kind: 'order_hold',
      reference: order.id,
      postings: [
        { owner, currency: order.reserveCurrency, bucket: 'available', amount: atomsText(-amount) },
        { owner, currency: order.reserveCurrency, bucket: 'locked', amount: atomsText(amount) },
      ],
    });
    this.funds.move(order.accountId, order.reserveCurrency, -amount, this.ticket);
    this.touch(order);
  }

  /** locked -> available for an order. */
  release(order: OrderState, amount: bigint, kind: string): void {
    if (amount <= 0n) return;
    invariant(amount <= order.reserved, `release of ${amount} from order ${order.id}, which holds ${order.reserved}`);
    const owner = { kind: 'user' as const, accountId: order.accountId };
    this.entries.push({
      kind,
      reference: order.id,
      postings: [
        { owner, currency: order.reserveCurrency, bucket: 'locked', amount: atomsText(-amount) },
        { owner, currency: order.reserveCurrency, bucket: 'available', amount: atomsText(amount) },
      ],
    });
    this.funds.move(order.accountId, order.reserveCurrency, amount, this.ticket);
  }

  /** A balanced entry whose user 'available' postings are listed in `credits` too (a fill's proceeds). */
  settle(entry: EntryInput, credits: readonly { accountId: string; currency: string; amount: bigint }[]): void {
    this.entries.push(entry);
    for (const credit of credits) this.funds.move(credit.accountId, credit.currency, credit.amount, this.ticket);
  }
}

/** A batch's rows as they stood when it was decided (later batches go on changing the orders in memory). */
export interface BatchRows {
  journal: { p: string; s: number; c: unknown; a: boolean }[];
  orders: Record<string, unknown>[];
  trades: Record<string, unknown>[];
}

/** The rows of a batch, pictured now. */
export function batchRows(effects: BatchEffects): BatchRows {
  const spec = effects.spec;
  const rows: BatchRows = { journal: [], orders: [], trades: [] };
  for (const row of effects.journalRows) rows.journal.push({ p: spec.id, ...row });
  const price = (ticks: number | null) => (ticks === null ? null : priceText(spec, ticks));
  for (const order of effects.touched.values()) {
    rows.orders.push({
      id: order.id,
      account_id: order.accountId,
      pair_id: spec.id,
      client_order_id: order.clientOrderId,
      side: order.side,
      type: order.type,
      time_in_force: order.timeInForce,
      post_only: order.postOnly,
      self_trade_prevention: order.selfTradePrevention,
      price: price(order.priceTicks),
      stop_price: price(order.stopPriceTicks),
      stop_limit_price: price(order.stopLimitPriceTicks),
      quantity: order.quantityLots === null ? null : quantityText(spec, order.quantityLots),
      quote_amount:
        order.quoteNotional === null
          ? null
          : formatDecimal({ units: order.quoteNotional, scale: spec.pricePrecision + spec.quantityPrecision }),
      filled_quantity: quantityText(spec, order.filledLots),
      filled_total: atomsText(order.filledTotal),
      fee: atomsText(order.fee),
      status: order.status,
      triggered: order.triggered,
      reject_reason: order.rejectReason,
      end_reason: order.endReason,
      reserve_currency: order.reserveCurrency,
      reserved: atomsText(order.reserved),
      reference_ticks: order.referenceTicks,
      sequence: order.sequence,
      created_at: order.createdAt.toISOString(),
      updated_at: order.updatedAt.toISOString(),
    });
  }
  for (const trade of effects.trades) rows.trades.push(tradeRow(spec, trade));
  return rows;
}

/** A trade as the trades table stores it (and as the market's tape shows it before any read). */
export function tradeRow(spec: PairSpec, trade: TradeRecord) {
  return {
    id: trade.id,
    pair_id: spec.id,
    sequence: trade.sequence,
    price: priceText(spec, trade.priceTicks),
    quantity: quantityText(spec, trade.quantityLots),
    total: atomsText(trade.total),
    taker_side: trade.takerSide,
    maker_order_id: trade.makerOrderId,
    taker_order_id: trade.takerOrderId,
    maker_account_id: trade.makerAccountId,
    taker_account_id: trade.takerAccountId,
    maker_fee: atomsText(trade.makerFee),
    taker_fee: atomsText(trade.takerFee),
    fee_currency: spec.quote,
    executed_at: trade.executedAt.toISOString(),
  };
}

/**
 * The journal rows, orders (new ones inserted, open ones updated; an order several batches touched
 * is written once, as the last of them left it) and trades of many market batches, added to the
 * statement as CTEs that write only when `gate` holds.
 */
export function addRecords(stmt: Statement, batches: readonly BatchRows[], gate: string): void {
  const journalRows = batches.flatMap((rows) => rows.journal);
  const tradeRows = batches.flatMap((rows) => rows.trades);
  const latest = new Map<unknown, Record<string, unknown>>();
  for (const rows of batches) for (const order of rows.orders) latest.set(order.id, order);
  const journal = stmt.param('records.journal', JSON.stringify(journalRows), 'jsonb');
  const orders = stmt.param('records.orders', JSON.stringify([...latest.values()]), 'jsonb');
  const trades = stmt.param('records.trades', JSON.stringify(tradeRows), 'jsonb');
  stmt.cte(
    'journal',
    `INSERT INTO market_journal (pair_id, sequence, command, accepted)
    SELECT e->>'p', (e->>'s')::bigint, e->'c', (e->>'a')::boolean FROM jsonb_array_elements(${journal}) AS e
    WHERE ${gate}`,
  );
  stmt.cte(
    'upserted',
    `INSERT INTO orders (id, account_id, pair_id, client_order_id, side, type, time_in_force, post_only,
        self_trade_prevention, price, stop_price, stop_limit_price, quantity, quote_amount, filled_quantity,
        filled_total, fee, status, triggered, reject_reason, end_reason, reserve_currency, reserved,
        reference_ticks, sequence, created_at, updated_at)
      SELECT v.id, v.account_id, v.pair_id, v.client_order_id, v.side, v.type, v.time_in_force, v.post_only,
        v.self_trade_prevention, v.price, v.stop_price, v.stop_limit_price, v.quantity, v.quote_amount,
        v.filled_quantity, v.filled_total, v.fee, v.status, v.triggered, v.reject_reason, v.end_reason,
        v.reserve_currency, v.reserved, v.reference_ticks, v.sequence, v.created_at, v.updated_at
      FROM jsonb_to_recordset(${orders}) AS v(id uuid, account_id uuid, pair_id text, client_order_id text,
        side text, type text, time_in_force text, post_only boolean, self_trade_prevention text, price numeric,
        stop_price numeric, stop_limit_price numeric, quantity numeric, quote_amount numeric,
        filled_quantity numeric, filled_total numeric, fee numeric, status text, triggered boolean,
        reject_reason text, end_reason text, reserve_currency text, reserved numeric, reference_ticks bigint,
        sequence bigint, created_at timestamptz, updated_at timestamptz)
      WHERE ${gate}
      ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, quantity = EXCLUDED.quantity, price = EXCLUDED.price,
        stop_price = EXCLUDED.stop_price, filled_quantity = EXCLUDED.filled_quantity,
        filled_total = EXCLUDED.filled_total, fee = EXCLUDED.fee, reserved = EXCLUDED.reserved,
        triggered = EXCLUDED.triggered, reject_reason = EXCLUDED.reject_reason, end_reason = EXCLUDED.end_reason,
        sequence = EXCLUDED.sequence, updated_at = EXCLUDED.updated_at`,
  );
  // The trades' foreign keys see the orders inserted above: constraint checks run at the end of the statement.
  stmt.cte(
    'inserted_trades',
    `INSERT INTO trades (id, pair_id, sequence, price, quantity, total, taker_side, maker_order_id, taker_order_id,
        maker_account_id, taker_account_id, maker_fee, taker_fee, fee_currency, executed_at)
      SELECT v.id, v.pair_id, v.sequence, v.price, v.quantity, v.total, v.taker_side, v.maker_order_id,
        v.taker_order_id, v.maker_account_id, v.taker_account_id, v.maker_fee, v.taker_fee, v.fee_currency,
        v.executed_at
      FROM jsonb_to_recordset(${trades}) AS v(id text, pair_id text, sequence bigint, price numeric,
        quantity numeric, total numeric, taker_side text, maker_order_id uuid, taker_order_id uuid,
        maker_account_id uuid, taker_account_id uuid, maker_fee numeric, taker_fee numeric, fee_currency text,
        executed_at timestamptz)
      WHERE ${gate}`,
  );
}
