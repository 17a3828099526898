import { randomUUID } from 'node:crypto';
import {
  type AccountTrade,
  basisPointsAsPercent,
  type ModifyOrderRequest,
  normalizePairId,
  type Order,
  type OrdersQuery,
  type PlaceOrderRequest,
  priceBandMessage,
  type Trade,
} from '@platform/contracts';
import type { SelfTradePreventionMode } from '@platform/engine';
import type { Amount } from '@platform/money';
import type { Database } from '../../db/database.ts';
import { AppError, type Failure, fail, ok, type Result } from '../../lib/errors.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import { type Exchange, type OrderRow, orderFromRow } from './exchange.ts';
import type { MarketReads } from './market-reads.ts';
import { CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX, type CachedOrder, type OrderCache } from './order-cache.ts';
import { type OrderState, requiredReserve, sellLotCapForQuote, toOrderView } from './order-state.ts';
import {
  atomsOf,
  atomsText,
  type PairSpec,
  parseAmountInput,
  priceText,
  quoteAmountNotional,
  ticksOfPrice,
  toLots,
  toTicks,
  type UnitsError,
} from './pair-spec.ts';
import type { CommandOutcome, MarketSequencer } from './sequencer.ts';

export interface TradingDeps {
  db: Database;
  pubsub: PubSub;
  clock: () => Date;
  exchange: Exchange;
  bandBps: number;
  /** The markets' reference price of a pair: the price band is measured from it. */
  referencePrice: (pairId: string) => string | undefined;
  /** Placements under a client order id that have not been answered yet, by account and id. */
  placing: Map<string, Promise<Result<CommandOutcome>>>;
  /** The public reads of the markets (book, trades), encoded once per change. */
  marketReads: MarketReads;
  /** The hot order reads (an order by id, an account's open orders); the writer drops what it commits. */
  orders: OrderCache;
  /** The ledger's balance cache (GET /v1/accounts/:id/balance); the writer drops what it posts to. */
  balances: BalanceCache;
}

const PRICED_TYPES = new Set(['limit', 'stop_limit', 'take_profit_limit', 'oco']);
const STOP_TYPES = new Set(['stop_loss', 'stop_limit', 'take_profit', 'take_profit_limit', 'oco']);

function invalidAmount(detail: string, extra: Record<string, unknown> = {}): Failure {
  return fail('INVALID_AMOUNT', { details: { reason: detail, ...extra } });
}

function invalidPrice(detail: string, extra: Record<string, unknown> = {}): Failure {
  return fail('INVALID_PRICE', { details: { reason: detail, ...extra } });
}

/** Spec §8 keeps the code; the message says why, with the configured band (issue 13). */
function outOfBand(field: string, bandBps: number, referencePrice: string | null): Failure {
  const message = priceBandMessage(field, bandBps);
  return fail('INVALID_PRICE', {
    message,
    details: {
      reason: message,
      field,
      band_percent: basisPointsAsPercent(bandBps),
      reference_price: referencePrice,
    },
  });
}

function unitsProblem(field: string, error: UnitsError, decimals: number): string {
  switch (error) {
    case 'not_positive':
      return `${field} must be greater than zero`;
    case 'too_many_decimals':
      return `${field} has more than ${decimals} decimals`;
    case 'too_large':
      return `${field} is too large`;
  }
}

export function marketOf(exchange: Exchange, pair: string | undefined): Result<MarketSequencer> {
  const id = pair === undefined ? null : normalizePairId(pair);
  const market = id === null ? undefined : exchange.market(id);
  return market === undefined ? fail('TRADING_PAIR_NOT_FOUND') : ok(market);
}

export function referenceTicks(deps: Pick<TradingDeps, 'referencePrice'>, spec: PairSpec): number | null {
  const price = deps.referencePrice(spec.id);
  return price === undefined ? null : ticksOfPrice(spec, price);
}

/** |price - reference| <= reference x band, in integers. */
function withinBand(ticks: number, reference: number | null, bandBps: number): boolean {
  if (reference === null) return true;
  const distance = BigInt(Math.abs(ticks - reference)) * 10_000n;
  return distance <= BigInt(reference) * BigInt(bandBps);
}

/** The first price outside the band around the reference, as its failure; null when all are inside. */
function bandFailure(
  deps: TradingDeps,
  spec: PairSpec,
  reference: number | null,
  prices: readonly (readonly [string, number | null])[],
): Failure | null {
  for (const [field, ticks] of prices) {
    if (ticks !== null && !withinBand(ticks, reference, deps.bandBps)) {
      return outOfBand(field, deps.bandBps, reference === null ? null : priceText(spec, reference));
    }
  }
  return null;
}

