import { describe, expect, it } from 'vitest';
import { adlQueueOf } from './deleverage.ts';
import type { FuturesCore } from './exchange.ts';
import { BTC, Desk, USD } from './liquidation.test-support.ts';
import { type LiquidationOutcome, liquidate, underMaintenance } from './liquidation.ts';
import { LiquidationWatch } from './liquidation-watch.ts';
import { checkOrder, enterOrder, newOrder } from './orders.ts';

/**
 * The reference arithmetic of these tests, written out from docs/futures.md (not the engine's
 * code): BTC notional N = lots x ticks x 10^4 money units; tier 1 (N < 50,000 USD) MM = ceil(N x
 * 0.5 %), tier 2 (N < 250,000 USD) MM = ceil(N x 1 %) - 250 USD.
 */
const TICK_LOT = 10_000n;
const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
function maintenance(lots: bigint, ticks: bigint): bigint {
  const notional = (lots < 0n ? -lots : lots) * ticks * TICK_LOT;
  if (notional < 50_000n * USD) return ceil(notional * 5n, 1_000n);
  if (notional < 250_000n * USD) return ceil(notional, 100n) - 250n * USD;
  throw new Error('beyond the tiers these tests use');
}
const pnl = (lots: bigint, cost: bigint, ticks: bigint) => (lots * ticks - (lots > 0n ? cost : -cost)) * TICK_LOT;

function run(desk: Desk, accountId: string, markTicks: number): LiquidationOutcome {
  desk.marks[BTC] = markTicks;
  const result = liquidate(desk.context(), { accountId, marketId: BTC, marks: { [BTC]: markTicks } });
  if (!result.ok) throw new Error(result.code);
  return result.value;
}

/** Σ sizes per market = 0, no wallet bucket below zero, the fund >= 0, the ledger as the memory has it. */
function sound(desk: Desk): void {
  const sizes = [...desk.state.positions.values()].reduce((sum, p) => sum + p.sizeLots, 0);
  expect(sizes).toBe(0);
  const ledger = desk.ledger();
  for (const [id, wallet] of desk.state.wallets) {
    expect(wallet.available, id).toBeGreaterThanOrEqual(0n);
    expect(wallet.locked, id).toBeGreaterThanOrEqual(0n);
    const initial = desk.initial.get(id) ?? 0n;
    expect((ledger.get(`futures:${id}:available`) ?? 0n) + initial, id).toBe(wallet.available);
    expect(ledger.get(`futures:${id}:locked`) ?? 0n, id).toBe(wallet.locked);
  }
  expect(desk.state.insuranceFund).toBeGreaterThanOrEqual(0n);
  expect(desk.fund() + desk.seeded).toBe(desk.state.insuranceFund);
}

