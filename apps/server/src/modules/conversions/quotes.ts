import { randomUUID } from 'node:crypto';
import {
  CONVERSION_QUOTE_VALID_SECONDS,
  type ConversionEstimateQuery,
  type ConversionQuote,
} from '@platform/contracts';
import { decimal } from '@platform/money';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { unitsText } from '../wallet/rules.ts';
import type { ConversionDeps } from './deps.ts';
import { checkExposure } from './exposure.ts';
import { CONVERSION_FIELDS, type Order, orderUsdValue, parseOrder, pricedColumns, priceOrder } from './order-rules.ts';
import type { ConversionPrice } from './pricing.ts';
import { canonical, QUOTE_COLUMNS, type QuoteRow, toQuote, UUID_PATTERN } from './rows.ts';

// Estimates: the stored quotes a conversion executes at.

const MS_PER_SECOND = 1000;
/** Expired quotes are kept this long (their owner is told QUOTE_EXPIRED, not QUOTE_NOT_FOUND), then swept. */
const QUOTE_RETENTION_MS = 60 * 60_000;
/** Sweeping costs one DELETE; at most once a minute, from the estimate path. */
const SWEEP_EVERY_MS = 60_000;

/**
 * GET /api/v1/conversions/estimate: prices the conversion now and stores the quote, which the
 * caller can execute once within CONVERSION_QUOTE_VALID_SECONDS.
 */
export async function estimateConversion(
  deps: ConversionDeps,
  accountId: string,
  query: ConversionEstimateQuery,
): Promise<Result<ConversionQuote>> {
  const order = parseOrder(deps.markets, query.from_currency, query.to_currency, query.from_amount, CONVERSION_FIELDS);
  if (!order.ok) return order;
  const price = priceOrder(deps, order.value, CONVERSION_FIELDS);
  if (!price.ok) return price;
  const now = deps.clock();
  // Told now rather than at execution; the settlement checks again under its lock.
  const usd = decimal(orderUsdValue(deps.markets, order.value));
  const room = await checkExposure(deps.db, deps.limits, accountId, now.getTime(), usd);
  if (!room.ok) return room;
  await sweepExpiredQuotes(deps, now);
  return ok(await storeQuote(deps, accountId, order.value, price.value, now));
}

async function storeQuote(
  deps: ConversionDeps,
  accountId: string,
  order: Order,
  price: ConversionPrice,
  now: Date,
): Promise<ConversionQuote> {
  const row: QuoteRow = {
    id: randomUUID(),
    account_id: accountId,
    from_currency: order.from,
    to_currency: order.to,
    from_amount: unitsText(price.fromUnits, order.from),
    ...pricedColumns(price, order.to),
    created_at: now,
    expires_at: new Date(now.getTime() + CONVERSION_QUOTE_VALID_SECONDS * MS_PER_SECOND),
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
export async function quoteFor(
  deps: ConversionDeps,
  accountId: string,
  order: Order,
  quoteId: string | undefined,
): Promise<Result<QuoteRow>> {
  if (quoteId === undefined) return latestQuoteFor(deps, accountId, order);
  const now = deps.clock();
  const amount = unitsText(order.fromUnits, order.from);
  if (!UUID_PATTERN.test(quoteId)) return fail('QUOTE_NOT_FOUND', { details: { field: 'quote_id' } });
  const found = await deps.db.query<QuoteRow>(
    `SELECT ${QUOTE_COLUMNS} FROM conversion_quotes WHERE id = $1 AND account_id = $2`,
    [quoteId, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) return fail('QUOTE_NOT_FOUND', { details: { field: 'quote_id' } });
  if (row.from_currency !== order.from || row.to_currency !== order.to || canonical(row.from_amount) !== amount) {
    return fail('QUOTE_MISMATCH', {
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
  if (new Date(row.expires_at).getTime() <= now.getTime()) return fail('QUOTE_EXPIRED');
  if (await quoteUsed(deps.db, row.id)) return fail('QUOTE_ALREADY_USED');
  return ok(row);
}

/** Without a quote id: the caller's latest unexpired, unused quote for exactly this order. */
async function latestQuoteFor(deps: ConversionDeps, accountId: string, order: Order): Promise<Result<QuoteRow>> {
  const now = deps.clock();
  const amount = unitsText(order.fromUnits, order.from);
  const latest = await deps.db.query<QuoteRow>(
    `SELECT ${QUOTE_COLUMNS} FROM conversion_quotes q
     WHERE account_id = $1 AND from_currency = $2 AND to_currency = $3 AND from_amount = $4::numeric
       AND expires_at > $5 AND NOT EXISTS (SELECT 1 FROM conversions c WHERE c.quote_id = q.id)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [accountId, order.from, order.to, amount, now],
  );
  const row = latest.rows[0];
  if (row === undefined) return fail('QUOTE_EXPIRED', { details: { reason: 'no_current_quote' } });
  return ok(row);
}