type ParsedPrices = { priceTicks: number | null; stopPriceTicks: number | null; stopLimitPriceTicks: number | null };

function parsePrice(
  spec: PairSpec,
  field: string,
  input: string | number | undefined,
  required: boolean,
  allowed: boolean,
): Result<number | null> {
  const value = parseAmountInput(input);
  if (value === 'missing') return required ? invalidPrice(`${field} is required`, { field }) : ok(null);
  if (!allowed) return invalidPrice(`${field} is not used by this order type`, { field });
  if (value === 'invalid') return invalidPrice(`${field} must be a decimal number`, { field });
  const ticks = toTicks(spec, value);
  if (typeof ticks === 'string') return invalidPrice(unitsProblem(field, ticks, spec.pricePrecision), { field });
  return ok(ticks);
}

function parseQuantity(spec: PairSpec, field: string, value: Amount): Result<number> {
  const lots = toLots(spec, value);
  if (typeof lots === 'string') return invalidAmount(unitsProblem(field, lots, spec.quantityPrecision), { field });
  if (lots < spec.minLots) {
    return invalidAmount(`Minimum order quantity is ${spec.minQuantity} ${spec.base}`, {
      field,
      min: spec.minQuantity,
    });
  }
  if (lots > spec.maxLots) {
    return invalidAmount(`Maximum order quantity is ${spec.maxQuantity} ${spec.base}`, {
      field,
      max: spec.maxQuantity,
    });
  }
  return ok(lots);
}

function defaultTimeInForce(type: PlaceOrderRequest['type']): 'GTC' | 'IOC' {
  return type === 'market' ? 'IOC' : 'GTC';
}

/** The order flags that do not fit its type, as the spec's failure; null when they fit. */
function flagsFailure(type: PlaceOrderRequest['type'], timeInForce: string, postOnly: boolean): Failure | null {
  if (type === 'market' && timeInForce === 'GTC') {
    return fail('VALIDATION_ERROR', { message: 'Market orders are IOC or FOK', details: { field: 'time_in_force' } });
  }
  if (STOP_TYPES.has(type) && timeInForce !== 'GTC') {
    return fail('VALIDATION_ERROR', {
      message: 'Stop, take-profit and OCO orders are GTC',
      details: { field: 'time_in_force' },
    });
  }
  if (postOnly && !(type === 'limit' && timeInForce === 'GTC')) {
    return fail('VALIDATION_ERROR', {
      message: 'Post-only applies to GTC limit orders',
      details: { field: 'post_only' },
    });
  }
  return null;
}

function parsePrices(spec: PairSpec, request: PlaceOrderRequest): Result<ParsedPrices> {
  const { type } = request;
  const price = parsePrice(spec, 'price', request.price, PRICED_TYPES.has(type), PRICED_TYPES.has(type));
  if (!price.ok) return price;
  const stop = parsePrice(spec, 'stop_price', request.stop_price, STOP_TYPES.has(type), STOP_TYPES.has(type));
  if (!stop.ok) return stop;
  const stopLimit = parsePrice(spec, 'stop_limit_price', request.stop_limit_price, false, type === 'oco');
  if (!stopLimit.ok) return stopLimit;
  return ok({ priceTicks: price.value, stopPriceTicks: stop.value, stopLimitPriceTicks: stopLimit.value });
}

type OrderSize = { quantityLots: number | null; quoteNotional: bigint | null; lotCap: number };

