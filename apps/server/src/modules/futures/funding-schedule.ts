import { lastFundingTime } from './marks.ts';

/**
 * The funding timer. Funding times are the multiples of the interval since the epoch (00:00,
 * 08:00 and 16:00 UTC for 8 h). On every tick (once a second) each market whose latest funding
 * time has not been settled here yet gets one round: the rate is the marks' predicted rate at that
 * moment (the time-weighted premium of the interval plus interest, capped) with the mark then; both
 * are frozen for the round, and the premium average restarts for the next interval at once.
 *
 * - Exactly once: settleFunding is idempotent per (market, funding time) in the ledger, and here a
 *   round is only retried until it succeeds, always with the same frozen rate and mark.
 * - An error (settleFunding throws or rejects: the database or the exchange could not write) is
 *   logged and the round retried on the next tick. A refusal (settleFunding answers a failure
 *   Result: the round was already settled, say after a restart, or the market is unknown) is final
 *   for that round: logged, not retried, since asking again would be refused again.
 * - Downtime: only the latest due round is paid (the one at or before now), once the market has a
 *   mark; rounds missed while the server was down are not paid retroactively: nobody's position at
 *   those times can be rebuilt with a fair rate, and Binance likewise pays rounds at their time. A
 *   start within an interval therefore (re)sends the latest round; the ledger's idempotency makes
 *   that a no-op when it was already paid before the restart. A round that keeps failing until the
 *   next funding time is dropped for the newer one (logged).
 */

export interface FundingMarks {
  mark(marketId: string): { markTicks: number } | null;
  /** The predicted rate now, capped (RATE_SCALE); null for an unknown market. */
  fundingRate(marketId: string): bigint | null;
  resetPremium(marketId: string): void;
}

export interface FundingScheduleDeps {
  marketIds: () => readonly string[];
  marks: FundingMarks;
  /** Pays one round; idempotent per (marketId, fundingTime). A lib/errors Result fits as its answer. */
  settleFunding: (marketId: string, rate: bigint, markTicks: number, fundingTime: number) => Promise<SettleOutcome>;
  clock: () => Date;
  fundingIntervalMs: number;
  log: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
  /** How often the timer looks for due rounds (1 s). */
  tickMs?: number;
}

/** What settleFunding may answer: a failure is a final refusal of the round (see above). */
export type SettleOutcome = { ok: true } | { ok: false; code: string; message?: string };

export interface FundingRound {
  marketId: string;
  fundingTime: number;
  rate: bigint;
  markTicks: number;
}

export interface FundingSchedule {
  /** Settles every due round (the timer calls it; tests drive it). */
  tick(): Promise<void>;
  /** Rounds frozen but not settled yet (they are retried on the next tick). */
  pending(): readonly FundingRound[];
  start(): void;
  stop(): Promise<void>;
}

export function createFundingSchedule(deps: FundingScheduleDeps): FundingSchedule {
  /** Per market, the last funding time settled by this process. */
  const settled = new Map<string, number>();
  const pending = new Map<string, FundingRound>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  /** The round a market owes now: a pending one, or a new one frozen from the marks. */
  const roundDue = (marketId: string, due: number): FundingRound | null => {
    const waiting = pending.get(marketId);
    if (waiting && waiting.fundingTime === due) return waiting;
    if (waiting) deps.log.warn({ ...roundDetails(waiting) }, 'funding round dropped for a newer one');
    pending.delete(marketId);
    const mark = deps.marks.mark(marketId);
    const rate = deps.marks.fundingRate(marketId);
    if (mark === null || rate === null) return null;
    const round = { marketId, fundingTime: due, rate, markTicks: mark.markTicks };
    pending.set(marketId, round);
    deps.marks.resetPremium(marketId);
    return round;
  };

  const settleOne = async (round: FundingRound): Promise<void> => {
    try {
      const outcome = await deps.settleFunding(round.marketId, round.rate, round.markTicks, round.fundingTime);
      settled.set(round.marketId, round.fundingTime);
      if (pending.get(round.marketId) === round) pending.delete(round.marketId);
      if (!outcome.ok) {
        const { code, message } = outcome;
        deps.log.info({ ...roundDetails(round), code, reason: message }, 'funding round refused; not retried');
      } else {
        deps.log.info(roundDetails(round), 'funding round settled');
      }
    } catch (error) {
      deps.log.warn({ err: error, ...roundDetails(round) }, 'funding round failed; retried on the next tick');
    }
  };

  const runTick = async (): Promise<void> => {
    const due = lastFundingTime(deps.clock().getTime(), deps.fundingIntervalMs);
    const rounds: FundingRound[] = [];
    for (const marketId of deps.marketIds()) {
      const last = settled.get(marketId);
      if (last !== undefined && last >= due) continue;
      const fresh = pending.get(marketId)?.fundingTime !== due;
      const round = roundDue(marketId, due);
      if (round && fresh && last !== undefined && due - last > deps.fundingIntervalMs) {
        const skipped = (due - last) / deps.fundingIntervalMs - 1;
        deps.log.warn({ market: marketId, skipped }, 'funding rounds skipped; only the latest is paid');
      }
      if (round) rounds.push(round);
    }
    await Promise.all(rounds.map(settleOne));
  };

  /** One tick at a time: a slow settlement makes the next ticks wait, never run twice. */
  const tick = (): Promise<void> => {
    if (running) return running;
    running = runTick().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    tick,
    pending: () => [...pending.values()],
    start() {
      if (timer) return;
      timer = setInterval(() => void tick(), deps.tickMs ?? 1_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

const roundDetails = (round: FundingRound) => ({
  market: round.marketId,
  fundingTime: new Date(round.fundingTime).toISOString(),
  rate: round.rate.toString(),
  markTicks: round.markTicks,
});