describe('liquidate (the decide function)', () => {
  it('liquidates an isolated long at the mark that reaches the maintenance line, not one tick before', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    // Margin 250, equity at t ticks 250 + 0.1 x (t/10 - 50,000); MM = 0.5 % of 0.1 x t/10.
    // 250e8 + 1e6 t - 5e11 <= 5,000 t  <=>  t <= 4.75e11 / 995,000 = 477,386.9...
    const line = 477_386;
    expect(250n * USD + pnl(100n, 100n * 500_000n, BigInt(line))).toBeLessThanOrEqual(maintenance(100n, BigInt(line)));
    expect(250n * USD + pnl(100n, 100n * 500_000n, BigInt(line + 1))).toBeGreaterThan(
      maintenance(100n, BigInt(line + 1)),
    );
    desk.order('c', 'buy', 477_000, 100);
    const before = run(desk, 'a', line + 1);
    expect(before.status).toBe('not_liquidatable');
    expect(desk.state.position('a', BTC).sizeLots).toBe(100);
    const done = run(desk, 'a', line);
    expect(done).toMatchObject({ status: 'closed', bookLots: 100, insuranceLots: 0, adl: [] });
    expect(desk.state.position('a', BTC).sizeLots).toBe(0);
    // Closed at 47,700: 250 - 230 = 20 left; the fee (0.5 % of 4,773.86 = 23.8693) takes it all.
    expect(done.fee).toBe(20n * USD);
    expect(done.surplus).toBe(0n);
    expect(desk.state.wallet('a')).toEqual({ available: 748n * USD, locked: 0n });
    expect(desk.state.insuranceFund).toBe(20n * USD);
    expect(done.steps.map((s) => s.step)).toEqual(['close', 'liquidation_fee']);
    sound(desk);
  });

  it('closes only down to the lower tier when that suffices (partial liquidation by tier)', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 10_000n, 'isolated', 20);
    desk.trader('b', 1_000_000n);
    desk.trader('c', 1_000_000n);
    desk.order('b', 'sell', 500_000, 2_000);
    desk.order('a', 'buy', 500_000, 2_000);
    // 2 BTC, margin 5,000, tier 2: 2e7 t - 9.5e12 <= 2e5 t - 2.5e10  <=>  t <= 9.475e12 / 1.98e7 = 478,535.35...
    const mark = 478_535n;
    const cost = 2_000n * 500_000n;
    expect(5_000n * USD + pnl(2_000n, cost, mark)).toBeLessThanOrEqual(maintenance(2_000n, mark));
    // The rest must fit tier 1 (<= 50,000 USD at the mark): floor(5e12 / (mark x 1e4)) = 1,044 lots.
    const rest = (50_000n * USD) / (mark * TICK_LOT);
    expect(rest).toBe(1_044n);
    desk.order('c', 'buy', Number(mark), 2_000);
    const done = run(desk, 'a', Number(mark));
    expect(done.status).toBe('partial');
    expect(done.bookLots).toBe(956);
    const position = desk.state.position('a', BTC);
    expect(position.sizeLots).toBe(1_044);
    // The whole margin stays with the rest (5,000 less the realised loss of the 956 lots), less the fee.
    const realised = pnl(956n, 956n * 500_000n, mark);
    const fee = ceil(956n * mark * TICK_LOT * 5n, 1_000n);
    expect(done.fee).toBe(fee);
    expect(position.isolatedMargin).toBe(5_000n * USD + realised - fee);
    const equity = position.isolatedMargin + pnl(1_044n, position.costTickLots, mark);
    expect(equity).toBeGreaterThan(maintenance(1_044n, mark));
    expect(underMaintenance(desk.state, 'a', BTC, () => Number(mark))).toBe(false);
    sound(desk);
  });

  it('a bankruptcy beyond the book is covered by the insurance fund: the account ends at exactly 0', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.seedFund(100n);
    desk.trader('a', 260n, 'cross', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    expect(desk.state.wallet('a').available).toBe(258n * USD); // the taker fee, 2
    // Gap to 47,000: equity 258 - 300 = -42. BP = ceil((5e11 - 258e8) / 1e6) = 474,200; the only bid is 47,000.
    desk.order('c', 'buy', 470_000, 100);
    const done = run(desk, 'a', 470_000);
    expect(done).toMatchObject({ status: 'closed', bookLots: 0, insuranceLots: 100, adl: [] });
    expect(done.insurancePaid).toBe(42n * USD);
    expect(desk.state.wallet('a')).toEqual({ available: 0n, locked: 0n });
    expect(desk.state.insuranceFund).toBe(58n * USD);
    const close = done.steps.find((s) => s.step === 'insurance_close')!;
    // The fund's bound: 100 USD over 100 lots x 1e4 = 10,000 ticks below BP.
    expect(close).toMatchObject({ bankruptcyTicks: 474_200, priceTicks: 464_200, lots: 100 });
    sound(desk);
  });

  it('an isolated bankruptcy: the fund pays the shortfall into the margin, the wallet keeps the rest untouched', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.seedFund(100n);
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    desk.order('c', 'buy', 470_000, 100);
    const done = run(desk, 'a', 470_000);
    // BP 47,500; filled at 47,000: 0.1 x 500 = 50 from the fund.
    expect(done.insurancePaid).toBe(50n * USD);
    expect(desk.state.wallet('a')).toEqual({ available: 748n * USD, locked: 0n });
    expect(desk.state.insuranceFund).toBe(50n * USD);
    sound(desk);
  });

  it('an isolated close over several fills below BP: the fund pays exactly the shortfall, the margin nothing more', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.seedFund(100n);
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    desk.order('c', 'buy', 473_000, 50);
    desk.order('c', 'buy', 471_000, 50);
    const done = run(desk, 'a', 471_000);
    // BP 47,500: 0.05 x 200 + 0.05 x 400 = 30 short, within the fund's bound (limit 46,500).
    expect(done).toMatchObject({ status: 'closed', bookLots: 0, insuranceLots: 100, fee: 0n, surplus: 0n });
    expect(desk.state.insuranceFund).toBe(70n * USD);
    expect(desk.state.wallet('a')).toEqual({ available: 748n * USD, locked: 0n });
    sound(desk);
  });

  it('a cross close better than BP: the fee, then the surplus beyond it, to the fund; the trader ends as at BP', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 300n, 'cross', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    // Wallet 298; line: 298 + 0.1 (P - 50,000) <= 0.0005 P  <=>  P <= 47,256.28; BP = ceil(47,020) = 47,020.
    desk.order('c', 'buy', 476_000, 100); // a stale bid above the mark
    const done = run(desk, 'a', 472_562);
    const fee = ceil(100n * 472_562n * TICK_LOT * 5n, 1_000n);
    expect(done).toMatchObject({ status: 'closed', bookLots: 100, fee });
    // Closed at 47,600: 0.1 x (47,600 - 47,020) = 58 over BP, all of it to the fund.
    expect(done.surplus).toBe(58n * USD - fee);
    expect(desk.state.wallet('a')).toEqual({ available: 0n, locked: 0n });
    expect(desk.state.insuranceFund).toBe(58n * USD);
    sound(desk);
  });

  it('a short the same way round: bought back above BP with the fund paying the difference', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.seedFund(100n);
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n);
    desk.trader('c', 100_000n);
    desk.order('b', 'buy', 500_000, 100);
    desk.order('a', 'sell', 500_000, 100);
    // BP = floor((250e8 + 5e11) / 1e6) = 525,000; the only ask is 52,800: 0.1 x 300 = 30 from the fund.
    desk.order('c', 'sell', 528_000, 100);
    const done = run(desk, 'a', 530_000);
    expect(done).toMatchObject({ status: 'closed', side: 'short', insuranceLots: 100, insurancePaid: 30n * USD });
    expect(done.steps.find((s) => s.step === 'insurance_close')).toMatchObject({
      bankruptcyTicks: 525_000,
      priceTicks: 535_000,
    });
    expect(desk.state.wallet('a')).toEqual({ available: 748n * USD, locked: 0n });
    expect(desk.state.insuranceFund).toBe(70n * USD);
    sound(desk);
  });

  it('deleverages the opposite positions in ADL order at the bankruptcy price when the fund is empty', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n); // low effective leverage
    desk.trader('d', 2_000n); // high effective leverage: deleveraged first
    desk.order('b', 'sell', 500_000, 60);
    desk.order('d', 'sell', 500_000, 40);
    desk.order('a', 'buy', 500_000, 100);
    desk.marks[BTC] = 470_000;
    const queue = adlQueueOf(desk.state, BTC, -1, (id) => desk.marks[id] ?? null);
    expect(queue.map((q) => [q.position.accountId, q.rank])).toEqual([
      ['d', 5],
      ['b', 3],
    ]);
    const dWallet = desk.state.wallet('d').available;
    const done = run(desk, 'a', 470_000);
    expect(done.adl).toEqual([
      { counterparty: 'd', lots: 40, priceTicks: 475_000 },
      { counterparty: 'b', lots: 60, priceTicks: 475_000 },
    ]);
    expect(desk.state.position('a', BTC).sizeLots).toBe(0);
    expect(desk.state.position('d', BTC).sizeLots).toBe(0);
    expect(desk.state.position('b', BTC).sizeLots).toBe(0);
    // d shorted 40 at 50,000 and was closed at 47,500: +100, no fee.
    expect(desk.state.wallet('d').available - dWallet).toBe(100n * USD);
    expect(desk.state.wallet('a')).toEqual({ available: 748n * USD, locked: 0n });
    expect(desk.state.insuranceFund).toBe(0n);
    const adlIncome = desk.batches.flatMap((b) => b.income).filter((i) => i.type === 'adl');
    expect(adlIncome.map((i) => [i.accountId, i.amount])).toContainEqual(['d', 100n * USD]);
    sound(desk);
  });
});