/** The quantity, or for a market order the quote amount (with the lots a sell of it may take). */
function parseSize(
  deps: TradingDeps,
  spec: PairSpec,
  request: PlaceOrderRequest,
  reference: number | null,
): Result<OrderSize> {
  const quantity = parseAmountInput(request.quantity);
  const quote = parseAmountInput(request.quote_amount);
  if (quantity === 'invalid') return invalidAmount('quantity must be a decimal number', { field: 'quantity' });
  if (quote === 'invalid') return invalidAmount('quote_amount must be a decimal number', { field: 'quote_amount' });
  if (quote !== 'missing' && request.type !== 'market') {
    return invalidAmount('quote_amount is only for market orders', { field: 'quote_amount' });
  }
  if (quote !== 'missing' && quantity !== 'missing') {
    return invalidAmount('Give quantity or quote_amount, not both', { field: 'quantity' });
  }
  if (quantity !== 'missing') {
    const lots = parseQuantity(spec, 'quantity', quantity);
    return lots.ok ? ok({ quantityLots: lots.value, quoteNotional: null, lotCap: spec.maxLots }) : lots;
  }
  if (quote === 'missing') return invalidAmount('quantity is required', { field: 'quantity' });
  if (quote.units <= 0n) return invalidAmount('quote_amount must be greater than zero', { field: 'quote_amount' });
  const quoteNotional = quoteAmountNotional(spec, quote);
  if (quoteNotional === null) {
    const decimals = spec.pricePrecision + spec.quantityPrecision;
    return invalidAmount(`quote_amount has more than ${decimals} decimals`, { field: 'quote_amount' });
  }
  const lotCap =
    reference !== null && request.side === 'sell'
      ? Math.min(spec.maxLots, sellLotCapForQuote(quoteNotional, reference, deps.bandBps))
      : spec.maxLots;
  return ok({ quantityLots: null, quoteNotional, lotCap });
}

/** Builds the order a request describes, or the failure in the spec's words. */
export function orderFromRequest(
  deps: TradingDeps,
  accountId: string,
  market: MarketSequencer,
  request: PlaceOrderRequest,
  now: Date,
): Result<OrderState> {
  const spec = market.spec;
  if (!spec.tradable) return fail('TRADING_PAIR_INACTIVE');
  const { type } = request;
  const timeInForce = request.time_in_force ?? defaultTimeInForce(type);
  const postOnly = request.post_only ?? false;
  const flags = flagsFailure(type, timeInForce, postOnly);
  if (flags) return flags;
  const prices = parsePrices(spec, request);
  if (!prices.ok) return prices;
  const reference = referenceTicks(deps, spec);
  const band = bandFailure(deps, spec, reference, [
    ['price', prices.value.priceTicks],
    ['stop_price', prices.value.stopPriceTicks],
    ['stop_limit_price', prices.value.stopLimitPriceTicks],
  ]);
  if (band) return band;
  const size = parseSize(deps, spec, request, reference);
  if (!size.ok) return size;
  if (type === 'market' && reference === null) {
    return fail('ORDER_REJECTED', {
      message: 'Order placement failed: no market price yet',
      details: { reason: 'no_reference_price' },
    });
  }
  const order = newOrder(accountId, spec, request, { timeInForce, postOnly, reference, now }, prices.value, size.value);
  order.reserved = requiredReserve(
    spec,
    { ...order, openLots: order.quantityLots ?? order.lotCap },
    deps.bandBps,
    reference,
  );
  if (order.reserved <= 0n) return invalidAmount('The order amount is too small', { field: 'quantity' });
  return ok(order);
}

function newOrder(
  accountId: string,
  spec: PairSpec,
  request: PlaceOrderRequest,
  decided: { timeInForce: OrderState['timeInForce']; postOnly: boolean; reference: number | null; now: Date },
  prices: ParsedPrices,
  size: OrderSize,
): OrderState {
  return {
    id: randomUUID(),
    accountId,
    clientOrderId: request.client_order_id ?? null,
    pairId: spec.id,
    side: request.side,
    type: request.type,
    timeInForce: decided.timeInForce,
    postOnly: decided.postOnly,
    selfTradePrevention: (request.self_trade_prevention ?? null) as SelfTradePreventionMode | null,
    ...prices,
    ...size,
    filledLots: 0,
    filledTotal: 0n,
    fee: 0n,
    reserveCurrency: request.side === 'buy' ? spec.quote : spec.base,
    reserved: 0n,
    referenceTicks: decided.reference,
    status: 'pending',
    triggered: false,
    rejectReason: null,
    endReason: null,
    sequence: null,
    createdAt: decided.now,
    updatedAt: decided.now,
  };
}

/** The order placed earlier with this client order id, if any. */
async function existingForClientId(deps: TradingDeps, spec: PairSpec, order: OrderState): Promise<OrderState | null> {
  const found = await deps.db.query<OrderRow>('SELECT * FROM orders WHERE account_id = $1 AND client_order_id = $2', [
    order.accountId,
    order.clientOrderId,
  ]);
  const row = found.rows[0];
  return row === undefined ? null : orderFromRow(spec, row);
}

