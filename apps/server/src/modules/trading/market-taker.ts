import type { PlaceOrderRequest } from '@platform/contracts';
import { hashSeed, Random } from '../../adapters/prices/simulator.ts';
import type { Logger } from '../../logger.ts';
import { ensureHouseAccount, HouseFunding, houseMarkets, MARKET_TAKER_ACCOUNT_ID } from './house-accounts.ts';
import { lotsForUsd, marketProfile, nextTakerOrder } from './market-profile.ts';
import { quantityText } from './pair-spec.ts';
import type { MarketSequencer } from './sequencer.ts';
import { orderFromRequest, type TradingDeps } from './service.ts';

export interface MarketTakerOptions {
  /** Mean taker orders a minute on the busiest markets; quieter ones get their activity's share. */
  perMinute: number;
  /** Only these pairs (tests); all tradable pairs when empty. */
  pairs: string[];
  seed: string;
  log: Logger;
}

/** Orders due in the same half second go out together (one write); each keeps its drawn time order. */
const TICK_MS = 500;

type TakerState = { random: Random; nextAt: number; perMinute: number; levelUsd: number };
export type TakerOrder = { pairId: string; side: 'buy' | 'sell'; lots: number; atMs: number };

/**
 * Simulated takers: market orders (IOC) against the books at a realistic pace, so that a fresh
 * install prints trades, and its candles and 24 h volumes come from trades on our books. Each
 * market has its own seeded PRNG (seed, pair): arrivals are a Poisson process in clock time, with
 * even odds of side and log-uniform sizes (market-profile.ts), so the same seed and clock give the
 * same orders. A market is skipped while the side it would take is empty (no maker quotes).
 */
export class MarketTaker {
  private timer: NodeJS.Timeout | null = null;
  private readonly state = new Map<string, TakerState>();
  private stopped = false;
  private inFlight = new Set<Promise<unknown>>();
  private readonly funding: HouseFunding;

  constructor(
    private readonly deps: TradingDeps,
    private readonly options: MarketTakerOptions,
  ) {
    this.funding = new HouseFunding(
      deps.db,
      MARKET_TAKER_ACCOUNT_ID,
      () => this.markets(),
      deps.clock,
      (error: unknown) => options.log.warn({ err: error }, 'market taker funding failed'),
    );
  }

  async start(): Promise<void> {
    await ensureHouseAccount(this.deps.db, MARKET_TAKER_ACCOUNT_ID, this.deps.clock());
    await this.funding.fund();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight, this.funding.settled()]);
  }

  private markets(): MarketSequencer[] {
    return houseMarkets(this.deps.exchange, this.options.pairs);
  }

  /** The orders due by nowMs on one market, drawn in order from its PRNG (pure given the state). */
  due(market: MarketSequencer, nowMs: number): TakerOrder[] {
    const state = this.stateOf(market, nowMs);
    const orders: TakerOrder[] = [];
    while (state.nextAt <= nowMs) {
      const atMs = state.nextAt;
      const next = nextTakerOrder(state.random, state.perMinute, state.levelUsd);
      // The draw that schedules the next arrival also says what this one trades.
      orders.push({ pairId: market.spec.id, side: next.side, lots: lotsForUsd(market.spec, next.usd), atMs });
      state.nextAt = atMs + next.waitMs;
    }
    return orders;
  }

  private stateOf(market: MarketSequencer, nowMs: number): TakerState {
    let state = this.state.get(market.spec.id);
    if (!state) {
      const profile = marketProfile(market.spec);
      const random = new Random(hashSeed(`${this.options.seed}:${market.spec.id}:taker`));
      const perMinute = this.options.perMinute * profile.activity;
      const first = nextTakerOrder(random, perMinute, profile.levelUsd);
      state = { random, nextAt: nowMs + first.waitMs, perMinute, levelUsd: profile.levelUsd };
      this.state.set(market.spec.id, state);
    }
    return state;
  }

  tick(): void {
    if (this.stopped) return;
    const now = this.deps.clock().getTime();
    this.funding.checkWhenDue();
    for (const market of this.markets()) {
      for (const order of this.due(market, now)) this.send(market, order);
    }
  }

  private send(market: MarketSequencer, order: TakerOrder): void {
    const spec = market.spec;
    const opposite = order.side === 'buy' ? market.engine.bestAsk() : market.engine.bestBid();
    if (opposite === null) return;
    const request: PlaceOrderRequest = {
      trading_pair: spec.id,
      side: order.side,
      type: 'market',
      quantity: quantityText(spec, order.lots),
      time_in_force: 'IOC',
    };
    const built = orderFromRequest(this.deps, MARKET_TAKER_ACCOUNT_ID, market, request, this.deps.clock());
    if (!built.ok) {
      this.options.log.debug({ code: built.code, details: built.details, pair: spec.id }, 'market taker order refused');
      return;
    }
    let run: Promise<unknown>;
    try {
      run = market.place(built.value).then((outcome) => {
        if (outcome.status === 'rejected' && outcome.reason === 'insufficient_balance') this.funding.afterRefusal();
      });
    } catch (error) {
      this.options.log.debug({ err: error, pair: spec.id }, 'market taker order refused');
      return;
    }
    const tracked = run
      .catch((error: unknown) => this.options.log.warn({ err: error, pair: spec.id }, 'market taker failed'))
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
}