describe('liquidate: inputs and orders', () => {
  it('decides on the marks the command carries, not the live ones (a replay of the journal decides the same)', () => {
    const twin = () => {
      const desk = new Desk();
      desk.marks[BTC] = 500_000;
      desk.trader('a', 1_000n, 'isolated', 20);
      desk.trader('b', 100_000n);
      desk.order('b', 'sell', 500_000, 100);
      desk.order('a', 'buy', 500_000, 100);
      return desk;
    };
    const first = twin();
    const second = twin();
    // Live mark far above the line in one, far below in the other: the command's 47,738.6 decides both.
    first.marks[BTC] = 600_000;
    second.marks[BTC] = 400_000;
    const command = { accountId: 'a', marketId: BTC, marks: { [BTC]: 477_386 } };
    const one = liquidate(first.context(), command);
    const two = liquidate(second.context(), command);
    expect(one.ok && two.ok).toBe(true);
    if (!one.ok || !two.ok) return;
    expect(one.value.status).toBe('closed');
    expect(two.value).toEqual(one.value);
    expect(first.state.wallet('a')).toEqual(second.state.wallet('a'));
    const safe = liquidate(twin().context(), { ...command, marks: { [BTC]: 477_387 } });
    expect(safe.ok && safe.value.status).toBe('not_liquidatable');
  });

  it('a cross liquidation cancels the account open orders in every cross market first', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.marks.ETH_USD_PERP = 300_000;
    desk.trader('a', 300n, 'cross', 20);
    desk.trader('b', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    desk.order('a', 'buy', 400_000, 10); // a BTC bid far below
    const ctx = desk.context();
    const eth = desk.markets.get('ETH_USD_PERP')!;
    const parsed = {
      marketId: eth.id,
      side: 'buy' as const,
      type: 'limit' as const,
      timeInForce: 'GTC' as const,
      postOnly: false,
      reduceOnly: false,
      closePosition: false,
      priceTicks: 290_000,
      stopTicks: null,
      takeProfitTicks: null,
      stopLossTicks: null,
      clientOrderId: null,
      quantityLots: 10,
    };
    const checked = checkOrder(ctx, 'a', parsed);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(enterOrder(ctx, eth, newOrder(ctx, 'a', checked.value, 'user')).ok).toBe(true);
    expect(desk.state.openOrdersOf('a')).toHaveLength(2);
    // Wallet 298 after the fee; at 47,100 the loss is 290: 8 <= MM 23.55.
    const done = run(desk, 'a', 471_000);
    expect(done.status).toBe('closed');
    expect(done.steps[0]).toMatchObject({ step: 'cancel_orders', amount: 2n });
    expect(desk.state.openOrdersOf('a')).toEqual([]);
    sound(desk);
  });
});