/** The first order, when the retry describes the same order; a different order under the id is a conflict. */
function sameOrConflict(spec: PairSpec, existing: OrderState, order: OrderState): Result<Order> {
  const same =
    existing.pairId === order.pairId &&
    existing.side === order.side &&
    existing.type === order.type &&
    existing.priceTicks === order.priceTicks &&
    existing.stopPriceTicks === order.stopPriceTicks &&
    (existing.quoteNotional !== null || existing.quantityLots === order.quantityLots) &&
    existing.quoteNotional === order.quoteNotional;
  return same ? ok(toOrderView(spec, existing)) : fail('IDEMPOTENCY_CONFLICT');
}

/** What each engine refusal means, for the error's details (the message stays the spec's text). */
const REJECTION_EXPLANATIONS: Record<string, string> = {
  post_only_would_cross: 'A post-only order would have traded at once',
  fok_not_fillable: 'A fill-or-kill order could not be filled completely',
  stop_would_trigger_immediately: 'The stop price has already been reached',
  price_outside_band: 'The price is too far from the market price',
  quantity_below_minimum: 'The quantity is below the minimum',
  quantity_above_maximum: 'The quantity is above the maximum',
  invalid_modification: 'Nothing to change, or the new quantity is not above what has filled',
  invalid_price: 'The prices do not fit this order type or side',
  invalid_stop_price: 'The stop price does not fit this order type or side',
};

function outcomeResult(market: MarketSequencer, outcome: Result<CommandOutcome>): Result<Order> {
  if (!outcome.ok) return outcome;
  if (outcome.value.status === 'accepted') return ok(toOrderView(market.spec, outcome.value.order));
  return outcomeFailure(market, outcome.value);
}

function outcomeFailure(market: MarketSequencer, outcome: Extract<CommandOutcome, { status: 'rejected' }>): Failure {
  const reason = outcome.reason;
  if (reason === 'insufficient_balance') return fail('INSUFFICIENT_BALANCE');
  const order = outcome.order === null ? null : toOrderView(market.spec, outcome.order);
  if (reason === 'unknown_order') return fail('ORDER_NOT_OPEN', { details: { reason } });
  const explanation = REJECTION_EXPLANATIONS[reason] ?? reason.replaceAll('_', ' ');
  return fail('ORDER_REJECTED', { details: { reason, explanation, order } });
}

/**
 * A command's outcome; a write that failed is a failure too: its own code when it was an expected
 * one (a balance taken meanwhile), else ORDER_PLACEMENT_FAILED (the cause is in the log).
 */
async function submit(market: MarketSequencer, run: () => Promise<CommandOutcome>): Promise<Result<CommandOutcome>> {
  try {
    return ok(await run());
  } catch (error) {
    if (error instanceof AppError) return fail(error.code, { message: error.message, details: error.details });
    return fail('ORDER_PLACEMENT_FAILED', { details: { pair: market.spec.id } });
  }
}

/**
 * Places an order: validates it against the pair and the price band, then hands it to the market's
 * sequencer, which checks its hold against the funds book in memory ('Insufficient balance' when it
 * does not fit) and writes the order, the hold and the journal with its batch in one statement; the
 * answer comes once that statement has committed. A client order id already used returns the first order.
 */
export async function placeOrder(
  deps: TradingDeps,
  accountId: string,
  request: PlaceOrderRequest,
): Promise<Result<{ order: Order; created: boolean }>> {
  const market = marketOf(deps.exchange, request.trading_pair ?? request.symbol);
  if (!market.ok) return market;
  const order = orderFromRequest(deps, accountId, market.value, request, deps.clock());
  if (!order.ok) return order;
  if (order.value.clientOrderId === null) {
    const placed = outcomeResult(market.value, await submit(market.value, () => market.value.place(order.value)));
    return placed.ok ? ok({ order: placed.value, created: true }) : placed;
  }
  return placeOnce(deps, market.value, order.value, () => placeOrder(deps, accountId, request));
}

/** Idempotent placement: a retry while the first is in flight waits for it; a later one finds its row. */
async function placeOnce(
  deps: TradingDeps,
  market: MarketSequencer,
  order: OrderState,
  again: () => Promise<Result<{ order: Order; created: boolean }>>,
): Promise<Result<{ order: Order; created: boolean }>> {
  const key = `${order.accountId}:${order.clientOrderId}`;
  for (let inFlight = deps.placing.get(key); inFlight !== undefined; inFlight = deps.placing.get(key)) {
    await inFlight.catch(() => null);
  }
  const existing = await existingForClientId(deps, market.spec, order);
  if (existing !== null) {
    const first = sameOrConflict(market.spec, existing, order);
    return first.ok ? ok({ order: first.value, created: false }) : first;
  }
  if (deps.placing.has(key)) return again();
  const run = submit(market, () => market.place(order));
  deps.placing.set(key, run);
  try {
    const placed = outcomeResult(market, await run);
    return placed.ok ? ok({ order: placed.value, created: true }) : placed;
  } finally {
    if (deps.placing.get(key) === run) deps.placing.delete(key);
  }
}

