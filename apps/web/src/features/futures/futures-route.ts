import { FUTURES_MARKET_ID_PATTERN } from '@platform/contracts';

/**
 * The futures screen's address: /trade/futures/BTC_USD_PERP (the spot screen stays /trade?pair=).
 * Any case is accepted and rewritten to the canonical id; an unknown market falls back to the last
 * one chosen, then BTC_USD_PERP.
 */

export const DEFAULT_FUTURES_MARKET = 'BTC_USD_PERP';
export const FUTURES_ROUTE_BASE = '/trade/futures';
export { LAST_FUTURES_MARKET_KEY } from '../trade/market-kind-switch.tsx';

export function futuresPath(marketId: string): string {
  return `${FUTURES_ROUTE_BASE}/${marketId}`;
}

/** 'btc_usd_perp', 'BTC-USD-PERP', 'BTCUSD-PERP' -> 'BTC_USD_PERP'; null when it cannot be one. */
export function normalizeMarketId(param: string | undefined | null): string | null {
  if (!param) return null;
  const upper = param.trim().toUpperCase().replace(/[-/]/g, '_');
  if (FUTURES_MARKET_ID_PATTERN.test(upper)) return upper;
  const compact = /^([A-Z0-9]{2,12})USD_PERP$/.exec(upper);
  return compact ? `${compact[1]}_USD_PERP` : null;
}

/** The market to show: the address's when known (or before the list loads), else the stored one, else BTC. */
export function resolveMarketId(
  param: string | undefined | null,
  stored: string | null,
  known: ReadonlySet<string> | null,
): string {
  const fromUrl = normalizeMarketId(param);
  const fromStore = normalizeMarketId(stored);
  const isKnown = (id: string | null): id is string => id !== null && (known === null || known.has(id));
  if (isKnown(fromUrl)) return fromUrl;
  if (isKnown(fromStore)) return fromStore;
  return DEFAULT_FUTURES_MARKET;
}
