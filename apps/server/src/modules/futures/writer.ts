import type { Queryable, Transaction } from '../../db/database.ts';
import { postEntries } from '../ledger/service.ts';
import type { Batch } from './batch.ts';
import { encodeJournal } from './journal.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { ORDER_COLUMNS, orderValues, POSITION_COLUMNS, positionValues } from './rows.ts';
import { moneyText, rateText, unitsText } from './units.ts';

/** Rows per INSERT statement (well under PostgreSQL's 65,535 parameters). */
const ROWS_PER_STATEMENT = 500;

/** INSERT (or upsert) of many rows, in chunks. */
export async function insertRows(
  tx: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  conflict = '',
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await tx.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ${conflict}`, params);
  }
}

const updateAll = (columns: readonly string[], keys: readonly string[]) =>
  columns
    .filter((column) => !keys.includes(column))
    .map((column) => `${column} = EXCLUDED.${column}`)
    .join(', ');

/** Writes a decided batch: ledger entries, rows and journal, in one transaction. */
export async function writeBatch(
  tx: Transaction,
  batch: Batch,
  markets: ReadonlyMap<string, FuturesMarketSpec>,
): Promise<void> {
  if (batch.entries.length > 0) await postEntries(tx, batch.entries);
  const spec = (id: string) => markets.get(id)!;
  const orders = [...batch.orders.values()].map((o) => orderValues(spec(o.marketId), o));
  await insertRows(
    tx,
    'futures_orders',
    ORDER_COLUMNS,
    orders,
    `ON CONFLICT (id) DO UPDATE SET ${updateAll(ORDER_COLUMNS, ['id'])}`,
  );
  const positions = [...batch.positions.values()].map((p) => positionValues(spec(p.marketId), p));
  await insertRows(
    tx,
    'futures_positions',
    POSITION_COLUMNS,
    positions,
    `ON CONFLICT (account_id, market_id) DO UPDATE SET ${updateAll(POSITION_COLUMNS, ['account_id', 'market_id'])}`,
  );
  const settings = [...batch.settings.values()].map((s) => [s.accountId, s.marketId, s.leverage, s.mode, new Date()]);
  await insertRows(
    tx,
    'futures_settings',
    ['account_id', 'market_id', 'leverage', 'margin_mode', 'updated_at'],
    settings,
    'ON CONFLICT (account_id, market_id) DO UPDATE SET leverage = EXCLUDED.leverage, margin_mode = EXCLUDED.margin_mode, updated_at = EXCLUDED.updated_at',
  );
  await writeHistory(tx, batch, spec);
  for (const write of batch.writes) await write(tx);
}

async function writeHistory(tx: Queryable, batch: Batch, spec: (id: string) => FuturesMarketSpec): Promise<void> {
  const fills = batch.fills.map((f) => {
    const s = spec(f.marketId);
    return [
      f.id,
      f.orderId,
      f.accountId,
      f.marketId,
      f.side,
      f.role,
      unitsText(f.priceTicks, s.priceDecimals),
      unitsText(f.lots, s.quantityDecimals),
      moneyText(f.fee),
      moneyText(f.realisedPnl),
      f.executedAt,
    ];
  });
  await insertRows(
    tx,
    'futures_fills',
    [
      'id',
      'order_id',
      'account_id',
      'market_id',
      'side',
      'role',
      'price',
      'quantity',
      'fee',
      'realised_pnl',
      'executed_at',
    ],
    fills,
  );
  const income = batch.income.map((i) => [i.accountId, i.type, i.marketId, moneyText(i.amount), i.reference]);
  await insertRows(tx, 'futures_income', ['account_id', 'type', 'market_id', 'amount', 'reference'], income);
  const transfers = batch.transfers.map((t) => [
    t.id,
    t.accountId,
    t.clientTransferId,
    t.direction,
    moneyText(t.amount),
    t.createdAt,
  ]);
  await insertRows(
    tx,
    'futures_transfers',
    ['id', 'account_id', 'client_transfer_id', 'direction', 'amount', 'created_at'],
    transfers,
  );
  const funding = batch.funding.map((r) => [
    r.marketId,
    r.fundingTime,
    rateText(r.rate),
    unitsText(r.markTicks, spec(r.marketId).priceDecimals),
    moneyText(r.totalPaid),
    moneyText(r.totalReceived),
    moneyText(r.residual),
    r.positions,
  ]);
  await insertRows(
    tx,
    'futures_funding_rounds',
    ['market_id', 'funding_time', 'rate', 'mark_price', 'total_paid', 'total_received', 'residual', 'positions'],
    funding,
  );
  const journal = batch.journal.map((j) => [j.sequence, j.kind, encodeJournal(j.payload), encodeJournal(j.inputs)]);
  await insertRows(tx, 'futures_journal', ['sequence', 'kind', 'payload', 'inputs'], journal);
}
