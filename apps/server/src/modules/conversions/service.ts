import { randomUUID } from 'node:crypto';
import {
  CONVERSION_PRICE_TOLERANCE_BPS,
  CONVERSION_QUOTE_VALID_SECONDS,
  type Conversion,
  type ConversionEstimateQuery,
  type ConversionKind,
  type ConversionPair,
  type ConversionPairsResponse,
  type ConversionPriceSource,
  type ConversionQuote,
  type ConversionSpread,
  type CreateConversionRequest,
  type ExecuteQuickTradeRequest,
  QUICK_TRADE_TYPES,
  type QuickTrade,
  type QuickTradeType,
} from '@platform/contracts';
import { decimal, formatDecimal, parseDecimal, toUnits } from '@platform/money';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError, fail, type Result, unwrap } from '../../lib/errors.ts';
import { type EntryInput, postEntries } from '../ledger/service.ts';
import {
  currencyDecimals,
  parseCurrency,
  parseIdempotencyKey,
  parseWalletAmount,
  unitsText,
  WALLET_CURRENCIES,
} from '../wallet/rules.ts';
import { type ConversionLimits, checkExposure, enforceExposure } from './exposure.ts';
import {
  type ConversionPrice,
  candidateRoutes,
  checkMinimum,
  type MarketView,
  priceConversion,
  routeCurrencies,
  usdValue,
} from './pricing.ts';

export interface ConversionDeps {
  db: Database;
  clock: () => Date;
  /** The markets and their reference prices (read-only; never the books). */
  markets: MarketView;
  /** The oldest reference quoted from, and the per-minute exposure limits. */
  limits: ConversionLimits;
  /** When expired quotes were last swept (ms on the server clock). */
  sweptAtMs?: number;
}

/** The house desk: takes what the caller gives and pays what it receives (house capital, may go negative). */
const HOUSE_DESK = { kind: 'system', name: 'market_making' } as const;
/** Where the spread goes, in the currency received, so that the revenue shows. */
const REVENUE = { kind: 'system', name: 'fees' } as const;
/** The ledger entry kind of both conversions and quick trades (the wallet history calls it 'conversion'). */
export const CONVERSION_ENTRY_KIND = 'conversion';

/** Expired quotes are kept this long (their owner is told QUOTE_EXPIRED, not QUOTE_NOT_FOUND), then swept. */
const QUOTE_RETENTION_MS = 60 * 60_000;
/** Sweeping costs one DELETE; at most once a minute, from the estimate path. */
const SWEEP_EVERY_MS = 60_000;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Order = { from: string; to: string; fromUnits: bigint };
type Fields = { from: string; to: string; amount: string };
const CONVERSION_FIELDS: Fields = { from: 'from_currency', to: 'to_currency', amount: 'from_amount' };
const TRADE_FIELDS: Fields = { from: 'sell_currency', to: 'buy_currency', amount: 'sell_amount' };

type QuoteRow = {
  id: string;
  account_id: string;
  from_currency: string;
  to_currency: string;
  from_amount: string;
  gross_amount: string;
  spread_amount: string;
  to_amount: string;
  rate: string;
  spread_bps: number;
  price_source: ConversionPriceSource;
  route: string[];
  created_at: Date | string;
  expires_at: Date | string;
};

/** What a price fixes of a quote or a conversion. */
type PricedColumns = Pick<
  QuoteRow,
  'gross_amount' | 'spread_amount' | 'to_amount' | 'rate' | 'spread_bps' | 'price_source' | 'route'
>;

type ConversionRow = Omit<QuoteRow, 'expires_at'> & {
  kind: ConversionKind;
  quote_id: string | null;
  trade_type: string | null;
  target_amount: string | null;
  idempotency_key: string | null;
};

const CONVERSION_COLUMNS = `id, account_id, kind, quote_id, from_currency, to_currency, from_amount::text AS from_amount,
  gross_amount::text AS gross_amount, spread_amount::text AS spread_amount, to_amount::text AS to_amount,
  rate::text AS rate, spread_bps, price_source, route, trade_type, target_amount::text AS target_amount,
  idempotency_key, created_at`;
