import type { PlaceFuturesOrderRequest } from '@platform/contracts';
import { perp } from '@platform/engine';
import { formatDecimal, zero } from '@platform/money';
import { MARKET_MAKER_ACCOUNT_ID } from '../trading/house-accounts.ts';
import { buildLadder, gridTicks, type LadderLevel, marketProfile } from '../trading/market-profile.ts';
import type { PairSpec } from '../trading/pair-spec.ts';
import { priceTextToTicks } from './marks.ts';

/**
 * Perpetual market makers, as spot's (modules/trading/market-maker.ts): one house account quotes a
 * ladder of `levels` a side on every perpetual book, with spot's own pure rules (market-profile.ts:
 * the market's profile by its base coin, the touch at half the spread, the deeper levels on a fixed
 * grid, level sizes drawn from SIMULATOR_SEED, the market id, side and price), around the MARK
 * price (the index before the first mark), never the last trade. Each market is requoted when due
 * (the busiest every refreshMs, quiet ones less often, at most every 30 s): levels no longer
 * wanted are cancelled first, then the missing ones placed, so a new quote never meets a stale one
 * of its own. Orders go through the same futures order entry as everyone's (margin, fees,
 * journal), from the house account's futures wallet, which `fundHouse` keeps funded: at start,
 * once a minute, and at once after an order refused for want of margin. Off when disabled
 * (MARKET_MAKER_ENABLED=false, the default in tests).
 *
 * Spot amends a stale level with one modify; the futures order entry here offers place and cancel
 * only, so a moved level is a cancel and a place.
 */

/** What the maker needs of a perpetual market. */
export interface PerpMakerMarket {
  id: string;
  base: string;
  priceDecimals: number;
  quantityDecimals: number;
  /** Smallest and largest order, lots. */
  minLots: number;
  maxLots: number;
}

/** An open order as the order entry lists it (a FuturesOrder has these fields). */
export interface MakerOpenOrder {
  id: string;
  side: 'buy' | 'sell';
  price: string | null;
}

/** What placing an order answered: a lib/errors Result fits. */
export type MakerPlaceOutcome = { ok: true } | { ok: false; code: string; message?: string };

export interface PerpOrderEntry {
  placeOrder(accountId: string, request: PlaceFuturesOrderRequest): Promise<MakerPlaceOutcome>;
  cancelOrder(accountId: string, orderId: string): Promise<unknown>;
  openOrders(accountId: string, marketId: string): Promise<readonly MakerOpenOrder[]> | readonly MakerOpenOrder[];
}

export interface PerpMarketMakerDeps {
  markets: () => readonly PerpMakerMarket[];
  /** The futures marks: the ladder is centred on markTicks, or indexTicks before the first mark. */
  marks: { mark(marketId: string): { markTicks: number | null; indexTicks: number | null } | null };
  orders: PerpOrderEntry;
  /** Tops the house account's futures wallet up to `target` (money, 10^-8 USD) when it holds less than half of it. */
  fundHouse: (accountId: string, target: bigint) => Promise<void>;
  clock: () => Date;
  log: {
    warn(details: object, message: string): void;
    debug(details: object, message: string): void;
  };
  /** MARKET_MAKER_ENABLED. */
  enabled: boolean;
  /** MARKET_MAKER_LEVELS. */
  levels: number;
  /** MARKET_MAKER_REFRESH_MS: the busiest markets are requoted this often. */
  refreshMs: number;
  /** SIMULATOR_SEED: level sizes are drawn from it. */
  seed: string;
  /** Only these market ids; all when empty or absent. */
  only?: readonly string[];
  /** The house account; the spot maker's by default (its futures wallet is its own ledger owner). */
  accountId?: string;
  /** The futures wallet is kept at this much (money); 20 million USD by default, as spot. */
  fundingTarget?: bigint;
}

export interface PerpMarketMaker {
  readonly accountId: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Requotes every market that is due (the timer calls it every second). */
  tick(): void;
  /** Brings one market's quotes to the wanted ladder now. */
  quote(marketId: string): Promise<void>;
  /** The ladder wanted on a market now; null without a mark or index. */
  wantedLadder(marketId: string): LadderLevel[] | null;
}

const TICK_MS = 1_000;
const MAX_REFRESH_MS = 30_000;
const FUNDING_CHECK_MS = 60_000;
const DEFAULT_FUNDING_TARGET = 20_000_000n * perp.MONEY_SCALE;

type MarketState = { grid: number; nextAt: number; busy: boolean; intervalMs: number };

/** The spot pair spec a perpetual's ladder is built with (the ladder reads id, base, quote, lots). */
export function ladderSpec(market: PerpMakerMarket): PairSpec {
  return {
    id: market.id,
    base: market.base,
    quote: 'USD',
    symbol: `${market.base}/USD`,
    pricePrecision: market.priceDecimals,
    quantityPrecision: market.quantityDecimals,
    minLots: market.minLots,
    maxLots: market.maxLots,
    minQuantity: formatDecimal({ units: BigInt(market.minLots), scale: market.quantityDecimals }),
    maxQuantity: formatDecimal({ units: BigInt(market.maxLots), scale: market.quantityDecimals }),
    makerFeePercent: zero(),
    takerFeePercent: zero(),
    tradable: true,
  };
}

