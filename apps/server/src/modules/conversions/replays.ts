import { randomUUID } from 'node:crypto';
import type { ConversionKind } from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { unitsText } from '../wallet/rules.ts';
import type { ConversionDeps } from './deps.ts';
import type { Order } from './order-rules.ts';
import { CONVERSION_COLUMNS, type ConversionRow, canonical, type NewConversion, type PricedColumns } from './rows.ts';

// Idempotency: a retry under the same key returns the first conversion; another request under it is refused.

async function conversionByKey(q: Queryable, accountId: string, key: string): Promise<ConversionRow | undefined> {
  const found = await q.query<ConversionRow>(
    `SELECT ${CONVERSION_COLUMNS} FROM conversions WHERE account_id = $1 AND idempotency_key = $2`,
    [accountId, key],
  );
  return found.rows[0];
}

/** What a retry must repeat to be the same request; anything else under the key is a conflict. */
export type Fingerprint = {
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
export async function replay(
  deps: ConversionDeps,
  accountId: string,
  key: string | null,
  print: Fingerprint,
): Promise<Result<ConversionRow | undefined>> {
  if (key === null) return ok(undefined);
  const row = await conversionByKey(deps.db, accountId, key);
  if (row === undefined) return ok(undefined);
  if (!sameRequest(row, print)) return fail('IDEMPOTENCY_KEY_REUSED');
  return ok(row);
}

export function newRow(
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
