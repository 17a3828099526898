import { describe, expect, it } from 'vitest';
import { FLAT, type PerpPosition } from './api.ts';
import {
  fundingPayments,
  fundingRate,
  fundingRoundsDue,
  impactPriceTicks,
  MAX_LISTED_SKIPPED_ROUNDS,
  nextFundingTime,
  PremiumAverage,
  premiumRate,
} from './funding.ts';

// BTC-like market: tick 0.1 USD, lot 0.001 BTC, so one tick x lot is 10^-4 USD = 10,000 money units.
const BTC = { priceDecimals: 1, quantityDecimals: 3 };
const usd = (dollars: number): number => Math.round(dollars * 10);
const money = (dollars: number): bigint => BigInt(Math.round(dollars * 100)) * 1_000_000n;
const lots = (btc: number): number => Math.round(btc * 1000);
const percent = (value: string): bigint => {
  // '0.05' % -> 50_000n (RATE_SCALE 10^8), parsed exactly from the decimal text.
  const [whole = '0', fraction = ''] = value.replace('-', '').split('.');
  const rate = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return value.startsWith('-') ? -rate : rate;
};
const position = (sizeLots: number, priceTicks: number): PerpPosition => ({
  sizeLots,
  costTickLots: BigInt(Math.abs(sizeLots)) * BigInt(priceTicks),
});

describe('impactPriceTicks', () => {
  const asks = [
    { priceTicks: usd(60_000), lots: lots(0.1) },
    { priceTicks: usd(60_010), lots: lots(1) },
  ];
  const bids = [
    { priceTicks: usd(60_000), lots: lots(0.1) },
    { priceTicks: usd(59_990), lots: lots(1) },
  ];

  it('is the level price when the first level covers the notional', () => {
    expect(impactPriceTicks(BTC, asks, money(6_000))).toBe(usd(60_000));
    expect(impactPriceTicks(BTC, bids, money(100))).toBe(usd(60_000));
  });

  it('walks the levels, taking a fraction of the last one, and is exact when it can be', () => {
    // 6,000 USD at 60,000 (0.1 BTC) + 6,001 USD at 60,010 (0.1 BTC): 12,001 / 0.2 = 60,005.
    expect(impactPriceTicks(BTC, asks, money(12_001))).toBe(usd(60_005));
  });

  it('rounds against the taker: a buy up, a sell down', () => {
    // 9,000 USD: 0.1 BTC at 60,000 and 3,000 / 60,010 BTC: 60,003.3329... -> 60,003.4 for a buy.
    expect(impactPriceTicks(BTC, asks, money(9_000))).toBe(600_034);
    // The mirror on the bids: 59,996.6662... -> 59,996.6 for a sell.
    expect(impactPriceTicks(BTC, bids, money(9_000))).toBe(599_966);
  });

  it('is null when the book is too thin', () => {
    // The whole book is 66,010 USD for 1.1 BTC: 60,009.0909... -> 60,009.1; a cent more does not fill.
    expect(impactPriceTicks(BTC, asks, money(66_010))).toBe(600_091);
    expect(impactPriceTicks(BTC, asks, money(66_010.01))).toBeNull();
    expect(impactPriceTicks(BTC, [], money(1))).toBeNull();
  });

  it('refuses unsorted levels and a non-positive notional', () => {
    const unsorted = [asks[0]!, { priceTicks: usd(59_000), lots: 1 }, { priceTicks: usd(61_000), lots: 100 }];
    expect(() => impactPriceTicks(BTC, unsorted, money(100_000))).toThrow(RangeError);
    expect(() => impactPriceTicks(BTC, asks, 0n)).toThrow(RangeError);
  });
});

