import { describe, expect, it } from 'vitest';
import { FLAT, type PerpPosition } from './api.ts';
import { liquidationPriceTicks } from './liquidation.ts';
import { crossState, isolatedLiquidatable, marginRatioDecimal, roeDecimal } from './margin.ts';
import { entryPriceDecimal, positionMetrics, unrealisedPnl } from './position.ts';
import { BTC_SPEC, BTC_TIERS, btcLots, btcTicks, USD } from './risk-fixtures.test-support.ts';
import { divCeil, divFloor, divHalfUp } from './rounding.ts';
import {
  buildTiers,
  initialMargin,
  maintenanceMargin,
  maxLeverageForNotional,
  maxNotionalForLeverage,
  tierFor,
} from './tiers.ts';
import {
  decimalToMoney,
  decimalToRate,
  moneyToDecimal,
  notionalMoney,
  rateToDecimal,
  tickLotsToMoney,
  unitsPerTickLot,
} from './units.ts';

const usd = (text: string): bigint => decimalToMoney(text)!;
const position = (btc: number, entryUsd: number): PerpPosition => ({
  sizeLots: btcLots(btc),
  costTickLots: BigInt(btcLots(Math.abs(btc))) * BigInt(btcTicks(entryUsd)),
});

describe('rounded division', () => {
  it('floors, ceils and rounds half up for both signs', () => {
    expect([divFloor(7n, 2n), divFloor(-7n, 2n), divFloor(-6n, 2n), divFloor(0n, 3n)]).toEqual([3n, -4n, -3n, 0n]);
    expect([divCeil(7n, 2n), divCeil(-7n, 2n), divCeil(6n, 2n), divCeil(1n, 3n)]).toEqual([4n, -3n, 3n, 1n]);
    expect([divHalfUp(5n, 2n), divHalfUp(-5n, 2n), divHalfUp(4n, 3n), divHalfUp(5n, 3n)]).toEqual([3n, -2n, 1n, 2n]);
  });
});

describe('units', () => {
  it('derives the money units of one tick x lot (§11: tick 0.1, lot 0.001 -> 10,000 units)', () => {
    expect(unitsPerTickLot(BTC_SPEC)).toBe(10_000n);
    expect(unitsPerTickLot({ priceDecimals: 2, quantityDecimals: 6 })).toBe(1n);
    expect(() => unitsPerTickLot({ priceDecimals: 4, quantityDecimals: 5 })).toThrow();
  });

  it('values p = 400,000 ticks x q = 2,000 lots at 8 x 10^12 units = 80,000 USD', () => {
    expect(notionalMoney(BTC_SPEC, 400_000, 2_000)).toBe(8_000_000_000_000n);
    expect(notionalMoney(BTC_SPEC, 400_000, -2_000)).toBe(80_000n * USD);
    expect(tickLotsToMoney(BTC_SPEC, 800_000_000n)).toBe(80_000n * USD);
  });

  it('writes and reads money and rates as canonical decimals', () => {
    expect(moneyToDecimal(-1_250_000_000n)).toBe('-12.5');
    expect(moneyToDecimal(0n)).toBe('0');
    expect(moneyToDecimal(1n)).toBe('0.00000001');
    expect(moneyToDecimal(-1n)).toBe('-0.00000001');
    expect(decimalToMoney('12.5')).toBe(1_250_000_000n);
    expect(decimalToMoney('-0.00000001')).toBe(-1n);
    expect(decimalToMoney('0.000000001')).toBeNull();
    expect(decimalToMoney('1e5')).toBeNull();
    expect(decimalToMoney('')).toBeNull();
    expect(decimalToMoney('.5')).toBeNull();
    expect(rateToDecimal(40_000n)).toBe('0.0004');
    expect(decimalToRate('0.0004')).toBe(40_000n);
    expect(decimalToRate('0.005')).toBe(500_000n);
    expect(decimalToRate('abc')).toBeNull();
  });
});