async function ownedOrderRow(deps: TradingDeps, accountId: string, orderId: string): Promise<Result<OrderRow>> {
  const found = await deps.db.query<OrderRow>('SELECT * FROM orders WHERE id = $1 AND account_id = $2', [
    orderId,
    accountId,
  ]);
  const row = found.rows[0];
  // Someone else's order answers exactly like a missing one: nothing leaks.
  return row === undefined ? fail('ORDER_NOT_FOUND') : ok(row);
}

/** An open order of the account, with its market. */
async function openOrderOf(
  deps: TradingDeps,
  accountId: string,
  orderId: string,
): Promise<Result<{ row: OrderRow; market: MarketSequencer }>> {
  const row = await ownedOrderRow(deps, accountId, orderId);
  if (!row.ok) return row;
  const market = marketOf(deps.exchange, row.value.pair_id);
  if (!market.ok) return market;
  if (row.value.status !== 'pending' && row.value.status !== 'partial') return fail('ORDER_NOT_OPEN');
  return ok({ row: row.value, market: market.value });
}

export async function cancelOrder(deps: TradingDeps, accountId: string, orderId: string): Promise<Result<Order>> {
  const open = await openOrderOf(deps, accountId, orderId);
  if (!open.ok) return open;
  const { market } = open.value;
  return outcomeResult(market, await submit(market, () => market.cancel(orderId, accountId)));
}

type Modification = { quantityLots: number | null; priceTicks: number | null; stopPriceTicks: number | null };

/** What a modify request changes, checked against the open order. */
function parseModification(spec: PairSpec, open: OrderState, request: ModifyOrderRequest): Result<Modification> {
  const quantity = parseAmountInput(request.quantity);
  if (quantity === 'invalid') return invalidAmount('quantity must be a decimal number', { field: 'quantity' });
  const lots = quantity === 'missing' ? ok(null) : parseQuantity(spec, 'quantity', quantity);
  if (!lots.ok) return lots;
  const price = parsePrice(spec, 'price', request.price, false, PRICED_TYPES.has(open.type));
  if (!price.ok) return price;
  const stop = parsePrice(spec, 'stop_price', request.stop_price, false, STOP_TYPES.has(open.type));
  if (!stop.ok) return stop;
  if (lots.value === null && price.value === null && stop.value === null) {
    return invalidAmount('Nothing to change: give quantity, price or stop_price', { field: 'quantity' });
  }
  if (lots.value !== null && lots.value <= open.filledLots) {
    return invalidAmount('The new quantity must be more than what has already filled', { field: 'quantity' });
  }
  return ok({ quantityLots: lots.value, priceTicks: price.value, stopPriceTicks: stop.value });
}

export async function modifyOrder(
  deps: TradingDeps,
  accountId: string,
  orderId: string,
  request: ModifyOrderRequest,
): Promise<Result<Order>> {
  const found = await openOrderOf(deps, accountId, orderId);
  if (!found.ok) return found;
  const { market } = found.value;
  const spec = market.spec;
  const open = market.orders.get(orderId);
  if (open === undefined) return fail('ORDER_NOT_OPEN');
  const change = parseModification(spec, open, request);
  if (!change.ok) return change;
  const { quantityLots, priceTicks, stopPriceTicks } = change.value;
  const reference = referenceTicks(deps, spec);
  const band = bandFailure(deps, spec, reference, [
    ['price', priceTicks],
    ['stop_price', stopPriceTicks],
  ]);
  if (band) return band;
  // The extra hold is sized by the sequencer against the order as it is when the change applies.
  const modify = { orderId, accountId, quantityLots, priceTicks, stopPriceTicks, referenceTicks: reference };
  return outcomeResult(market, await submit(market, () => market.modify(modify)));
}

