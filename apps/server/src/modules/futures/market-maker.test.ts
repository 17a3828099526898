import type { PlaceFuturesOrderRequest } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { MARKET_MAKER_ACCOUNT_ID } from '../trading/house-accounts.ts';
import {
  createPerpMarketMaker,
  type MakerOpenOrder,
  type MakerPlaceOutcome,
  type PerpMakerMarket,
  type PerpMarketMakerDeps,
} from './market-maker.ts';

const BTC: PerpMakerMarket = {
  id: 'BTC_USD_PERP',
  base: 'BTC',
  priceDecimals: 1,
  quantityDecimals: 3,
  minLots: 1,
  maxLots: 1_000_000,
};
const silent = { warn: () => {}, debug: () => {} };

type HeldOrder = MakerOpenOrder & { accountId: string; quantity: string };

/** An order entry in memory: it keeps what was placed and not cancelled. */
function fakeOrderEntry(refuse: () => string | null = () => null) {
  const open: HeldOrder[] = [];
  const log: string[] = [];
  return {
    open,
    log,
    entry: {
      async placeOrder(accountId: string, request: PlaceFuturesOrderRequest): Promise<MakerPlaceOutcome> {
        const code = refuse();
        if (code) return { ok: false, code };
        log.push(`place ${request.side} ${request.price}`);
        open.push({
          id: crypto.randomUUID(),
          accountId,
          side: request.side,
          price: String(request.price),
          quantity: String(request.quantity),
        });
        return { ok: true };
      },
      async cancelOrder(_accountId: string, orderId: string) {
        const index = open.findIndex((order) => order.id === orderId);
        log.push(`cancel ${open[index]?.side} ${open[index]?.price}`);
        if (index >= 0) open.splice(index, 1);
      },
      openOrders: (accountId: string, marketId: string) =>
        open.filter((order) => order.accountId === accountId && marketId === BTC.id),
    },
  };
}

function setup(overrides: Partial<PerpMarketMakerDeps> = {}, refuse?: () => string | null) {
  const nowMs = Date.UTC(2026, 0, 5, 9);
  let mark: { markTicks: number | null; indexTicks: number | null } | null = {
    markTicks: 600_000,
    indexTicks: 600_000,
  };
  const orders = fakeOrderEntry(refuse);
  const funded: { accountId: string; target: bigint }[] = [];
  const maker = createPerpMarketMaker({
    markets: () => [BTC],
    marks: { mark: () => mark },
    orders: orders.entry,
    fundHouse: async (accountId, target) => {
      funded.push({ accountId, target });
    },
    clock: () => new Date(nowMs),
    log: silent,
    enabled: true,
    levels: 3,
    refreshMs: 2_000,
    seed: 'meridian',
    ...overrides,
  });
  const side = (wanted: 'buy' | 'sell') =>
    orders.open
      .filter((order) => order.side === wanted)
      .map((order) => Number(order.price))
      .sort((a, b) => (wanted === 'buy' ? b - a : a - b));
  return {
    maker,
    orders,
    funded,
    side,
    setMark: (next: typeof mark) => {
      mark = next;
    },
  };
}

describe('perpetual market maker', () => {
  it('places a two-sided ladder around the mark from the funded house account', async () => {
    const { maker, orders, funded, side } = setup();
    await maker.start();
    await maker.stop();
    expect(funded).toEqual([{ accountId: MARKET_MAKER_ACCOUNT_ID, target: 20_000_000n * 100_000_000n }]);
    const bids = side('buy');
    const asks = side('sell');
    expect(bids).toHaveLength(3);
    expect(asks).toHaveLength(3);
    expect(bids[0]).toBeLessThan(60_000);
    expect(asks[0]).toBeGreaterThan(60_000);
    // BTC is a major with a spread of a tick or so at the touch.
    expect(asks[0]! - bids[0]!).toBeLessThanOrEqual(0.2);
    expect(orders.open.every((order) => order.accountId === MARKET_MAKER_ACCOUNT_ID)).toBe(true);
    expect(orders.open.every((order) => Number(order.quantity) > 0)).toBe(true);
  });

  it('requotes when the mark moves: stale levels cancelled, the ladder around the new mark', async () => {
    const { maker, orders, side, setMark } = setup();
    await maker.quote(BTC.id);
    setMark({ markTicks: 612_000, indexTicks: 600_000 });
    orders.log.length = 0;
    await maker.quote(BTC.id);
    const bids = side('buy');
    const asks = side('sell');
    expect(bids).toHaveLength(3);
    expect(asks).toHaveLength(3);
    expect(bids[0]).toBeLessThan(61_200);
    expect(bids[0]).toBeGreaterThan(61_100);
    expect(asks[0]).toBeGreaterThan(61_200);
    // Every cancel comes before every place: a new quote never meets a stale one of its own.
    const firstPlace = orders.log.findIndex((entry) => entry.startsWith('place'));
    expect(orders.log.slice(firstPlace).some((entry) => entry.startsWith('cancel'))).toBe(false);
    expect(orders.log.filter((entry) => entry.startsWith('cancel'))).toHaveLength(6);
  });

  it('changes nothing when the mark has not moved', async () => {
    const { maker, orders } = setup();
    await maker.quote(BTC.id);
    orders.log.length = 0;
    await maker.quote(BTC.id);
    expect(orders.log).toEqual([]);
  });

  it('quotes around the index before the first mark, and not at all without either', async () => {
    const { maker, orders, side, setMark } = setup();
    setMark(null);
    await maker.quote(BTC.id);
    expect(orders.open).toEqual([]);
    setMark({ markTicks: null, indexTicks: 500_000 });
    await maker.quote(BTC.id);
    expect(side('buy')[0]).toBeLessThan(50_000);
    expect(side('sell')[0]).toBeGreaterThan(50_000);
  });

  it('draws the same sizes from the same seed, other ones from another', () => {
    const sizes = (seed: string) =>
      setup({ seed })
        .maker.wantedLadder(BTC.id)!
        .map((level) => level.lots);
    expect(sizes('meridian')).toEqual(sizes('meridian'));
    expect(sizes('meridian')).not.toEqual(sizes('another'));
  });

  it('is off when disabled', async () => {
    const { maker, orders, funded } = setup({ enabled: false });
    await maker.start();
    maker.tick();
    await maker.stop();
    expect(orders.open).toEqual([]);
    expect(funded).toEqual([]);
  });

  it('tops the house up at once after a refusal for want of margin', async () => {
    const { maker, funded } = setup({}, () => 'INSUFFICIENT_MARGIN');
    await maker.quote(BTC.id);
    await maker.stop();
    expect(funded).toHaveLength(1);
  });
});
