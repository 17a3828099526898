import type { OrderSide, TradingPair } from '@platform/contracts';
import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { pairSymbol } from '../../lib/format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { carriedSide, resolvePairId, searchWithPair } from './trade-route.ts';

export interface TradeRoute {
  /** BTC_USD */
  pairId: string;
  /** The carried action's side, when the address has one. */
  side: OrderSide | null;
  /** Shows another pair: the address changes in place (replace, not push). */
  selectPair: (pairId: string) => void;
}

/**
 * The page's pair and carried action from the address (spec §2.1, §2.3). The address is the one
 * source of truth: it is rewritten to the canonical BTC/USD form, and the app store's
 * selectedTradingPair (spec §3.1) follows it.
 */
export function useTradeRoute(pairs: readonly TradingPair[] | undefined): TradeRoute {
  const [params] = useSearchParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const storedSymbol = useAppStore((state) => state.selectedTradingPair);
  const setStoredSymbol = useAppStore((state) => state.setSelectedTradingPair);
  const preferredPairId = usePreferences((state) => state.defaultPair);
  const knownPairIds = useMemo(
    () => (pairs ? new Set(pairs.filter((pair) => pair.is_active).map((pair) => pair.id)) : null),
    [pairs],
  );
  const pairParam = params.get('pair');
  const pairId = resolvePairId(pairParam, storedSymbol, knownPairIds, preferredPairId);

  useEffect(() => {
    if (pairParam !== pairSymbol(pairId)) void navigate({ search: searchWithPair(search, pairId) }, { replace: true });
  }, [pairParam, pairId, search, navigate]);

  // Only a pair the list knows is remembered, so a mistyped address cannot replace a good choice.
  const isKnown = knownPairIds?.has(pairId) ?? false;
  useEffect(() => {
    if (isKnown) setStoredSymbol(pairSymbol(pairId));
  }, [isKnown, pairId, setStoredSymbol]);

  const selectPair = useCallback(
    (next: string) => void navigate({ search: searchWithPair(search, next) }, { replace: true }),
    [navigate, search],
  );

  return { pairId, side: carriedSide(params.get('action')), selectPair };
}