/** One of the account's orders, from the order cache when no committed batch changed it since it was read. */
export async function getOrder(deps: TradingDeps, accountId: string, orderId: string): Promise<Result<Order>> {
  const order = await deps.orders.byId.read(
    orderId,
    async () => {
      const found = await deps.db.query<OrderRow>('SELECT * FROM orders WHERE id = $1', [orderId]);
      return found.rows[0] === undefined ? null : cachedOrder(deps.exchange, found.rows[0]);
    },
    (loaded) => loaded !== null && loaded.view !== null,
  );
  // Someone else's order answers exactly like a missing one: nothing leaks.
  if (order === null || order.accountId !== accountId) return fail('ORDER_NOT_FOUND');
  if (order.view === null) {
    const market = marketOf(deps.exchange, order.pairId);
    return market.ok ? fail('ORDER_NOT_FOUND') : market;
  }
  return ok(order.view);
}

function cachedOrder(exchange: Exchange, row: OrderRow): CachedOrder {
  const market = exchange.market(row.pair_id);
  return {
    accountId: row.account_id,
    pairId: row.pair_id,
    side: row.side,
    type: row.type,
    view: market === undefined ? null : toOrderView(market.spec, orderFromRow(market.spec, row)),
  };
}

type OrderPage = { orders: Order[]; pagination: { page: number; limit: number; total: number } };

/**
 * The account's orders with the query's filters. Open orders without a time window (the hot read:
 * a trading screen polls it) come from the order cache; everything else is history, read from the
 * database.
 */
export async function listOrders(deps: TradingDeps, accountId: string, query: OrdersQuery): Promise<OrderPage> {
  if (query.status === 'open' && query.from === undefined && query.to === undefined) {
    const open = await openOrders(deps, accountId);
    if (open !== null) return openOrdersPage(open, query);
  }
  return listOrdersFromDatabase(deps, accountId, query);
}

/** Every open order of the account, newest first; null past CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX. */
function openOrders(deps: TradingDeps, accountId: string): Promise<readonly CachedOrder[] | null> {
  return deps.orders.openByAccount.read(
    accountId,
    async () => {
      const rows = await deps.db.query<OrderRow>(
        `SELECT * FROM orders WHERE account_id = $1 AND status IN ('pending', 'partial')
         ORDER BY created_at DESC, id LIMIT ${CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX + 1}`,
        [accountId],
      );
      if (rows.rows.length > CACHED_OPEN_ORDERS_PER_ACCOUNT_MAX) return null;
      return rows.rows.map((row) => cachedOrder(deps.exchange, row));
    },
    (loaded) => loaded !== null,
  );
}

/** The page the database query would answer, filtered and cut from the account's open orders. */
function openOrdersPage(open: readonly CachedOrder[], query: OrdersQuery): OrderPage {
  const pair = query.trading_pair ?? query.symbol;
  const pairId = pair === undefined ? undefined : (normalizePairId(pair) ?? '');
  const matching = open.filter(
    (order) =>
      (pairId === undefined || order.pairId === pairId) &&
      (query.side === undefined || order.side === query.side) &&
      (query.type === undefined || order.type === query.type),
  );
  const start = (query.page - 1) * query.limit;
  const orders = matching.slice(start, start + query.limit).flatMap((order) => (order.view ? [order.view] : []));
  return { orders, pagination: { page: query.page, limit: query.limit, total: matching.length } };
}