describe('premiumRate', () => {
  it('is 30 / 60,000 = 0.05 % for an impact bid 30 above the index', () => {
    expect(premiumRate(usd(60_000), usd(60_030), usd(60_045))).toBe(percent('0.05'));
  });

  it('is negative when the impact ask is under the index', () => {
    expect(premiumRate(usd(60_000), usd(59_950), usd(59_970))).toBe(-percent('0.05'));
  });

  it('is 0 when the index is between the impact prices or a side is missing', () => {
    expect(premiumRate(usd(60_000), usd(59_990), usd(60_010))).toBe(0n);
    expect(premiumRate(usd(60_000), null, usd(59_000))).toBe(0n);
    expect(premiumRate(usd(60_000), usd(61_000), null)).toBe(0n);
  });

  it('rounds to the nearest 10^-8, halves away from zero', () => {
    // 1 tick over 300,000,000 is a third of 10^-8: 0; 1 tick over 200,000,000 is exactly half of 10^-8: 1 (or -1).
    expect(premiumRate(300_000_000, 300_000_001, 300_000_002)).toBe(0n);
    expect(premiumRate(200_000_000, 200_000_001, 200_000_002)).toBe(1n);
    expect(premiumRate(200_000_000, 199_999_998, 199_999_999)).toBe(-1n);
  });
});

describe('PremiumAverage', () => {
  it('weights 0.01 %, 0.02 % and 0.06 % by 1, 2, 3: (0.01 + 0.04 + 0.18) / 6 = 0.03833 %', () => {
    const average = new PremiumAverage();
    expect(average.average()).toBe(0n);
    for (const premium of ['0.01', '0.02', '0.06']) average.add(percent(premium));
    expect(average.count()).toBe(3);
    // 230,000 / 6 = 38,333.33... -> 38,333 (0.038333 %).
    expect(average.average()).toBe(38_333n);
    average.reset();
    expect(average.count()).toBe(0);
    expect(average.average()).toBe(0n);
  });

  it('rounds halves away from zero', () => {
    const average = new PremiumAverage();
    average.add(0n);
    average.add(3n); // 6 / 3 = 2
    expect(average.average()).toBe(2n);
    average.reset();
    average.add(-1n);
    average.add(-1n);
    average.add(-1n);
    average.add(-3n); // (-1 - 2 - 3 - 12) / 10 = -1.8
    expect(average.average()).toBe(-2n);
    average.reset();
    average.add(1n);
    average.add(1n);
    average.add(0n);
    average.add(1n); // (1 + 2 + 0 + 4) / 10 = 0.7
    expect(average.average()).toBe(1n);
    average.reset();
    average.add(-1n);
    average.add(-1n);
    average.add(0n);
    average.add(0n);
    average.add(0n); // -3 / 15 = -0.2
    expect(average.average()).toBe(0n);
  });
});

describe('fundingRate', () => {
  const interest = percent('0.01');
  const cap = percent('0.3');

  it('clamps I - P to 0.05 %: P = 0.10 % gives F = 0.05 %', () => {
    expect(fundingRate(percent('0.10'), interest, cap)).toBe(percent('0.05'));
  });

  it('is the interest rate for any premium between -0.04 % and +0.06 %', () => {
    for (const premium of ['-0.04', '-0.01', '0', '0.01', '0.038333', '0.06']) {
      expect(fundingRate(percent(premium), interest, cap)).toBe(interest);
    }
    expect(fundingRate(percent('-0.040001'), interest, cap)).toBe(percent('-0.040001') + percent('0.05'));
  });

  it('is clamped to the cap both ways', () => {
    expect(fundingRate(percent('0.5'), interest, cap)).toBe(cap);
    expect(fundingRate(percent('-0.5'), interest, cap)).toBe(-cap);
    expect(fundingRate(percent('0.34'), interest, cap)).toBe(percent('0.29'));
  });

  it('refuses a negative cap', () => {
    expect(() => fundingRate(0n, interest, -1n)).toThrow(RangeError);
  });
});