const QUOTE_COLUMNS = `id, account_id, from_currency, to_currency, from_amount::text AS from_amount,
  gross_amount::text AS gross_amount, spread_amount::text AS spread_amount, to_amount::text AS to_amount,
  rate::text AS rate, spread_bps, price_source, route, created_at, expires_at`;

/** NUMERIC text in canonical form ('1.50000000' -> '1.5'). */
function canonical(text: string): string {
  return formatDecimal(decimal(text), { trimZeros: true });
}

function spreadOf(row: { spread_bps: number; spread_amount: string; to_currency: string }): ConversionSpread {
  return {
    percent: formatDecimal({ units: BigInt(row.spread_bps), scale: 2 }, { trimZeros: true }),
    amount: canonical(row.spread_amount),
    currency: row.to_currency,
  };
}

function toQuote(row: QuoteRow): ConversionQuote {
  return {
    quote_id: row.id,
    from_currency: row.from_currency,
    to_currency: row.to_currency,
    from_amount: canonical(row.from_amount),
    to_amount: canonical(row.to_amount),
    rate: canonical(row.rate),
    spread: spreadOf(row),
    price_source: row.price_source,
    route: row.route,
    expires_at: new Date(row.expires_at).toISOString(),
    valid_for_seconds: CONVERSION_QUOTE_VALID_SECONDS,
  };
}