async function listOrdersFromDatabase(deps: TradingDeps, accountId: string, query: OrdersQuery): Promise<OrderPage> {
  const conditions = ['account_id = $1'];
  const params: unknown[] = [accountId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (query.status === 'open') conditions.push(`status IN ('pending', 'partial')`);
  else if (query.status === 'closed') conditions.push(`status NOT IN ('pending', 'partial')`);
  else if (query.status !== undefined) add('status = ?', query.status);
  const pair = query.trading_pair ?? query.symbol;
  if (pair !== undefined) add('pair_id = ?', normalizePairId(pair) ?? '');
  if (query.side !== undefined) add('side = ?', query.side);
  if (query.type !== undefined) add('type = ?', query.type);
  if (query.from !== undefined) add('created_at >= ?', new Date(query.from).toISOString());
  if (query.to !== undefined) add('created_at < ?', new Date(query.to).toISOString());
  const where = conditions.join(' AND ');
  const total = await deps.db.query<{ count: bigint | string }>(
    `SELECT count(*) AS count FROM orders WHERE ${where}`,
    params,
  );
  const rows = await deps.db.query<OrderRow>(
    `SELECT * FROM orders WHERE ${where} ORDER BY created_at DESC, id LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`,
    params,
  );
  const orders = rows.rows.flatMap((row) => {
    const market = deps.exchange.market(row.pair_id);
    return market === undefined ? [] : [toOrderView(market.spec, orderFromRow(market.spec, row))];
  });
  return { orders, pagination: { page: query.page, limit: query.limit, total: Number(total.rows[0]?.count ?? 0) } };
}

/** An optional time range [fromMs, toMs) of the statistics reads; an end left out is unbounded. */
export type TimeRange = { fromMs?: number | undefined; toMs?: number | undefined };

/** The SQL condition and parameters of a range on one time column, parameters numbered after `offset`. */
function rangeCondition(column: string, range: TimeRange, offset: number): { sql: string; params: string[] } {
  const params: string[] = [];
  let sql = '';
  if (range.fromMs !== undefined) {
    params.push(new Date(range.fromMs).toISOString());
    sql += ` AND ${column} >= $${offset + params.length}`;
  }
  if (range.toMs !== undefined) {
    params.push(new Date(range.toMs).toISOString());
    sql += ` AND ${column} < $${offset + params.length}`;
  }
  return { sql, params };
}

/** Orders created in the range (all of the account's orders without one). */
export async function orderStatistics(deps: TradingDeps, accountId: string, range: TimeRange = {}) {
  const period = rangeCondition('created_at', range, 1);
  const rows = await deps.db.query<{ status: string; side: string; type: string; count: bigint | string }>(
    `SELECT status, side, type, count(*) AS count FROM orders WHERE account_id = $1${period.sql} GROUP BY status, side, type`,
    [accountId, ...period.params],
  );
  const byStatus: Record<string, number> = {};
  const byType: Record<string, number> = {};
  const bySide = { buy: 0, sell: 0 };
  let total = 0;
  let open = 0;
  for (const row of rows.rows) {
    const count = Number(row.count);
    total += count;
    if (row.status === 'pending' || row.status === 'partial') open += count;
    byStatus[row.status] = (byStatus[row.status] ?? 0) + count;
    byType[row.type] = (byType[row.type] ?? 0) + count;
    bySide[row.side as 'buy' | 'sell'] += count;
  }
  return { total, open, by_status: byStatus, by_side: bySide, by_type: byType };
}

export type TradeRow = {
  id: string;
  pair_id: string;
  price: string;
  quantity: string;
  total: string;
  taker_side: 'buy' | 'sell';
  maker_order_id: string;
  taker_order_id: string;
  maker_account_id: string;
  taker_account_id: string;
  maker_fee: string;
  taker_fee: string;
  fee_currency: string;
  executed_at: Date | string;
};

const plain = (text: string) => {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
};

/** A trade as the public sees it (no accounts, no fees): the tape's and the table's one view. */
export function tradeView(deps: Pick<TradingDeps, 'exchange'>, row: TradeRow): Trade {
  const market = deps.exchange.market(row.pair_id);
  const spec = market?.spec;
  return {
    id: row.id,
    trading_pair: row.pair_id,
    symbol: spec?.symbol ?? row.pair_id.replace('_', '/'),
    price: plain(row.price),
    quantity: plain(row.quantity),
    total: plain(row.total),
    side: row.taker_side,
    timestamp: new Date(row.executed_at).getTime(),
  };
}

function accountTradeView(deps: TradingDeps, accountId: string, row: TradeRow): AccountTrade {
  const isMaker = row.maker_account_id === accountId;
  const takerSide = row.taker_side;
  const side = isMaker ? (takerSide === 'buy' ? 'sell' : 'buy') : takerSide;
  return {
    ...tradeView(deps, row),
    order_id: isMaker ? row.maker_order_id : row.taker_order_id,
    side,
    role: isMaker ? 'maker' : 'taker',
    fee: plain(isMaker ? row.maker_fee : row.taker_fee),
    fee_currency: row.fee_currency,
  };
}

export async function getTrade(deps: TradingDeps, accountId: string, tradeId: string): Promise<Result<AccountTrade>> {
  const found = await deps.db.query<TradeRow>(
    'SELECT * FROM trades WHERE id = $1 AND (maker_account_id = $2 OR taker_account_id = $2)',
    [tradeId, accountId],
  );
  const row = found.rows[0];
  return row === undefined ? fail('TRADE_NOT_FOUND') : ok(accountTradeView(deps, accountId, row));
}

export async function listAccountTrades(
  deps: TradingDeps,
  accountId: string,
  query: {
    trading_pair?: string;
    symbol?: string;
    side?: 'buy' | 'sell';
    from?: number;
    to?: number;
    limit: number;
    page: number;
  },
) {
  const conditions = ['(maker_account_id = $1 OR taker_account_id = $1)'];
  const params: unknown[] = [accountId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replaceAll('?', `$${params.length}`));
  };
  const pair = query.trading_pair ?? query.symbol;
  if (pair !== undefined) add('pair_id = ?', normalizePairId(pair) ?? '');
  if (query.side !== undefined) {
    add(`((taker_account_id = $1 AND taker_side = ?) OR (maker_account_id = $1 AND taker_side <> ?))`, query.side);
  }
  if (query.from !== undefined) add('executed_at >= ?', new Date(query.from).toISOString());
  if (query.to !== undefined) add('executed_at < ?', new Date(query.to).toISOString());
  const where = conditions.join(' AND ');
  const total = await deps.db.query<{ count: bigint | string }>(
    `SELECT count(*) AS count FROM trades WHERE ${where}`,
    params,
  );
  const rows = await deps.db.query<TradeRow>(
    `SELECT * FROM trades WHERE ${where} ORDER BY executed_at DESC, id DESC LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}`,
    params,
  );
  return {
    trades: rows.rows.map((row) => accountTradeView(deps, accountId, row)),
    pagination: { page: query.page, limit: query.limit, total: Number(total.rows[0]?.count ?? 0) },
  };
}

