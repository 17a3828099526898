import type { Conversion, ConversionKind, ConversionPair, ConversionPairsResponse } from '@platform/contracts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { parseCurrency, WALLET_CURRENCIES } from '../wallet/rules.ts';
import type { ConversionDeps } from './deps.ts';
import { candidateRoutes, type MarketView, routeCurrencies } from './pricing.ts';
import { CONVERSION_COLUMNS, type ConversionRow, toConversion, UUID_PATTERN } from './rows.ts';

// What the caller reads: their conversions and trades, and what converts to what.

/** A conversion or quick trade of the caller; anyone else's (or no such id) is CONVERSION_NOT_FOUND. */
export async function getConversion(deps: ConversionDeps, accountId: string, id: string): Promise<Result<Conversion>> {
  if (!UUID_PATTERN.test(id)) return fail('CONVERSION_NOT_FOUND');
  const found = await deps.db.query<ConversionRow>(
    `SELECT ${CONVERSION_COLUMNS} FROM conversions WHERE id = $1 AND account_id = $2`,
    [id, accountId],
  );
  const row = found.rows[0];
  if (row === undefined) return fail('CONVERSION_NOT_FOUND');
  return ok(toConversion(row));
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
