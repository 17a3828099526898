import type { Batch } from './batch.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { MarkOf } from './risk.ts';
import type { FuturesState } from './state.ts';

/** What every command sees while its batch is decided (synchronously, nothing else runs meanwhile). */
export interface DecideContext {
  state: FuturesState;
  batch: Batch;
  now: Date;
  markOf: MarkOf;
  bandBps: number;
  /** The next sequence of the exchange (journal rows and engine commands share it). */
  nextSequence(): number;
  /** (account, market) pairs whose position moved in this command: their reduce-only and TP/SL orders follow. */
  moved: Set<string>;
  /** A new id (orders, transfers): random when live, the recorded one in a replay (journal.ts). */
  newId(): string;
}

export const specOf = (ctx: DecideContext, marketId: string): FuturesMarketSpec | undefined =>
  ctx.state.markets.get(marketId);

/** The band edge on the order's worse side around a reference (a market order's protection price). */
export function protectionTicks(reference: number, side: 'buy' | 'sell', bandBps: number): number {
  const ref = BigInt(reference);
  const band = BigInt(bandBps);
  if (side === 'buy') return Number((ref * (10_000n + band)) / 10_000n);
  const low = (ref * (10_000n - band) + 9_999n) / 10_000n;
  return low > 0n ? Number(low) : 1;
}