describe('a price crash over many positions', () => {
  it('liquidates exactly the positions under maintenance, leaves Σ sizes = 0, no balance negative, the fund >= 0', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('mm', 10_000_000n);
    const traders: { id: string; lots: number }[] = [];
    for (let i = 0; i < 24; i++) {
      const id = `t${String(i).padStart(2, '0')}`;
      const isolated = i % 2 === 0;
      desk.trader(id, BigInt(100 + 37 * i), isolated ? 'isolated' : 'cross', 10 + (i % 5) * 10);
      traders.push({ id, lots: 10 + (i % 7) * 5 });
    }
    const total = traders.reduce((sum, t) => sum + t.lots, 0);
    desk.order('mm', 'sell', 500_000, total);
    for (const t of traders) desk.order(t.id, 'buy', 500_000, t.lots);
    // Bids to absorb liquidations, every 100 USD from 49,500 down.
    for (let price = 495_000; price >= 440_000; price -= 1_000) desk.order('mm', 'buy', price, 40);
    const core = { state: desk.state } as unknown as FuturesCore;
    const watch = new LiquidationWatch({
      core,
      markOf: (id) => desk.marks[id] ?? null,
      clock: () => new Date(0),
      log: console as never,
    });
    const liquidated = new Set<string>();
    let seen = desk.batches.length;
    for (let mark = 495_000; mark >= 455_000; mark -= 2_500) {
      desk.marks[BTC] = mark;
      const expected = traders.filter((t) => byReference(desk, t.id, BigInt(mark))).map((t) => t.id);
      const found = watch.candidates().map((c) => c.accountId);
      expect(found.sort(), `mark ${mark}`).toEqual(expected.sort());
      for (const id of found) {
        expect(run(desk, id, mark).status).not.toBe('not_liquidatable');
        liquidated.add(id);
      }
      // The watch follows what the batches moved, as the core tells it after each commit.
      for (const batch of desk.batches.slice(seen)) watch.committed(batch);
      seen = desk.batches.length;
      for (const t of traders) expect(byReference(desk, t.id, BigInt(mark)), `${t.id} at ${mark}`).toBe(false);
      sound(desk);
    }
    // The crash took some of them and left others (the low-leverage ones) open.
    expect(liquidated.size).toBeGreaterThan(5);
    expect(liquidated.size).toBeLessThan(traders.length);
  });
});

/** The maintenance rule by the reference arithmetic above (one market: cross = the account's one position). */
function byReference(desk: Desk, id: string, mark: bigint): boolean {
  const position = desk.state.position(id, BTC);
  if (position.sizeLots === 0) return false;
  const lots = BigInt(position.sizeLots);
  const isolated = desk.state.setting(id, BTC).mode === 'isolated';
  const collateral = isolated ? position.isolatedMargin : desk.state.wallet(id).available;
  return collateral + pnl(lots, position.costTickLots, mark) <= maintenance(lots, mark);
}