/** Fills executed in the range (all of the account's fills without one). */
export async function tradingStatistics(deps: TradingDeps, accountId: string, range: TimeRange = {}) {
  const period = rangeCondition('executed_at', range, 1);
  const rows = await deps.db.query<TradeRow>(
    `SELECT * FROM trades WHERE (maker_account_id = $1 OR taker_account_id = $1)${period.sql}`,
    [accountId, ...period.params],
  );
  const volume = new Map<string, bigint>();
  const fees = new Map<string, bigint>();
  const pairs = new Set<string>();
  let buys = 0;
  let makers = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const row of rows.rows) {
    const view = accountTradeView(deps, accountId, row);
    if (view.side === 'buy') buys++;
    if (view.role === 'maker') makers++;
    pairs.add(row.pair_id);
    volume.set(row.fee_currency, (volume.get(row.fee_currency) ?? 0n) + atomsOf(row.total));
    fees.set(row.fee_currency, (fees.get(row.fee_currency) ?? 0n) + atomsOf(view.fee));
    first = first === null ? view.timestamp : Math.min(first, view.timestamp);
    last = last === null ? view.timestamp : Math.max(last, view.timestamp);
  }
  const record = (map: Map<string, bigint>) =>
    Object.fromEntries([...map].map(([key, value]) => [key, atomsText(value)]));
  return {
    total_trades: rows.rows.length,
    buy_trades: buys,
    sell_trades: rows.rows.length - buys,
    maker_trades: makers,
    taker_trades: rows.rows.length - makers,
    volume_by_quote: record(volume),
    fees_by_currency: record(fees),
    pairs_traded: pairs.size,
    first_trade_at: first,
    last_trade_at: last,
  };
}

/** One of the account's spot fills, seen from its side (analytics reads a whole period of them). */
export type PeriodTrade = AccountTrade & { pairId: string; quoteCurrency: string; executedAtMs: number };

/** The account's fills executed in [fromMs, toMs), oldest first. */
export async function periodTrades(
  deps: TradingDeps,
  accountId: string,
  fromMs: number,
  toMs: number,
): Promise<PeriodTrade[]> {
  const period = rangeCondition('executed_at', { fromMs, toMs }, 1);
  const rows = await deps.db.query<TradeRow>(
    `SELECT * FROM trades WHERE (maker_account_id = $1 OR taker_account_id = $1)${period.sql} ORDER BY executed_at, id`,
    [accountId, ...period.params],
  );
  return rows.rows.map((row) => ({
    ...accountTradeView(deps, accountId, row),
    pairId: row.pair_id,
    quoteCurrency: row.fee_currency,
    executedAtMs: new Date(row.executed_at).getTime(),
  }));
}

/** The account's balances from the ledger's balance cache (exact: dropped by every committed change). */
export async function accountBalances(deps: TradingDeps, accountId: string) {
  const rows = await deps.balances.balances(accountId);
  return {
    account_id: accountId,
    balances: rows.map((row) => ({
      currency: row.currency,
      available: row.available,
      locked: row.locked,
      total: atomsText(atomsOf(row.available) + atomsOf(row.locked)),
    })),
  };
}
