import type { PlaceOrderCommand } from '@platform/engine';
import type { Queryable } from '../../db/database.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { type OrderRow, orderFromRow } from './rows.ts';
import type { FuturesState } from './state.ts';
import { type FuturesOrderState, futuresKey } from './types.ts';
import { storedUnits } from './units.ts';
import { waits } from './waiting.ts';

type PositionRow = {
  account_id: string;
  market_id: string;
  size_lots: string;
  cost_tick_lots: string;
  isolated_margin: string;
  realised_pnl: string;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  updated_at: Date | string;
};

const ticksOrNull = (text: string | null, spec: FuturesMarketSpec) =>
  text === null ? null : Number(storedUnits(text, spec.priceDecimals));

/** Fills `state` (fresh) from the committed rows: positions, settings, open orders (books rebuilt in priority), wallets. */
export async function loadState(db: Queryable, state: FuturesState): Promise<void> {
  await loadPositions(db, state);
  const settings = await db.query<{ account_id: string; market_id: string; leverage: number; margin_mode: string }>(
    'SELECT account_id::text AS account_id, market_id, leverage, margin_mode FROM futures_settings',
  );
  for (const row of settings.rows) {
    const mode = row.margin_mode === 'isolated' ? 'isolated' : 'cross';
    state.settings.set(futuresKey(row.account_id, row.market_id), {
      accountId: row.account_id,
      marketId: row.market_id,
      leverage: Number(row.leverage),
      mode,
    });
  }
  // Journal rows and engine commands share the sequence: the next one follows both (a follow-up's
  // engine sequence may pass its command's journal row).
  const last = await db.query<{ sequence: string | null }>(
    `SELECT greatest((SELECT max(sequence) FROM futures_journal), (SELECT max(sequence) FROM futures_orders))::text AS sequence`,
  );
  state.sequence = Number(last.rows[0]?.sequence ?? 0);
  await loadOpenOrders(db, state);
  await loadLastTrades(db, state);
  const accounts = new Set<string>([...state.positions.values()].map((p) => p.accountId));
  for (const order of state.orders.values()) accounts.add(order.accountId);
  await state.loadWallets(db, accounts);
  const fund = await db.query<{ available: string }>(
    `SELECT available::text AS available FROM ledger_accounts
     WHERE owner_kind = 'system' AND system_name = 'insurance_fund' AND currency = 'USD'`,
  );
  state.insuranceFund = fund.rows[0] ? storedUnits(fund.rows[0].available, 8) : 0n;
}

async function loadPositions(db: Queryable, state: FuturesState): Promise<void> {
  const rows = await db.query<PositionRow>(
    `SELECT account_id::text AS account_id, market_id, size_lots::text AS size_lots, cost_tick_lots::text AS cost_tick_lots,
       isolated_margin::text AS isolated_margin, realised_pnl::text AS realised_pnl,
       take_profit_price::text AS take_profit_price, stop_loss_price::text AS stop_loss_price, updated_at
     FROM futures_positions`,
  );
  for (const row of rows.rows) {
    const spec = state.markets.get(row.market_id);
    if (!spec) continue;
    state.positions.set(futuresKey(row.account_id, row.market_id), {
      accountId: row.account_id,
      marketId: row.market_id,
      sizeLots: Number(row.size_lots),
      costTickLots: storedUnits(row.cost_tick_lots, 0),
      isolatedMargin: storedUnits(row.isolated_margin, 8),
      realisedPnl: storedUnits(row.realised_pnl, 8),
      takeProfitTicks: ticksOrNull(row.take_profit_price, spec),
      stopLossTicks: ticksOrNull(row.stop_loss_price, spec),
      updatedAt: new Date(row.updated_at),
    });
  }
}

/**
 * Open orders, in their engine sequence: each resting one is placed again into a fresh book with
 * its own sequence and its open quantity, without a reference price (no band), so the books come
 * back in the same priority; triggered stop-limit and take-profit-limit orders rest as limits.
 * Orders still waiting for their trigger go back into memory only (waiting.ts), as they were.
 */
async function loadOpenOrders(db: Queryable, state: FuturesState): Promise<void> {
  const rows = await db.query<OrderRow>(
    `SELECT * FROM futures_orders WHERE status IN ('pending', 'partial') AND sequence IS NOT NULL ORDER BY sequence`,
  );
  for (const row of rows.rows) {
    const spec = state.markets.get(row.market_id);
    if (!spec) continue;
    const order = orderFromRow(spec, row);
    if (!waits(order)) {
      const result = state.engine(spec.id).apply(restingCommand(order));
      if (result.status !== 'accepted')
        throw new Error(`open order ${order.id} could not be restored: ${result.reason}`);
    }
    state.orders.set(order.id, order);
  }
}

/** Only limits rest (market orders never do; a triggered stop-limit rests as the limit it became). */
function restingCommand(order: FuturesOrderState): PlaceOrderCommand {
  return {
    kind: 'place',
    sequence: order.sequence!,
    timestampMs: order.createdAt.getTime(),
    orderId: order.id,
    accountId: order.accountId,
    side: order.side,
    type: 'limit',
    quantityLots: order.quantityLots - order.filledLots,
    quoteAmount: null,
    priceTicks: order.priceTicks,
    stopPriceTicks: null,
    stopLimitPriceTicks: null,
    timeInForce: 'GTC',
    postOnly: false,
    selfTradePrevention: null,
    referencePriceTicks: null,
  };
}

/**
 * Each book's last trade price (TP/SL checks and stop triggers read it): the price of the market's
 * latest engine trade (fill ids `{MARKET}:{sequence}:{n}`; ADL fills do not trade on the book).
 */
async function loadLastTrades(db: Queryable, state: FuturesState): Promise<void> {
  const rows = await db.query<{ market_id: string; price: string }>(
    `SELECT m.market_id, f.price::text AS price
     FROM unnest($1::text[]) AS m(market_id)
     CROSS JOIN LATERAL (
       SELECT price FROM futures_fills
       WHERE market_id = m.market_id AND role = 'taker' AND id ~ '^[A-Z0-9_]+:[0-9]+:[0-9]+$'
       ORDER BY executed_at DESC, split_part(id, ':', 2)::bigint DESC, split_part(id, ':', 3)::int DESC
       LIMIT 1
     ) AS f`,
    [[...state.markets.keys()]],
  );
  for (const row of rows.rows) {
    const spec = state.markets.get(row.market_id)!;
    const engine = state.engine(spec.id);
    const snapshot = engine.snapshot();
    const last = Number(storedUnits(row.price, spec.priceDecimals));
    engine.restore({ ...snapshot, book: { ...snapshot.book, lastTradePriceTicks: last } });
  }
}