describe('fundingPayments', () => {
  it('charges a 2 BTC long at 60,000 and 0.05 % exactly 60 USD, paid to the shorts', () => {
    const { payments, residual } = fundingPayments(BTC, usd(60_000), percent('0.05'), [
      { id: 'long', position: position(lots(2), usd(55_000)) },
      { id: 'short-a', position: position(-lots(1.5), usd(61_000)) },
      { id: 'short-b', position: position(-lots(0.5), usd(59_000)) },
    ]);
    expect(payments).toEqual([
      { id: 'long', amount: money(60) },
      { id: 'short-a', amount: -money(45) },
      { id: 'short-b', amount: -money(15) },
    ]);
    expect(residual).toBe(0n);
  });

  it('makes longs receive when the rate is negative', () => {
    const { payments } = fundingPayments(BTC, usd(60_000), -percent('0.05'), [
      { id: 'long', position: position(lots(2), usd(60_000)) },
      { id: 'short', position: position(-lots(2), usd(60_000)) },
    ]);
    expect(payments.map((payment) => payment.amount)).toEqual([-money(60), money(60)]);
  });

  it('charges payers up and credits receivers down, the residual going to the fund', () => {
    // One tick x lot is 10^4 money units; at a rate of 10^-8 each lot at 1 tick owes 10^-4 money units:
    // the long owes 3 x 10^-4 and pays 1 unit, the shorts are owed 10^-4 and 2 x 10^-4 and get 0.
    const tiny = { priceDecimals: 4, quantityDecimals: 0 };
    const { payments, residual } = fundingPayments(tiny, 1, 1n, [
      { id: 'long', position: position(3, 1) },
      { id: 'short-a', position: position(-1, 1) },
      { id: 'short-b', position: position(-2, 1) },
    ]);
    expect(payments.map((payment) => payment.amount)).toEqual([1n, 0n, 0n]);
    expect(residual).toBe(1n);
  });

  it('returns a payment of 0 for a flat position and refuses sizes that do not sum to zero', () => {
    const { payments } = fundingPayments(BTC, usd(60_000), percent('0.01'), [{ id: 'flat', position: FLAT }]);
    expect(payments).toEqual([{ id: 'flat', amount: 0n }]);
    expect(() =>
      fundingPayments(BTC, usd(60_000), percent('0.01'), [{ id: 'long', position: position(1, usd(60_000)) }]),
    ).toThrow(RangeError);
  });
});

describe('funding schedule', () => {
  const hour = 3_600_000;
  const eightHours = 8 * hour;
  const at = (iso: string): number => Date.parse(iso);

  it('puts 8 h rounds at 00:00, 08:00 and 16:00 UTC, strictly after now', () => {
    expect(nextFundingTime(at('2026-11-25T23:21:07.000Z'), eightHours)).toBe(at('2026-11-26T00:00:00.000Z'));
    expect(nextFundingTime(at('2026-11-26T00:00:00.001Z'), eightHours)).toBe(at('2026-11-26T08:00:00.000Z'));
    expect(nextFundingTime(at('2026-11-26T08:00:00.000Z'), eightHours)).toBe(at('2026-11-26T16:00:00.000Z'));
    expect(nextFundingTime(at('2026-11-26T08:59:59.999Z'), hour)).toBe(at('2026-11-26T09:00:00.000Z'));
  });

  it('has nothing due before the next round and the round itself at its time', () => {
    const last = at('2026-11-26T00:00:00.000Z');
    expect(fundingRoundsDue(last, at('2026-11-26T07:59:59.999Z'), eightHours)).toEqual({
      payMs: null,
      skippedMs: [],
      skippedCount: 0,
    });
    expect(fundingRoundsDue(last, at('2026-11-26T08:00:00.000Z'), eightHours)).toEqual({
      payMs: at('2026-11-26T08:00:00.000Z'),
      skippedMs: [],
      skippedCount: 0,
    });
  });

  it('after downtime pays only the latest due round and lists the skipped ones', () => {
    const due = fundingRoundsDue(at('2026-11-26T00:00:00.000Z'), at('2026-11-27T17:30:00.000Z'), eightHours);
    expect(due).toEqual({
      payMs: at('2026-11-27T16:00:00.000Z'),
      skippedMs: [
        at('2026-11-26T08:00:00.000Z'),
        at('2026-11-26T16:00:00.000Z'),
        at('2026-11-27T00:00:00.000Z'),
        at('2026-11-27T08:00:00.000Z'),
      ],
      skippedCount: 4,
    });
  });

  it('counts every skipped round but lists at most MAX_LISTED_SKIPPED_ROUNDS', () => {
    const due = fundingRoundsDue(0, 1_000 * hour + 1, hour);
    expect(due.payMs).toBe(1_000 * hour);
    expect(due.skippedCount).toBe(999);
    expect(due.skippedMs).toHaveLength(MAX_LISTED_SKIPPED_ROUNDS);
    expect(due.skippedMs[0]).toBe(hour);
  });

  it('refuses a non-positive interval', () => {
    expect(() => nextFundingTime(0, 0)).toThrow(RangeError);
    expect(() => fundingRoundsDue(0, 10, -1)).toThrow(RangeError);
  });
});
