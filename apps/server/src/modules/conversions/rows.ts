import {
  CONVERSION_QUOTE_VALID_SECONDS,
  type Conversion,
  type ConversionKind,
  type ConversionPriceSource,
  type ConversionQuote,
  type ConversionSpread,
  type QuickTrade,
} from '@platform/contracts';
import { decimal, formatDecimal } from '@platform/money';

// The rows of conversion_quotes and conversions, and their shapes on the wire.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type QuoteRow = {
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
export type PricedColumns = Pick<
  QuoteRow,
  'gross_amount' | 'spread_amount' | 'to_amount' | 'rate' | 'spread_bps' | 'price_source' | 'route'
>;

export type ConversionRow = Omit<QuoteRow, 'expires_at'> & {
  kind: ConversionKind;
  quote_id: string | null;
  trade_type: string | null;
  target_amount: string | null;
  idempotency_key: string | null;
};

export const CONVERSION_COLUMNS = `id, account_id, kind, quote_id, from_currency, to_currency, from_amount::text AS from_amount,
  gross_amount::text AS gross_amount, spread_amount::text AS spread_amount, to_amount::text AS to_amount,
  rate::text AS rate, spread_bps, price_source, route, trade_type, target_amount::text AS target_amount,
  idempotency_key, created_at`;
export const QUOTE_COLUMNS = `id, account_id, from_currency, to_currency, from_amount::text AS from_amount,
  gross_amount::text AS gross_amount, spread_amount::text AS spread_amount, to_amount::text AS to_amount,
  rate::text AS rate, spread_bps, price_source, route, created_at, expires_at`;

/** NUMERIC text in canonical form ('1.50000000' -> '1.5'). */
export function canonical(text: string): string {
  return formatDecimal(decimal(text), { trimZeros: true });
}

function spreadOf(row: { spread_bps: number; spread_amount: string; to_currency: string }): ConversionSpread {
  return {
    percent: formatDecimal({ units: BigInt(row.spread_bps), scale: 2 }, { trimZeros: true }),
    amount: canonical(row.spread_amount),
    currency: row.to_currency,
  };
}

export function toQuote(row: QuoteRow): ConversionQuote {
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

/** A conversion to settle: its row, with its USD value for the exposure limits. */
export type NewConversion = ConversionRow & { usd_value: string };
