import { normalizePairId, type OrderSide } from '@platform/contracts';
import { pairSymbol } from '../../lib/format.ts';

/**
 * Spec §2.1 route state of /trade, as plain functions: `?pair=` (BTC/USD, also BTC_USD, any case)
 * and the carried `action` (buy or sell).
 */

export const DEFAULT_PAIR_ID = 'BTC_USD';

/**
 * The pair to show: the URL's when it names a known pair; otherwise the one kept in the app store
 * if known; otherwise the default market of Settings > Preferences if known; otherwise BTC/USD. Before the pairs list has loaded (`knownPairIds` null) the URL's is
 * trusted, so the page starts on it without waiting.
 */
export function resolvePairId(
  pairParam: string | null,
  storedSymbol: string | null,
  knownPairIds: ReadonlySet<string> | null,
  preferredPairId: string = DEFAULT_PAIR_ID,
): string {
  const fromUrl = pairParam ? normalizePairId(pairParam) : null;
  const fromStore = storedSymbol ? normalizePairId(storedSymbol) : null;
  const known = (id: string | null): id is string => id !== null && (knownPairIds === null || knownPairIds.has(id));
  if (known(fromUrl)) return fromUrl;
  if (knownPairIds === null) return fromStore ?? DEFAULT_PAIR_ID;
  if (known(fromStore)) return fromStore;
  if (known(preferredPairId)) return preferredPairId;
  return DEFAULT_PAIR_ID;
}

export function carriedSide(actionParam: string | null): OrderSide | null {
  return actionParam === 'buy' || actionParam === 'sell' ? actionParam : null;
}

/**
 * The query string for the pair, keeping the other parameters. The pair is written as BTC/USD with
 * its slash as is (the form the spec, the search and the links use), so the address stays readable.
 */
export function searchWithPair(search: string, pairId: string): string {
  const params = new URLSearchParams(search);
  params.delete('pair');
  const rest = params.toString();
  return `?pair=${pairSymbol(pairId)}${rest ? `&${rest}` : ''}`;
}
