import type { Trade } from '@platform/contracts';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { RECENT_TRADES_LIMIT, TRADE_TAPE_CAPACITY, type TradeTapeStatus, tradeTape } from './trade-tape.ts';

export interface RecentTrades {
  status: TradeTapeStatus;
  /** Newest first, at most `limit`. */
  trades: readonly Trade[];
  error: unknown;
  reload: () => void;
}

/** The market's latest trades, live from trades.{PAIR_ID}; at most one render per frame. */
export function useRecentTrades(pairId: string, limit: number = RECENT_TRADES_LIMIT): RecentTrades {
  const tape = tradeTape(pairId);
  useEffect(() => tape.retain(), [tape]);
  const picture = useSyncExternalStore(tape.subscribe, tape.getPicture, tape.getPicture);
  const shown = Math.min(limit, TRADE_TAPE_CAPACITY);
  return useMemo(
    () => ({
      status: picture.status,
      trades: picture.trades.length > shown ? picture.trades.slice(0, shown) : picture.trades,
      error: picture.error,
      reload: () => tape.reload(),
    }),
    [picture, shown, tape],
  );
}
