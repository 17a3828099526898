import { useMemo } from 'react';
import { toAmount } from '../../lib/format.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { usePairs } from '../market-data/index.ts';
import { type SmallBalanceRule, usdPrices } from './balances-model.ts';

/**
 * The small-balance rule of Settings > Preferences, valued at the pairs list's last prices (fresh
 * enough for a display threshold), or null when the user keeps every balance in view.
 */
export function useSmallBalanceRule(): { rule: SmallBalanceRule | null; thresholdUsd: string } {
  const enabled = usePreferences((state) => state.hideSmallBalances);
  const thresholdUsd = usePreferences((state) => state.smallBalanceUsd);
  // Only fetched for this when the rule is on: the top bar must not load the pairs list for nothing.
  const pairs = usePairs(enabled).data;
  const rule = useMemo(() => {
    const threshold = toAmount(thresholdUsd);
    if (!enabled || !threshold) return null;
    return { usdPrices: usdPrices(pairs ?? []), thresholdUsd: threshold };
  }, [enabled, thresholdUsd, pairs]);
  return { rule, thresholdUsd };
}
