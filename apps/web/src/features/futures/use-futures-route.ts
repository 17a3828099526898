import type { FuturesMarket } from '@platform/contracts';
import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { readStorage, writeStorage } from '../../lib/safe-storage.ts';
import { futuresPath, LAST_FUTURES_MARKET_KEY, resolveMarketId } from './futures-route.ts';

export interface FuturesRoute {
  marketId: string;
  selectMarket: (marketId: string) => void;
}

/**
 * The market of /trade/futures/:market. The address is the source of truth: it is rewritten to the
 * canonical id (replace, so the back button is not polluted), and a known market is remembered for
 * the Spot / Futures switch and the next visit.
 */
export function useFuturesRoute(markets: readonly FuturesMarket[] | undefined): FuturesRoute {
  const { market: param } = useParams();
  const navigate = useNavigate();
  const known = useMemo(() => (markets ? new Set(markets.map((market) => market.id)) : null), [markets]);
  const marketId = resolveMarketId(param, readStorage(LAST_FUTURES_MARKET_KEY), known);

  useEffect(() => {
    if (param !== marketId) void navigate(futuresPath(marketId), { replace: true });
  }, [param, marketId, navigate]);

  const isKnown = known?.has(marketId) ?? false;
  useEffect(() => {
    if (isKnown) writeStorage(LAST_FUTURES_MARKET_KEY, marketId);
  }, [isKnown, marketId]);

  const selectMarket = useCallback((next: string) => void navigate(futuresPath(next), { replace: true }), [navigate]);
  return { marketId, selectMarket };
}