describe('tiers (BTCUSDT table, futures-maths.md §2)', () => {
  it('derives every floor and cum of the published table', () => {
    const cums = [0, 50, 1_300, 46_300, 546_300, 2_546_300, 5_046_300, 8_046_300, 28_046_300, 103_046_300];
    expect(BTC_TIERS.map((tier) => tier.cum)).toEqual(cums.map((cum) => BigInt(cum) * USD));
    expect(BTC_TIERS.map((tier) => tier.floor / USD)).toEqual(
      [0, 50_000, 250_000, 3_000_000, 20_000_000, 40_000_000, 100_000_000, 120_000_000, 200_000_000, 300_000_000].map(
        BigInt,
      ),
    );
    expect(BTC_TIERS.map((tier) => tier.tier)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('charges MM progressively: 5,000,000 -> 78,700; continuous at 3,000,000 (28,700); 80,000 -> 350', () => {
    expect(maintenanceMargin(BTC_TIERS, 5_000_000n * USD)).toBe(78_700n * USD);
    expect(maintenanceMargin(BTC_TIERS, 3_000_000n * USD)).toBe(28_700n * USD);
    expect(maintenanceMargin(BTC_TIERS, 3_000_000n * USD - 1n)).toBe(28_700n * USD);
    expect(maintenanceMargin(BTC_TIERS, 80_000n * USD)).toBe(350n * USD);
    expect(maintenanceMargin(BTC_TIERS, 0n)).toBe(0n);
  });

  it('rounds MM and IM up (against the trader)', () => {
    // 1 unit x 0.4 % = 0.004 units -> 1 unit; 101 units / 20 = 5.05 -> 6
    expect(maintenanceMargin(BTC_TIERS, 1n)).toBe(1n);
    expect(initialMargin(101n, 20)).toBe(6n);
    expect(initialMargin(100n, 20)).toBe(5n);
  });

  it('places a notional in floor <= N < cap, the last tier taking everything beyond', () => {
    expect(tierFor(BTC_TIERS, 49_999n * USD).tier).toBe(1);
    expect(tierFor(BTC_TIERS, 50_000n * USD).tier).toBe(2);
    expect(tierFor(BTC_TIERS, 500_000_000n * USD).tier).toBe(10);
    expect(tierFor(BTC_TIERS, 900_000_000n * USD).tier).toBe(10);
  });

  it('maps leverage to size and back (20x -> 20,000,000; 2x -> 300,000,000)', () => {
    expect(maxNotionalForLeverage(BTC_TIERS, 20)).toBe(20_000_000n * USD);
    expect(maxNotionalForLeverage(BTC_TIERS, 2)).toBe(300_000_000n * USD);
    expect(maxNotionalForLeverage(BTC_TIERS, 125)).toBe(50_000n * USD);
    expect(maxNotionalForLeverage(BTC_TIERS, 126)).toBe(0n);
    expect(maxLeverageForNotional(BTC_TIERS, 84_000n * USD)).toBe(100);
    expect(maxLeverageForNotional(BTC_TIERS, 3_000_000n * USD)).toBe(20);
  });

  it('refuses malformed tables', () => {
    const row = (cap: number, maxLeverage: number, mmr: bigint) => ({ cap: BigInt(cap) * USD, maxLeverage, mmr });
    expect(() => buildTiers([])).toThrow();
    expect(() => buildTiers([row(10, 10, 500_000n), row(10, 5, 1_000_000n)])).toThrow('ascending');
    expect(() => buildTiers([row(10, 10, 500_000n), row(20, 20, 1_000_000n)])).toThrow('leverage');
    expect(() => buildTiers([row(10, 10, 500_000n), row(20, 5, 400_000n)])).toThrow('lower maintenance');
    expect(() => buildTiers([row(10, 10, 0n)])).toThrow();
    expect(() =>
      buildTiers([
        { cap: 3n, maxLeverage: 10, mmr: 1n },
        { cap: 10n, maxLeverage: 5, mmr: 2n },
      ]),
    ).toThrow('finer');
  });
});

describe('§1 example: long 2 BTC at 40,000, 20x, mark 42,000, isolated margin 4,000', () => {
  const risk = {
    spec: BTC_SPEC,
    tiers: BTC_TIERS,
    position: position(2, 40_000),
    markTicks: btcTicks(42_000),
    mode: 'isolated' as const,
    leverage: 20,
    isolatedMargin: 4_000n * USD,
  };

  it('gives N 84,000, IM 4,200, MM 370, UPNL 4,000', () => {
    expect(positionMetrics(risk)).toEqual({
      notional: 84_000n * USD,
      initialMargin: 4_200n * USD,
      maintenanceMargin: 370n * USD,
      unrealisedPnl: 4_000n * USD,
    });
  });

  it('gives MR = 370 / 8,000 = 4.625 % -> 0.0463 (4 decimals, up) and ROE 100 % on the posted margin', () => {
    expect(marginRatioDecimal(370n * USD, 8_000n * USD)).toBe('0.0463');
    expect(roeDecimal(4_000n * USD, 80_000n * USD, 20)).toBe('1');
    expect(roeDecimal(-1_234n * USD, 80_000n * USD, 20)).toBe('-0.3085');
    expect(marginRatioDecimal(0n, 5n)).toBe('0');
    expect(marginRatioDecimal(10n, 10n)).toBe('1');
    expect(marginRatioDecimal(10n, 5n)).toBe('2');
    expect(marginRatioDecimal(10n, -5n)).toBe('1');
    expect(isolatedLiquidatable(risk)).toBe(false);
  });

  it('shows the entry price with two extra decimals, half up', () => {
    expect(entryPriceDecimal(BTC_SPEC, risk.position)).toBe('40000.000');
    expect(entryPriceDecimal(BTC_SPEC, { sizeLots: 3, costTickLots: 1_000_001n })).toBe('33333.367');
    expect(entryPriceDecimal(BTC_SPEC, { sizeLots: -3, costTickLots: 2n }, 0)).toBe('0.1');
    expect(entryPriceDecimal(BTC_SPEC, FLAT)).toBeNull();
    expect(unrealisedPnl(BTC_SPEC, position(-2, 40_000), btcTicks(42_000))).toBe(-4_000n * USD);
  });
});

describe('cross account state', () => {
  it('sums P&L, IM and MM; spends no unrealised profit; liquidates at MB <= MM', () => {
    const base = { spec: BTC_SPEC, tiers: BTC_TIERS, mode: 'cross' as const, leverage: 20, isolatedMargin: 0n };
    const long = { ...base, position: position(2, 40_000), markTicks: btcTicks(42_000) };
    const short = { ...base, position: position(-1, 40_000), markTicks: btcTicks(42_000) };
    const state = crossState({ walletBalance: 10_000n * USD, positions: [long, short], orderMargin: 100n * USD });
    expect(state.unrealisedPnl).toBe(2_000n * USD);
    expect(state.marginBalance).toBe(12_000n * USD);
    expect(state.initialMargin).toBe(6_300n * USD);
    expect(state.maintenanceMargin).toBe(370n * USD + 168n * USD);
    expect(state.available).toBe(10_000n * USD - 6_300n * USD - 100n * USD);
    expect(state.liquidatable).toBe(false);
    const poor = crossState({ walletBalance: 0n, positions: [short], orderMargin: 0n });
    expect(poor.available).toBe(-2_000n * USD - 2_100n * USD);
    expect(poor.liquidatable).toBe(true);
    expect(crossState({ walletBalance: 0n, positions: [], orderMargin: 0n }).liquidatable).toBe(false);
  });
});

describe('liquidation prices of futures-maths.md §3, to the tick', () => {
  it('Example A, isolated long: LP 38,165.829… -> 38,165.8 (the last liquidatable tick)', () => {
    const input = { spec: BTC_SPEC, tiers: BTC_TIERS, position: position(2, 40_000), collateral: 4_000n * USD };
    expect(liquidationPriceTicks(input)).toBe(381_658);
  });

  it('Example B, isolated short crossing into tier 2: LP 43,822.55… -> 43,822.6', () => {
    const input = { spec: BTC_SPEC, tiers: BTC_TIERS, position: position(-1.2, 40_000), collateral: 4_800n * USD };
    expect(liquidationPriceTicks(input)).toBe(438_226);
  });

  it('Example C, cross long with WB - TMM1 + UPNL1 = 9,650: LP 50,552.76… -> 50,552.7', () => {
    const collateral = usd('10000') - usd('150') + usd('-200');
    const input = { spec: BTC_SPEC, tiers: BTC_TIERS, position: position(1, 60_000), collateral };
    expect(liquidationPriceTicks(input)).toBe(505_527);
  });

  it('null for a long that no price liquidates (WB + cum >= Q x EP) and for a flat position', () => {
    expect(
      liquidationPriceTicks({ spec: BTC_SPEC, tiers: BTC_TIERS, position: position(1, 100), collateral: 100n * USD }),
    ).toBeNull();
    expect(liquidationPriceTicks({ spec: BTC_SPEC, tiers: BTC_TIERS, position: FLAT, collateral: 0n })).toBeNull();
  });
});