export function createPerpMarketMaker(deps: PerpMarketMakerDeps): PerpMarketMaker {
  const accountId = deps.accountId ?? MARKET_MAKER_ACCOUNT_ID;
  const states = new Map<string, MarketState>();
  const inFlight = new Set<Promise<unknown>>();
  const funding = houseFunding(deps, accountId);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const markets = () => {
    const only = new Set(deps.only ?? []);
    return deps.markets().filter((market) => only.size === 0 || only.has(market.id));
  };
  const marketOf = (marketId: string) => markets().find((market) => market.id === marketId);
  const stateOf = (market: PerpMakerMarket): MarketState => {
    let state = states.get(market.id);
    if (!state) {
      const activity = marketProfile({ base: market.base, quote: 'USD' }).activity;
      const intervalMs = Math.round(Math.min(MAX_REFRESH_MS, deps.refreshMs / activity));
      state = { grid: 0, nextAt: 0, busy: false, intervalMs };
      states.set(market.id, state);
    }
    return state;
  };

  const wantedLadder = (marketId: string): LadderLevel[] | null => {
    const market = marketOf(marketId);
    const snapshot = market ? deps.marks.mark(market.id) : null;
    const reference = snapshot ? (snapshot.markTicks ?? snapshot.indexTicks) : null;
    if (!market || reference === null) return null;
    const spec = ladderSpec(market);
    const profile = marketProfile(spec);
    const state = stateOf(market);
    if (state.grid === 0) state.grid = gridTicks(profile, reference);
    return buildLadder(spec, reference, { profile, levels: deps.levels, grid: state.grid, seed: deps.seed });
  };

  const quote = async (marketId: string): Promise<void> => {
    const market = marketOf(marketId);
    const ladder = wantedLadder(marketId);
    if (!market || ladder === null) return;
    if (await applyLadder(deps, accountId, market, ladder)) void funding.now();
  };

  const tick = (): void => {
    if (stopped || !deps.enabled) return;
    const now = deps.clock().getTime();
    funding.whenDue(now);
    for (const market of markets()) {
      const state = stateOf(market);
      if (state.busy || now < state.nextAt) continue;
      state.nextAt = now + state.intervalMs;
      state.busy = true;
      const run = quote(market.id)
        .catch((error: unknown) => deps.log.warn({ err: error, market: market.id }, 'perp market maker failed'))
        .finally(() => {
          state.busy = false;
          inFlight.delete(run);
        });
      inFlight.add(run);
    }
  };

  return {
    accountId,
    tick,
    quote,
    wantedLadder,
    async start() {
      if (!deps.enabled || timer) return;
      await funding.now();
      timer = setInterval(tick, TICK_MS);
      timer.unref();
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...inFlight, funding.settled()]);
    },
  };
}

/**
 * Cancels the held quotes no level wants, then places the missing levels; true when an order was
 * refused for want of margin (the house needs a top-up).
 */
async function applyLadder(
  deps: PerpMarketMakerDeps,
  accountId: string,
  market: PerpMakerMarket,
  ladder: readonly LadderLevel[],
): Promise<boolean> {
  const held = await deps.orders.openOrders(accountId, market.id);
  const { stale, missing } = ladderChanges(market, ladder, held);
  await Promise.allSettled(stale.map((orderId) => deps.orders.cancelOrder(accountId, orderId)));
  const outcomes = await Promise.allSettled(
    missing.map((level) => deps.orders.placeOrder(accountId, quoteRequest(market, level))),
  );
  let refusedForMargin = false;
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      deps.log.debug({ err: outcome.reason, market: market.id }, 'perp quote failed');
    } else if (!outcome.value.ok) {
      deps.log.debug({ code: outcome.value.code, market: market.id }, 'perp quote refused');
      if (outcome.value.code === 'INSUFFICIENT_MARGIN') refusedForMargin = true;
    }
  }
  return refusedForMargin;
}

/**
 * What to change on one market: the held orders whose price no level wants (and extra orders at a
 * wanted price), and the wanted levels no held order stands at.
 */
export function ladderChanges(
  market: PerpMakerMarket,
  ladder: readonly LadderLevel[],
  held: readonly MakerOpenOrder[],
): { stale: string[]; missing: LadderLevel[] } {
  const key = (side: string, ticks: number | null) => `${side}:${ticks}`;
  const wanted = new Set(ladder.map((level) => key(level.side, level.priceTicks)));
  const covered = new Set<string>();
  const stale: string[] = [];
  for (const order of held) {
    const ticks = order.price === null ? null : priceTextToTicks(order.price, market.priceDecimals);
    const at = key(order.side, ticks);
    if (ticks === null || !wanted.has(at) || covered.has(at)) stale.push(order.id);
    else covered.add(at);
  }
  const missing = ladder.filter((level) => !covered.has(key(level.side, level.priceTicks)));
  return { stale, missing };
}

/** A maker quote: a GTC limit order at the level, never reduce-only. */
export function quoteRequest(market: PerpMakerMarket, level: LadderLevel): PlaceFuturesOrderRequest {
  return {
    market: market.id,
    side: level.side,
    type: 'limit',
    price: formatDecimal({ units: BigInt(level.priceTicks), scale: market.priceDecimals }),
    quantity: formatDecimal({ units: BigInt(level.lots), scale: market.quantityDecimals }),
    time_in_force: 'GTC',
  };
}

/** Keeps the house futures wallet funded: on demand, once a minute, never two top-ups at a time. */
function houseFunding(deps: PerpMarketMakerDeps, accountId: string) {
  const target = deps.fundingTarget ?? DEFAULT_FUNDING_TARGET;
  let checkedAtMs = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  const now = (): Promise<void> => {
    if (running) return running;
    checkedAtMs = deps.clock().getTime();
    running = deps
      .fundHouse(accountId, target)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'perp market maker funding failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    now,
    whenDue(nowMs: number) {
      if (nowMs - checkedAtMs >= FUNDING_CHECK_MS) void now();
    },
    settled: () => running ?? Promise.resolve(),
  };
}
