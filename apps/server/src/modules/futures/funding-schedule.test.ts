import { describe, expect, it } from 'vitest';
import { createFundingSchedule, type FundingRound } from './funding-schedule.ts';
import { type BookSide, createFuturesMarks, impactNotionalFor } from './marks.ts';

const HOUR = 3_600_000;
const INTERVAL = 8 * HOUR;
/** 09:00 UTC: the latest funding time is 08:00. */
const DAY = Date.UTC(2026, 0, 5);
const silent: { info(details: object, message: string): void; warn(details: object, message: string): void } = {
  info: () => {},
  warn: () => {},
};

type Paid = { marketId: string; rate: bigint; markTicks: number; fundingTime: number };

function setup(options: { startMs?: number; failing?: Set<string>; log?: typeof silent } = {}) {
  let nowMs = options.startMs ?? DAY + 9 * HOUR;
  const rates = new Map<string, bigint>([
    ['BTC_USD_PERP', 300_000n],
    ['ETH_USD_PERP', -12_345n],
  ]);
  const marksTicks = new Map<string, number>([['BTC_USD_PERP', 600_000]]);
  const resets: string[] = [];
  const paid: Paid[] = [];
  const attempts: Paid[] = [];
  const failing = options.failing ?? new Set<string>();
  const schedule = createFundingSchedule({
    marketIds: () => ['BTC_USD_PERP', 'ETH_USD_PERP'],
    marks: {
      mark: (id) => {
        const markTicks = marksTicks.get(id);
        return markTicks === undefined ? null : { markTicks };
      },
      fundingRate: (id) => rates.get(id) ?? null,
      resetPremium: (id) => resets.push(id),
    },
    settleFunding: async (marketId, rate, markTicks, fundingTime) => {
      attempts.push({ marketId, rate, markTicks, fundingTime });
      if (failing.has(marketId)) throw new Error('ledger unavailable');
      paid.push({ marketId, rate, markTicks, fundingTime });
      return { ok: true };
    },
    clock: () => new Date(nowMs),
    fundingIntervalMs: INTERVAL,
    log: options.log ?? silent,
  });
  return {
    schedule,
    paid,
    attempts,
    resets,
    rates,
    marksTicks,
    failing,
    at: (ms: number) => {
      nowMs = ms;
      return schedule.tick();
    },
  };
}

const times = (rounds: readonly Pick<FundingRound | Paid, 'marketId' | 'fundingTime'>[]) =>
  rounds.map((round) => `${round.marketId}@${(round.fundingTime - DAY) / HOUR}h`);

