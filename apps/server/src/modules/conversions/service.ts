import type {
  Conversion,
  CreateConversionRequest,
  ExecuteQuickTradeRequest,
  QuickTrade,
  QuickTradeType,
} from '@platform/contracts';
import { transactionResult } from '../../db/transaction-result.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { type EntryInput, postEntries } from '../ledger/service.ts';
import { parseIdempotencyKey, unitsText } from '../wallet/rules.ts';
import type { ConversionDeps } from './deps.ts';
import { enforceExposure } from './exposure.ts';
import {
  CONVERSION_FIELDS,
  checkPriceMoved,
  type Order,
  orderUsdValue,
  parseOrder,
  parseTargetAmount,
  parseTradeType,
  pricedColumns,
  priceOrder,
  TRADE_FIELDS,
} from './order-rules.ts';
import { quoteFor } from './quotes.ts';
import { type Fingerprint, newRow, replay } from './replays.ts';
import { type NewConversion, toConversion, toQuickTrade } from './rows.ts';

// Settlement: a conversion or quick trade executed and posted in one ledger transaction. The input
// rules are in order-rules.ts, the quotes in quotes.ts, idempotent replays in replays.ts.

/** The house desk: takes what the caller gives and pays what it receives (house capital, may go negative). */
const HOUSE_DESK = { kind: 'system', name: 'market_making' } as const;
/** Where the spread goes, in the currency received, so that the revenue shows. */
const REVENUE = { kind: 'system', name: 'fees' } as const;
/** The ledger entry kind of both conversions and quick trades (the wallet history calls it 'conversion'). */
export const CONVERSION_ENTRY_KIND = 'conversion';

// ---------------------------------------------------------------------------------------------
// Settlement
// ---------------------------------------------------------------------------------------------

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
 * writes nothing ('conflict'). A balance that cannot cover it ('Insufficient balance') or a full
 * exposure window rolls the whole transaction back.
 */
async function settle(deps: ConversionDeps, row: NewConversion): Promise<Result<'settled' | 'conflict'>> {
  const entry = conversionEntry(row);
  const outcome = await transactionResult(deps.db, async (tx) => {
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
    if (inserted.rowCount === 0) return ok('conflict' as const);
    // notify (the default): the trading funds book follows the caller's available balances.
    await postEntries(tx, [entry]);
    const room = await enforceExposure(tx, deps.limits, row, deps.clock().getTime());
    if (!room.ok) return room;
    return ok('settled' as const);
  });
  return outcome;
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
): Promise<Result<{ conversion: Conversion; created: boolean }>> {
  const order = parseOrder(
    deps.markets,
    request.from_currency,
    request.to_currency,
    request.from_amount,
    CONVERSION_FIELDS,
  );
  if (!order.ok) return order;
  const parsedKey = parseIdempotencyKey(headerKey, request.idempotency_key);
  if (!parsedKey.ok) return parsedKey;
  const key = parsedKey.value;
  const print: Fingerprint = { kind: 'conversion', order: order.value, quoteId: request.quote_id };
  const first = await replay(deps, accountId, key, print);
  if (!first.ok) return first;
  if (first.value) return ok({ conversion: toConversion(first.value), created: false });
  const quote = await quoteFor(deps, accountId, order.value, request.quote_id);
  if (!quote.ok) {
    // A retry racing the first request: the quote it would use was just used under this key.
    const raced = await replay(deps, accountId, key, print);
    if (!raced.ok) return raced;
    return raced.value ? ok({ conversion: toConversion(raced.value), created: false }) : quote;
  }
  // Re-checked at execution: a fresh reference, and no move against the house beyond the tolerance.
  const current = priceOrder(deps, order.value, CONVERSION_FIELDS);
  if (!current.ok) return current;
  const held = checkPriceMoved(quote.value, current.value, order.value.to);
  if (!held.ok) return held;
  const row = newRow(accountId, 'conversion', order.value, quote.value, {
    quoteId: quote.value.id,
    tradeType: null,
    targetUnits: null,
    key,
    now: deps.clock(),
    usdValue: orderUsdValue(deps.markets, order.value),
  });
  const settled = await settle(deps, row);
  if (!settled.ok) return settled;
  if (settled.value === 'settled') return ok({ conversion: toConversion(row), created: true });
  const raced = await replay(deps, accountId, key, print);
  if (!raced.ok) return raced;
  return raced.value ? ok({ conversion: toConversion(raced.value), created: false }) : fail('QUOTE_ALREADY_USED');
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
): Promise<Result<{ trade: QuickTrade; created: boolean }>> {
  const order = parseOrder(
    deps.markets,
    request.sell_currency,
    request.buy_currency,
    request.sell_amount,
    TRADE_FIELDS,
  );
  if (!order.ok) return order;
  const tradeType = parseTradeType(request.trade_type);
  if (!tradeType.ok) return tradeType;
  const targetUnits = parseTargetAmount(request.target_amount, order.value.to);
  if (!targetUnits.ok) return targetUnits;
  const parsedKey = parseIdempotencyKey(headerKey, request.idempotency_key);
  if (!parsedKey.ok) return parsedKey;
  const key = parsedKey.value;
  const trade: QuickTradeOrder = {
    order: order.value,
    tradeType: tradeType.value,
    targetUnits: targetUnits.value,
    key,
  };
  const print: Fingerprint = { kind: 'trade', ...trade };
  const first = await replay(deps, accountId, key, print);
  if (!first.ok) return first;
  if (first.value) return ok({ trade: toQuickTrade(first.value), created: false });
  const settled = await settleQuickTrade(deps, accountId, trade);
  if (!settled.ok) return settled;
  if (settled.value.created) return settled;
  const raced = await replay(deps, accountId, key, print);
  if (!raced.ok) return raced;
  invariant(raced.value !== undefined, 'quick trade insert wrote nothing, and no trade has its key');
  return ok({ trade: toQuickTrade(raced.value), created: false });
}

type QuickTradeOrder = { order: Order; tradeType: QuickTradeType; targetUnits: bigint | null; key: string | null };

/** Prices the trade now, holds it to the caller's target and settles it ('created: false' when another request won the key). */
async function settleQuickTrade(
  deps: ConversionDeps,
  accountId: string,
  { order, tradeType, targetUnits, key }: QuickTradeOrder,
): Promise<Result<{ trade: QuickTrade; created: boolean }>> {
  const price = priceOrder(deps, order, TRADE_FIELDS);
  if (!price.ok) return price;
  if (targetUnits !== null && price.value.toUnits < targetUnits) {
    return fail('SLIPPAGE_EXCEEDED', {
      details: {
        field: 'target_amount',
        target_amount: unitsText(targetUnits, order.to),
        buy_amount: unitsText(price.value.toUnits, order.to),
      },
    });
  }
  const row = newRow(accountId, 'trade', order, pricedColumns(price.value, order.to), {
    quoteId: null,
    tradeType,
    targetUnits,
    key,
    now: deps.clock(),
    usdValue: orderUsdValue(deps.markets, order),
  });
  const settled = await settle(deps, row);
  if (!settled.ok) return settled;
  return ok({ trade: toQuickTrade(row), created: settled.value === 'settled' });
}
