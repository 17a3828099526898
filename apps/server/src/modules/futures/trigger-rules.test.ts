import { beforeEach, describe, expect, it } from 'vitest';
import { BTC, Desk } from './liquidation.test-support.ts';
import { liquidate } from './liquidation.ts';
import type { ParsedOrder } from './parse.ts';
import type { FuturesOrderState } from './types.ts';

/**
 * Stop and take-profit orders wait in the exchange's memory and trigger on the last trade price
 * (triggers.ts), checked like a new order at that moment. BTC: ticks of 0.1 USD (500,000 = 50,000
 * USD), lots of 0.001 BTC; the desk's band is 50 % around the mark.
 */
describe('futures stop triggers', () => {
  let desk: Desk;

  beforeEach(() => {
    desk = new Desk();
    desk.marks[BTC] = 500_000;
    for (const id of ['maker', 'taker', 'bidder', 'stops']) desk.trader(id, 1_000_000n);
  });

  const placed = (result: ReturnType<Desk['place']>): FuturesOrderState => {
    if (!result.ok) throw new Error(`refused: ${result.code} ${result.message ?? ''}`);
    return result.value;
  };
  const place = (id: string, order: Partial<ParsedOrder> & Pick<ParsedOrder, 'side' | 'type'>) =>
    placed(desk.place(id, order));
  /** One lot traded at `price` between two accounts that have nothing else to do with the test. */
  const print = (price: number) => {
    place('maker', { side: 'buy', type: 'limit', priceTicks: price, quantityLots: 1 });
    const taker = place('taker', {
      side: 'sell',
      type: 'limit',
      timeInForce: 'IOC',
      priceTicks: price,
      quantityLots: 1,
    });
    expect(taker).toMatchObject({ filledLots: 1, filledCost: BigInt(price) });
  };
  const waiting = (order: FuturesOrderState) => {
    expect(order).toMatchObject({ status: 'pending', triggered: false });
    expect(desk.state.orders.get(order.id)).toBe(order);
    // Never in the book while it waits.
    expect(desk.state.engine(BTC).order(order.id)).toBeNull();
  };

  it('a stop-market sell waits off the book and triggers when the last trade reaches its stop, not before', () => {
    const stop = place('stops', { side: 'sell', type: 'stop_market', stopTicks: 490_000, quantityLots: 10 });
    waiting(stop);
    expect(desk.state.engine(BTC).depth(10).asks).toEqual([]);
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 480_000, quantityLots: 10 });
    print(490_100);
    waiting(stop);
    print(490_000);
    expect(stop).toMatchObject({ status: 'filled', triggered: true, filledLots: 10, filledCost: 4_800_000n });
    expect(desk.state.orders.has(stop.id)).toBe(false);
    expect(desk.state.position('stops', BTC).sizeLots).toBe(-10);
  });

  it('a stop-limit buy becomes a resting limit at its price once the last trade reaches its stop', () => {
    const stop = place('stops', {
      side: 'buy',
      type: 'stop_limit',
      stopTicks: 510_000,
      priceTicks: 511_000,
      quantityLots: 5,
    });
    print(509_900);
    waiting(stop);
    print(510_000);
    expect(stop).toMatchObject({ status: 'pending', triggered: true, priceTicks: 511_000, filledLots: 0 });
    expect(desk.state.engine(BTC).order(stop.id)).toMatchObject({ priceTicks: 511_000, remainingLots: 5 });
    expect(desk.state.engine(BTC).depth(1).bids).toMatchObject([{ priceTicks: 511_000, quantityLots: 5 }]);
  });

  it('a take-profit-market triggers on the favourable move: a sell on a rise to its stop, a buy on a fall', () => {
    const sell = place('stops', { side: 'sell', type: 'take_profit_market', stopTicks: 505_000, quantityLots: 3 });
    const buy = place('stops', { side: 'buy', type: 'take_profit_market', stopTicks: 495_000, quantityLots: 3 });
    print(504_900);
    print(495_100);
    waiting(sell);
    waiting(buy);
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 500_000, quantityLots: 3 });
    print(505_000);
    expect(sell).toMatchObject({ status: 'filled', triggered: true, filledCost: 1_500_000n });
    // Its trade left the last price at 500,000: not low enough for the buy.
    waiting(buy);
    place('bidder', { side: 'sell', type: 'limit', priceTicks: 500_000, quantityLots: 3 });
    print(495_000);
    expect(buy).toMatchObject({ status: 'filled', triggered: true, filledCost: 1_500_000n });
    expect(desk.state.position('stops', BTC).sizeLots).toBe(0);
  });

  it('triggers what one trade reaches in placement order, then what the triggered trades reach', () => {
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 480_000, quantityLots: 5 });
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 470_000, quantityLots: 5 });
    const first = place('stops', { side: 'sell', type: 'stop_market', stopTicks: 490_000, quantityLots: 5 });
    const second = place('stops', { side: 'sell', type: 'stop_market', stopTicks: 495_000, quantityLots: 5 });
    const third = place('stops', { side: 'sell', type: 'stop_market', stopTicks: 475_000, quantityLots: 5 });
    print(489_000);
    // Both reached at 489,000: the first placed sells first and gets the better bid, although the
    // second's stop was reached earlier on the way down.
    expect(first).toMatchObject({ status: 'filled', filledCost: 2_400_000n });
    expect(second).toMatchObject({ status: 'filled', filledCost: 2_350_000n });
    // Their trades took the last price to 470,000: the third triggers in the next round, finds no bid.
    expect(third).toMatchObject({ status: 'expired', triggered: true, filledLots: 0 });
    expect(desk.state.orders.size).toBe(0);
  });

  it('a triggered order that fails its margin check is rejected with a reason and changes nothing else', () => {
    const poor = desk.trader('poor', 500n);
    // A buy limit at 51,100 once the last trade reaches 51,000: at the 50,000 mark it reserves its
    // margin (255.50), fee and open loss (0.1 BTC x 1,100 = 110) out of 500.
    const stop = place(poor, {
      side: 'buy',
      type: 'stop_limit',
      stopTicks: 510_000,
      priceTicks: 511_000,
      quantityLots: 100,
    });
    expect(stop.orderMargin).toBeGreaterThan(0n);
    // The mark falls (no trade): at trigger the open loss is 0.1 x 5,100 = 510, more than the wallet.
    desk.marks[BTC] = 460_000;
    const wallet = { ...desk.state.wallet(poor) };
    const fund = desk.state.insuranceFund;
    const batches = desk.batches.length;
    print(510_000);
    expect(stop).toMatchObject({
      status: 'rejected',
      triggered: true,
      filledLots: 0,
      orderMargin: 0n,
      rejectReason: 'Order rejected at trigger: Insufficient margin',
    });
    expect(desk.state.orders.has(stop.id)).toBe(false);
    expect(desk.state.engine(BTC).order(stop.id)).toBeNull();
    expect(desk.state.engine(BTC).depth(5).bids).toEqual([]);
    expect(desk.state.wallet(poor)).toEqual(wallet);
    expect(desk.state.position(poor, BTC).sizeLots).toBe(0);
    expect(desk.state.insuranceFund).toBe(fund);
    const later = desk.batches.slice(batches);
    expect(later.flatMap((batch) => batch.fills).filter((fill) => fill.accountId === poor)).toEqual([]);
    expect(later.flatMap((batch) => batch.entries).some((entry) => JSON.stringify(entry).includes(poor))).toBe(false);
  });

  it('a reduce-only stop whose position a trigger before it closed is cancelled, never opens one', () => {
    place('maker', { side: 'sell', type: 'limit', priceTicks: 500_000, quantityLots: 10 });
    place('stops', { side: 'buy', type: 'market', quantityLots: 10 });
    const closing = place('stops', { side: 'sell', type: 'stop_market', stopTicks: 495_000, quantityLots: 10 });
    const reduceOnly = place('stops', {
      side: 'sell',
      type: 'stop_market',
      stopTicks: 490_000,
      quantityLots: 10,
      reduceOnly: true,
    });
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 480_000, quantityLots: 30 });
    print(489_000);
    // The stop placed first closed the long; the reduce-only one followed its position (cancelled).
    expect(closing).toMatchObject({ status: 'filled', filledLots: 10 });
    expect(reduceOnly).toMatchObject({ status: 'cancelled', triggered: false, filledLots: 0 });
    expect(desk.state.position('stops', BTC).sizeLots).toBe(0);
  });

  it('refuses a stop its market has already reached, and one outside the band, as the book did', () => {
    print(500_000);
    const reached = desk.place('stops', { side: 'sell', type: 'stop_market', stopTicks: 500_000, quantityLots: 1 });
    expect(reached).toMatchObject({ ok: false, code: 'ORDER_REJECTED', message: 'Stop price would trigger at once' });
    const far = desk.place('stops', { side: 'sell', type: 'stop_market', stopTicks: 200_000, quantityLots: 1 });
    expect(far).toMatchObject({ ok: false, code: 'INVALID_PRICE' });
    const ioc = desk.place('stops', {
      side: 'sell',
      type: 'stop_market',
      stopTicks: 490_000,
      quantityLots: 1,
      timeInForce: 'IOC',
    });
    expect(ioc).toMatchObject({ ok: false, code: 'ORDER_REJECTED' });
    expect(desk.state.orders.size).toBe(0);
  });

  it('a liquidation cancels the waiting stops of the position with its other orders; none triggers afterwards', () => {
    const victim = desk.trader('victim', 1_000n, 'isolated', 20);
    place('maker', { side: 'sell', type: 'limit', priceTicks: 500_000, quantityLots: 100 });
    place(victim, { side: 'buy', type: 'limit', priceTicks: 500_000, quantityLots: 100 });
    const stop = place(victim, {
      side: 'sell',
      type: 'stop_market',
      stopTicks: 470_000,
      quantityLots: 50,
      reduceOnly: true,
    });
    const takeProfit = place(victim, {
      side: 'sell',
      type: 'take_profit_market',
      stopTicks: 520_000,
      quantityLots: 50,
      reduceOnly: true,
    });
    place('bidder', { side: 'buy', type: 'limit', priceTicks: 477_000, quantityLots: 100 });
    desk.marks[BTC] = 477_000;
    const result = liquidate(desk.context(), { accountId: victim, marketId: BTC, marks: { [BTC]: 477_000 } });
    expect(result).toMatchObject({ ok: true, value: { status: 'closed' } });
    for (const order of [stop, takeProfit]) {
      expect(order).toMatchObject({ status: 'cancelled', triggered: false, filledLots: 0 });
      expect(desk.state.orders.has(order.id)).toBe(false);
    }
    print(469_000);
    expect(stop.status).toBe('cancelled');
    expect(desk.state.position(victim, BTC).sizeLots).toBe(0);
  });
});