describe('funding schedule', () => {
  it('pays each market exactly once per funding time, at the frozen rate and mark', async () => {
    const { paid, resets, at, marksTicks } = setup();
    marksTicks.set('ETH_USD_PERP', 30_000);
    await at(DAY + 9 * HOUR);
    // After a start within an interval, the latest due round (08:00) is sent once.
    expect(times(paid)).toEqual(['BTC_USD_PERP@8h', 'ETH_USD_PERP@8h']);
    await at(DAY + 9 * HOUR + 1_000);
    await at(DAY + 16 * HOUR - 1);
    expect(paid).toHaveLength(2);
    await at(DAY + 16 * HOUR);
    await at(DAY + 16 * HOUR + 1_000);
    expect(paid.slice(2)).toEqual([
      { marketId: 'BTC_USD_PERP', rate: 300_000n, markTicks: 600_000, fundingTime: DAY + 16 * HOUR },
      { marketId: 'ETH_USD_PERP', rate: -12_345n, markTicks: 30_000, fundingTime: DAY + 16 * HOUR },
    ]);
    expect(resets).toEqual(['BTC_USD_PERP', 'ETH_USD_PERP', 'BTC_USD_PERP', 'ETH_USD_PERP']);
  });

  it('waits for a market’s first mark', async () => {
    const { paid, at, marksTicks } = setup();
    await at(DAY + 9 * HOUR);
    expect(times(paid)).toEqual(['BTC_USD_PERP@8h']);
    marksTicks.set('ETH_USD_PERP', 30_000);
    await at(DAY + 9 * HOUR + 1_000);
    expect(times(paid)).toEqual(['BTC_USD_PERP@8h', 'ETH_USD_PERP@8h']);
  });

  it('retries a failed round on the next tick with the same rate and mark, and pays it once', async () => {
    const { paid, attempts, at, failing, rates, marksTicks, schedule } = setup({ failing: new Set(['BTC_USD_PERP']) });
    await at(DAY + 9 * HOUR);
    expect(schedule.pending()).toEqual([
      { marketId: 'BTC_USD_PERP', fundingTime: DAY + 8 * HOUR, rate: 300_000n, markTicks: 600_000 },
    ]);
    rates.set('BTC_USD_PERP', 1n);
    marksTicks.set('BTC_USD_PERP', 1);
    await at(DAY + 9 * HOUR + 1_000);
    failing.clear();
    await at(DAY + 9 * HOUR + 2_000);
    await at(DAY + 9 * HOUR + 3_000);
    expect(attempts).toHaveLength(3);
    expect(paid).toEqual([
      { marketId: 'BTC_USD_PERP', rate: 300_000n, markTicks: 600_000, fundingTime: DAY + 8 * HOUR },
    ]);
    expect(schedule.pending()).toEqual([]);
  });

  it('after downtime pays only the latest due round, and says how many it skipped', async () => {
    const warnings: object[] = [];
    const { paid, at } = setup({ log: { info: () => {}, warn: (details) => warnings.push(details) } });
    await at(DAY + 9 * HOUR);
    await at(DAY + 3 * 24 * HOUR + 5 * HOUR);
    expect(times(paid)).toEqual(['BTC_USD_PERP@8h', 'BTC_USD_PERP@72h']);
    // 16:00, then 00:00, 08:00 and 16:00 of two more days: 7 rounds between 08:00 and 72 h.
    expect(warnings).toEqual([{ market: 'BTC_USD_PERP', skipped: 7 }]);
  });

  it('takes a refusal (already settled, after a restart) as final: no retry', async () => {
    let attempts = 0;
    const refusing = createFundingSchedule({
      marketIds: () => ['BTC_USD_PERP'],
      marks: { mark: () => ({ markTicks: 600_000 }), fundingRate: () => 10_000n, resetPremium: () => {} },
      settleFunding: async () => {
        attempts += 1;
        return { ok: false, code: 'VALIDATION_ERROR', message: 'This funding round was already settled' };
      },
      clock: () => new Date(DAY + 9 * HOUR),
      fundingIntervalMs: INTERVAL,
      log: silent,
    });
    await refusing.tick();
    await refusing.tick();
    expect(attempts).toBe(1);
    expect(refusing.pending()).toEqual([]);
  });

  it('never runs two ticks at once', async () => {
    const { schedule, attempts } = setup();
    await Promise.all([schedule.tick(), schedule.tick(), schedule.tick()]);
    expect(attempts).toHaveLength(1);
  });
});

describe('funding from the marks', () => {
  it('pays the capped predicted rate once per interval', async () => {
    const interval = 60_000;
    let nowMs = Date.UTC(2026, 0, 5, 0, 0, 30);
    const market = {
      id: 'BTC_USD_PERP',
      base: 'BTC',
      priceDecimals: 1,
      quantityDecimals: 3,
      maxLeverage: 100,
      fundingCap: 300_000n,
      impactNotional: impactNotionalFor(100),
    };
    // A book 2 % over the index: premium 2 %, well over the 0.3 % cap.
    const price = (side: BookSide) => (side === 'bid' ? 612_000 : 612_010);
    const marks = createFuturesMarks({
      markets: () => [market],
      indexSources: () => [{ price: '60000', atMs: nowMs }],
      bookTop: () => ({ bestBidTicks: price('bid'), bestAskTicks: price('ask') }),
      bookLevels: (_id, side) => [{ priceTicks: price(side), lots: 100_000 }],
      clock: () => new Date(nowMs),
      publish: () => {},
      config: { fundingIntervalMs: interval },
    });
    const paid: Paid[] = [];
    const schedule = createFundingSchedule({
      marketIds: () => [market.id],
      marks,
      settleFunding: async (marketId, rate, markTicks, fundingTime) => {
        paid.push({ marketId, rate, markTicks, fundingTime });
        return { ok: true as const };
      },
      clock: () => new Date(nowMs),
      fundingIntervalMs: interval,
      log: silent,
    });
    for (let second = 0; second < 180; second++) {
      nowMs += 1_000;
      marks.sampleAll();
      await schedule.tick();
    }
    const start = Date.UTC(2026, 0, 5);
    expect(paid.map((round) => round.fundingTime)).toEqual([
      start,
      start + interval,
      start + 2 * interval,
      start + 3 * interval,
    ]);
    expect(new Set(paid.map((round) => round.rate))).toEqual(new Set([300_000n]));
    // The mark is clamped to 0.5 % over the index.
    expect(paid.at(-1)!.markTicks).toBe(603_000);
  });
});