export function toConversion(row: ConversionRow): Conversion {
  return {
    id: row.id,
    kind: row.kind,
    status: 'completed',
    quote_id: row.quote_id,
    from_currency: row.from_currency,
    to_currency: row.to_currency,
    from_amount: canonical(row.from_amount),
    to_amount: canonical(row.to_amount),
    rate: canonical(row.rate),
    spread: spreadOf(row),
    price_source: row.price_source,
    route: row.route,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function toQuickTrade(row: ConversionRow): QuickTrade {
  return {
    id: row.id,
    status: 'completed',
    trade_type: row.trade_type ?? 'market',
    sell_currency: row.from_currency,
    buy_currency: row.to_currency,
    sell_amount: canonical(row.from_amount),
    buy_amount: canonical(row.to_amount),
    target_amount: row.target_amount === null ? null : canonical(row.target_amount),
    rate: canonical(row.rate),
    spread: spreadOf(row),
    price_source: row.price_source,
    route: row.route,
    created_at: new Date(row.created_at).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Input rules
// ---------------------------------------------------------------------------------------------

function withField<T>(result: Result<T>, field: string): Result<T> {
  if (result.ok) return result;
  const details = typeof result.details === 'object' && result.details !== null ? result.details : {};
  return { ...result, details: { ...details, field } };
}

function parseConversionCurrency(input: string, field: string): Result<string> {
  if (input.trim() === '') return fail('CURRENCY_NOT_SUPPORTED', { details: { field } });
  return withField(parseCurrency(input), field);
}

/**
 * The §5 rules of a conversion or a quick trade, in order: both currencies supported ('Currency
 * {X} is not supported'), two different currencies joined by a route (CONVERSION_NOT_SUPPORTED),
 * an amount greater than zero with no more decimals than the currency has.
 */
function parseOrder(
  markets: MarketView,
  fromInput: string,
  toInput: string,
  amountInput: string | number,
  fields: Fields,
): Order {
  const from = unwrap(parseConversionCurrency(fromInput, fields.from));
  const to = unwrap(parseConversionCurrency(toInput, fields.to));
  if (from === to) {
    throw new AppError('CONVERSION_NOT_SUPPORTED', {
      message: 'Choose two different currencies to convert between',
      details: { field: fields.to, reason: 'same_currency' },
    });
  }
  if (candidateRoutes(markets, from, to).length === 0) {
    throw new AppError('CONVERSION_NOT_SUPPORTED', { details: { [fields.from]: from, [fields.to]: to } });
  }
  const fromUnits = unwrap(withField(parseWalletAmount(amountInput, from), fields.amount));
  return { from, to, fromUnits };
}

/** A price as the columns that store it, amounts in the received currency. */
function pricedColumns(price: ConversionPrice, to: string): PricedColumns {
  return {
    gross_amount: unitsText(price.grossUnits, to),
    spread_amount: unitsText(price.spreadUnits, to),
    to_amount: unitsText(price.toUnits, to),
    rate: price.rate,
    spread_bps: price.spreadBps,
    price_source: price.priceSource,
    route: price.route,
  };
}

/** The minimum (about 1 USD), then the price at the current reference, which must be fresh. */
function priceOrder(deps: ConversionDeps, order: Order, fields: Fields): ConversionPrice {
  const { markets } = deps;
  unwrap(withField(checkMinimum(markets, order.from, order.fromUnits), fields.amount));
  const freshness = { nowMs: deps.clock().getTime(), maxAgeMs: deps.limits.referenceMaxAgeMs };
  return unwrap(withField(priceConversion(markets, order.from, order.to, order.fromUnits, freshness), fields.amount));
}

/** What the order is worth in USD for the exposure limits, as NUMERIC text (see usdValue). */
function orderUsdValue(markets: MarketView, order: Order): string {
  const value = usdValue(markets, order.from, order.fromUnits);
  // priceOrder has priced the order, so its currency has a USD price; none would be a bug.
  if (value === undefined) throw new Error(`no USD price for ${order.from} after pricing it`);
  return formatDecimal(value, { trimZeros: true });
}

/**
 * The re-check at execution: a quote pays what it promised unless the market has since moved
 * against the house by more than CONVERSION_PRICE_TOLERANCE_BPS (PRICE_MOVED). A move in the
 * caller's favour changes nothing: the quote is firm, it settles at its own price.
 */
function checkPriceMoved(quote: QuoteRow, current: ConversionPrice, to: string): void {
  const quoted = toUnits(decimal(quote.to_amount), currencyDecimals(to));
  if (!quoted.ok) throw new Error(`quote ${quote.id} holds an amount beyond ${to}'s decimals`);
  const limit = current.toUnits * BigInt(10_000 + CONVERSION_PRICE_TOLERANCE_BPS);
  if (quoted.value * 10_000n <= limit) return;
  throw new AppError('PRICE_MOVED', {
    details: {
      quote_id: quote.id,
      quoted_amount: canonical(quote.to_amount),
      current_amount: unitsText(current.toUnits, to),
      currency: to,
      tolerance_percent: formatDecimal(
        { units: BigInt(CONVERSION_PRICE_TOLERANCE_BPS), scale: 2 },
        { trimZeros: true },
      ),
    },
  });
}

function parseTradeType(input: string | null | undefined): QuickTradeType {
  const type = (input ?? '').trim().toLowerCase() || 'market';
  const known = QUICK_TRADE_TYPES.find((candidate) => candidate === type);
  if (known === undefined) {
    throw new AppError('VALIDATION_ERROR', {
      message: `Trade type ${input} is not supported; use 'market'`,
      details: { field: 'trade_type', supported: QUICK_TRADE_TYPES },
    });
  }
  return known;
}

/**
 * The least the caller accepts to receive, in units of the bought currency: absent, empty or zero
 * means no floor; otherwise a non-negative decimal with no more decimals than the currency has.
 */
function parseTargetAmount(input: string | number | null | undefined, currency: string): bigint | null {
  if (input === undefined || input === null) return null;
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : 'invalid') : input.trim();
  if (text === '') return null;
  const parsed = parseDecimal(text, { allowNegative: true, maxScale: 30, maxIntegerDigits: 20 });
  if (!parsed.ok) {
    throw new AppError('INVALID_AMOUNT', { details: { field: 'target_amount', reason: 'not a decimal number' } });
  }
  if (parsed.value.units < 0n) {
    throw new AppError('INVALID_AMOUNT', {
      message: 'The target amount cannot be negative',
      details: { field: 'target_amount' },
    });
  }
  const decimals = currencyDecimals(currency);
  const units = toUnits(parsed.value, decimals);
  if (!units.ok) {
    throw new AppError('INVALID_AMOUNT', {
      message: `Amount has more than ${decimals} decimals for ${currency}`,
      details: { field: 'target_amount', decimals },
    });
  }
  return units.value === 0n ? null : units.value;
}

// ---------------------------------------------------------------------------------------------
// Estimates (stored quotes)
// ---------------------------------------------------------------------------------------------

/**
 * GET /api/v1/conversions/estimate: prices the conversion now and stores the quote, which the
 * caller can execute once within CONVERSION_QUOTE_VALID_SECONDS.
 */
export async function estimateConversion(
  deps: ConversionDeps,
  accountId: string,
  query: ConversionEstimateQuery,
): Promise<ConversionQuote> {
  const order = parseOrder(deps.markets, query.from_currency, query.to_currency, query.from_amount, CONVERSION_FIELDS);
  const price = priceOrder(deps, order, CONVERSION_FIELDS);
  const now = deps.clock();
  // Told now rather than at execution; the settlement checks again under its lock.
  await checkExposure(deps.db, deps.limits, accountId, now.getTime(), decimal(orderUsdValue(deps.markets, order)));
  await sweepExpiredQuotes(deps, now);
  const row: QuoteRow = {
    id: randomUUID(),
    account_id: accountId,
    from_currency: order.from,
    to_currency: order.to,
    from_amount: unitsText(price.fromUnits, order.from),
    ...pricedColumns(price, order.to),
    created_at: now,
    expires_at: new Date(now.getTime() + CONVERSION_QUOTE_VALID_SECONDS * 1000),
  };
  await deps.db.query(
    `INSERT INTO conversion_quotes (id, account_id, from_currency, to_currency, from_amount, gross_amount, spread_amount,
       to_amount, rate, spread_bps, price_source, route, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6::numeric, $7::numeric, $8::numeric, $9::numeric, $10, $11, $12::text[],
       $13, $14)`,
    [
      row.id,
      row.account_id,
      row.from_currency,
      row.to_currency,
      row.from_amount,
      row.gross_amount,
      row.spread_amount,
      row.to_amount,
      row.rate,
      row.spread_bps,
      row.price_source,
      row.route,
      row.created_at,
      row.expires_at,
    ],
  );
  return toQuote(row);
}

/** Quotes long expired are of no use to anyone; every estimate writes one, so they are swept. */
async function sweepExpiredQuotes(deps: ConversionDeps, now: Date): Promise<void> {
  const nowMs = now.getTime();
  if (deps.sweptAtMs !== undefined && nowMs - deps.sweptAtMs < SWEEP_EVERY_MS) return;
  deps.sweptAtMs = nowMs;
  await deps.db.query('DELETE FROM conversion_quotes WHERE expires_at < $1', [new Date(nowMs - QUOTE_RETENTION_MS)]);
}

const quoteUsed = (q: Queryable, quoteId: string) =>
  q.query('SELECT 1 FROM conversions WHERE quote_id = $1', [quoteId]).then((result) => result.rowCount > 0);

/**
 * The quote a conversion executes at. With quote_id: the caller's own (else QUOTE_NOT_FOUND), for
 * the same currencies and amount (else QUOTE_MISMATCH), unexpired (else QUOTE_EXPIRED) and unused
 * (else QUOTE_ALREADY_USED). Without: the caller's latest unexpired, unused quote for exactly this
 * from/to/amount, else QUOTE_EXPIRED.
 */
async function quoteFor(deps: ConversionDeps, accountId: string, order: Order, quoteId: string | undefined) {
  const now = deps.clock();
  const amount = unitsText(order.fromUnits, order.from);
  if (quoteId === undefined) {
    const latest = await deps.db.query<QuoteRow>(
      `SELECT ${QUOTE_COLUMNS} FROM conversion_quotes q
       WHERE account_id = $1 AND from_currency = $2 AND to_currency = $3 AND from_amount = $4::numeric
         AND expires_at > $5 AND NOT EXISTS (SELECT 1 FROM conversions c WHERE c.quote_id = q.id)
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [accountId, order.from, order.to, amount, now],
    );
    const row = latest.rows[0];
    if (row === undefined) throw new AppError('QUOTE_EXPIRED', { details: { reason: 'no_current_quote' } });
    return row;
  }
  if (!UUID_PATTERN.test(quoteId)) throw new AppError('QUOTE_NOT_FOUND', { details: { field: 'quote_id' } });
  const found = await deps.db.query<QuoteRow>(
    `SELECT ${QUOTE_COLUMNS} FROM conversion_quotes WHERE id = $1 AND account_id = $2`,
    [quoteId, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) throw new AppError('QUOTE_NOT_FOUND', { details: { field: 'quote_id' } });
  if (row.from_currency !== order.from || row.to_currency !== order.to || canonical(row.from_amount) !== amount) {
    throw new AppError('QUOTE_MISMATCH', {
      details: {
        field: 'quote_id',
        quote: {
          from_currency: row.from_currency,
          to_currency: row.to_currency,
          from_amount: canonical(row.from_amount),
        },
      },
    });
  }
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('QUOTE_EXPIRED');
  if (await quoteUsed(deps.db, row.id)) throw new AppError('QUOTE_ALREADY_USED');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Settlement
// ---------------------------------------------------------------------------------------------

/** A conversion to settle: its row, with its USD value for the exposure limits. */
type NewConversion = ConversionRow & { usd_value: string };

/**
 * The one ledger entry of a conversion, balanced per currency: the caller gives from_amount to
 * the house desk; the desk pays the gross in the target currency, of which the caller receives
 * to_amount and the spread goes to the fees account.
 */
function conversionEntry(row: NewConversion): EntryInput {
  const user = { kind: 'user' as const, accountId: row.account_id };
  const bucket = 'available' as const;
  return {
    kind: CONVERSION_ENTRY_KIND,
    reference: row.id,
    postings: [
      { owner: user, currency: row.from_currency, bucket, amount: `-${row.from_amount}` },
      { owner: HOUSE_DESK, currency: row.from_currency, bucket, amount: row.from_amount },
      { owner: HOUSE_DESK, currency: row.to_currency, bucket, amount: `-${row.gross_amount}` },
      { owner: user, currency: row.to_currency, bucket, amount: row.to_amount },
      { owner: REVENUE, currency: row.to_currency, bucket, amount: row.spread_amount },
    ],
    metadata: { type: row.kind, rate: row.rate, route: row.route, spread_bps: row.spread_bps },
  };
}

/**
 * Records the conversion and posts its entry in one transaction. The row goes first: a concurrent
 * request with the same idempotency key or the same quote waits on its unique index and then
 * writes nothing ('conflict'). A balance that cannot cover it ('Insufficient balance') rolls the
 * whole transaction back.
 */
async function settle(deps: ConversionDeps, row: NewConversion): Promise<'settled' | 'conflict'> {
  const entry = conversionEntry(row);
  const outcome = await deps.db.transaction(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO conversions (id, account_id, kind, quote_id, from_currency, to_currency, from_amount, gross_amount,
         spread_amount, to_amount, rate, spread_bps, price_source, route, trade_type, target_amount, idempotency_key,
         created_at, usd_value)
       VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8::numeric, $9::numeric, $10::numeric, $11::numeric, $12, $13,
         $14::text[], $15, $16::numeric, $17, $18, $19::numeric)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        row.id,
        row.account_id,
        row.kind,
        row.quote_id,
        row.from_currency,
        row.to_currency,
        row.from_amount,
        row.gross_amount,
        row.spread_amount,
        row.to_amount,
        row.rate,
        row.spread_bps,
        row.price_source,
        row.route,
        row.trade_type,
        row.target_amount,
        row.idempotency_key,
        row.created_at,
        row.usd_value,
      ],
    );
    if (inserted.rowCount === 0) return 'conflict' as const;
    // notify (the default): the trading funds book follows the caller's available balances.
    await postEntries(tx, [entry]);
    await enforceExposure(tx, deps.limits, row, deps.clock().getTime());
    return 'settled' as const;
  });
  return outcome;
}

async function conversionByKey(q: Queryable, accountId: string, key: string): Promise<ConversionRow | undefined> {
  const found = await q.query<ConversionRow>(
    `SELECT ${CONVERSION_COLUMNS} FROM conversions WHERE account_id = $1 AND idempotency_key = $2`,
    [accountId, key],
  );
  return found.rows[0];
}

/** What a retry must repeat to be the same request; anything else under the key is a conflict. */
type Fingerprint = {
  kind: ConversionKind;
  order: Order;
  quoteId?: string | undefined;
  tradeType?: string;
  targetUnits?: bigint | null;
};

function sameRequest(row: ConversionRow, print: Fingerprint): boolean {
  const { order } = print;
  const same =
    row.kind === print.kind &&
    row.from_currency === order.from &&
    row.to_currency === order.to &&
    canonical(row.from_amount) === unitsText(order.fromUnits, order.from);
  if (!same) return false;
  if (print.quoteId !== undefined && row.quote_id?.toLowerCase() !== print.quoteId.toLowerCase()) return false;
  if (print.kind === 'trade') {
    const target = print.targetUnits == null ? null : unitsText(print.targetUnits, order.to);
    const rowTarget = row.target_amount === null ? null : canonical(row.target_amount);
    return row.trade_type === print.tradeType && rowTarget === target;
  }
  return true;
}

/** The first result under the key, if there is one; IDEMPOTENCY_KEY_REUSED when it was another request. */
async function replay(deps: ConversionDeps, accountId: string, key: string | null, print: Fingerprint) {
  if (key === null) return undefined;
  const row = await conversionByKey(deps.db, accountId, key);
  if (row === undefined) return undefined;
  if (!sameRequest(row, print)) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return row;
}

function newRow(
  accountId: string,
  kind: ConversionKind,
  order: Order,
  priced: PricedColumns,
  extra: {
    quoteId: string | null;
    tradeType: string | null;
    targetUnits: bigint | null;
    key: string | null;
    now: Date;
    usdValue: string;
  },
): NewConversion {
  return {
    id: randomUUID(),
    account_id: accountId,
    kind,
    quote_id: extra.quoteId,
    from_currency: order.from,
    to_currency: order.to,
    from_amount: unitsText(order.fromUnits, order.from),
    gross_amount: canonical(priced.gross_amount),
    spread_amount: canonical(priced.spread_amount),
    to_amount: canonical(priced.to_amount),
    rate: canonical(priced.rate),
    spread_bps: priced.spread_bps,
    price_source: priced.price_source,
    route: priced.route,
    trade_type: extra.tradeType,
    target_amount: extra.targetUnits === null ? null : unitsText(extra.targetUnits, order.to),
    idempotency_key: extra.key,
    created_at: extra.now,
    usd_value: extra.usdValue,
  };
}

/**
 * POST /api/v1/conversions: executes at a quote (see quoteFor), settled in one ledger
 * transaction. A key (the Idempotency-Key header or idempotency_key) makes a retry return the
 * first conversion, whatever happened to the quote since.
 */
export async function createConversion(
  deps: ConversionDeps,
  accountId: string,
  request: CreateConversionRequest,
  headerKey: string | undefined,
): Promise<{ conversion: Conversion; created: boolean }> {
  const order = parseOrder(
    deps.markets,
    request.from_currency,
    request.to_currency,
    request.from_amount,
    CONVERSION_FIELDS,
  );
  const key = parseIdempotencyKey(headerKey, request.idempotency_key);
  const print: Fingerprint = { kind: 'conversion', order, quoteId: request.quote_id };
  const first = await replay(deps, accountId, key, print);
  if (first) return { conversion: toConversion(first), created: false };
  let quote: QuoteRow;
  try {
    quote = await quoteFor(deps, accountId, order, request.quote_id);
  } catch (error) {
    // A retry racing the first request: the quote it would use was just used under this key.
    const raced = await replay(deps, accountId, key, print);
    if (raced) return { conversion: toConversion(raced), created: false };
    throw error;
  }
  // Re-checked at execution: a fresh reference, and no move against the house beyond the tolerance.
  const current = priceOrder(deps, order, CONVERSION_FIELDS);
  checkPriceMoved(quote, current, order.to);
  const row = newRow(accountId, 'conversion', order, quote, {
    quoteId: quote.id,
    tradeType: null,
    targetUnits: null,
    key,
    now: deps.clock(),
    usdValue: orderUsdValue(deps.markets, order),
  });
  if ((await settle(deps, row)) === 'settled') return { conversion: toConversion(row), created: true };
  const raced = await replay(deps, accountId, key, print);
  if (raced) return { conversion: toConversion(raced), created: false };
  throw new AppError('QUOTE_ALREADY_USED');
}

/**
 * POST /api/v1/trade/execute: a conversion priced at the moment, with no quote. 'market' (the
 * only type) executes at the current price; a target_amount is the least the caller accepts to
 * receive (SLIPPAGE_EXCEEDED below it, nothing written).
 */
export async function executeQuickTrade(
  deps: ConversionDeps,
  accountId: string,
  request: ExecuteQuickTradeRequest,
  headerKey: string | undefined,
): Promise<{ trade: QuickTrade; created: boolean }> {
  const order = parseOrder(
    deps.markets,
    request.sell_currency,
    request.buy_currency,
    request.sell_amount,
    TRADE_FIELDS,
  );
  const tradeType = parseTradeType(request.trade_type);
  const targetUnits = parseTargetAmount(request.target_amount, order.to);
  const key = parseIdempotencyKey(headerKey, request.idempotency_key);
  const print: Fingerprint = { kind: 'trade', order, tradeType, targetUnits };
  const first = await replay(deps, accountId, key, print);
  if (first) return { trade: toQuickTrade(first), created: false };
  const price = priceOrder(deps, order, TRADE_FIELDS);
  if (targetUnits !== null && price.toUnits < targetUnits) {
    throw new AppError('SLIPPAGE_EXCEEDED', {
      details: {
        field: 'target_amount',
        target_amount: unitsText(targetUnits, order.to),
        buy_amount: unitsText(price.toUnits, order.to),
      },
    });
  }
  const row = newRow(accountId, 'trade', order, pricedColumns(price, order.to), {
    quoteId: null,
    tradeType,
    targetUnits,
    key,
    now: deps.clock(),
    usdValue: orderUsdValue(deps.markets, order),
  });
  if ((await settle(deps, row)) === 'settled') return { trade: toQuickTrade(row), created: true };
  const raced = await replay(deps, accountId, key, print);
  if (raced) return { trade: toQuickTrade(raced), created: false };
  throw new Error('quick trade insert wrote nothing, and no trade has its key');
}

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** A conversion or quick trade of the caller; anyone else's (or no such id) is CONVERSION_NOT_FOUND. */
export async function getConversion(deps: ConversionDeps, accountId: string, id: string): Promise<Conversion> {
  if (!UUID_PATTERN.test(id)) throw new AppError('CONVERSION_NOT_FOUND');
  const found = await deps.db.query<ConversionRow>(
    `SELECT ${CONVERSION_COLUMNS} FROM conversions WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) throw new AppError('CONVERSION_NOT_FOUND');
  return toConversion(row);
}

/** The caller's conversions (kind 'conversion') or quick trades (kind 'trade'), newest first. */
export async function conversionHistory(
  deps: ConversionDeps,
  accountId: string,
  kind: ConversionKind,
  limit: number,
): Promise<ConversionRow[]> {
  const rows = await deps.db.query<ConversionRow>(
    `SELECT ${CONVERSION_COLUMNS} FROM conversions WHERE account_id = $1 AND kind = $2
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [accountId, kind, limit],
  );
  return rows.rows;
}

/** Every wallet currency that can be converted, and every ordered pair with its preferred route. */
export function conversionPairs(markets: MarketView): ConversionPairsResponse {
  const pairs: ConversionPair[] = [];
  const currencies = new Set<string>();
  for (const from of WALLET_CURRENCIES) {
    for (const to of WALLET_CURRENCIES) {
      const route = candidateRoutes(markets, from, to)[0];
      if (route === undefined) continue;
      pairs.push({ from_currency: from, to_currency: to, route: routeCurrencies(route) });
      currencies.add(from);
      currencies.add(to);
    }
  }
  return { currencies: WALLET_CURRENCIES.filter((currency) => currencies.has(currency)), pairs };
}

/** §7.3 'response supported': false on anything unknown (a missing, malformed or unlisted code), never an error. */
export function conversionSupported(markets: MarketView, fromInput: unknown, toInput: unknown): boolean {
  if (typeof fromInput !== 'string' || typeof toInput !== 'string') return false;
  const from = parseCurrency(fromInput);
  const to = parseCurrency(toInput);
  if (!from.ok || !to.ok || from.value === to.value) return false;
  return candidateRoutes(markets, from.value, to.value).length > 0;
}
