import type { PlaceOrderRequest } from '@platform/contracts';
import type { Logger } from '../../logger.ts';
import { ensureHouseAccount, HouseFunding, houseMarkets, MARKET_MAKER_ACCOUNT_ID } from './house-accounts.ts';
import { buildLadder, gridTicks, type LadderLevel, marketProfile } from './market-profile.ts';
import type { OrderState } from './order-state.ts';
import { priceText, quantityText } from './pair-spec.ts';
import type { CommandOutcome, MarketSequencer } from './sequencer.ts';
import { orderFromRequest, referenceTicks, type TradingDeps } from './service.ts';

export { MARKET_MAKER_ACCOUNT_ID } from './house-accounts.ts';

export interface MarketMakerOptions {
  levels: number;
  /** The busiest markets are requoted this often; quieter ones less often (by their activity). */
  refreshMs: number;
  /** Only these pairs (tests); all tradable pairs when empty. */
  pairs: string[];
  /** The simulator's seed: level sizes are drawn from it. */
  seed: string;
  log: Logger;
}

/**
 * How often the scheduler looks for markets that are due. Coarse on purpose: every market due in
 * the same second is requoted in the same turn, so their batches share one write (the database
 * statement, not the matching, is what a command costs).
 */
const TICK_MS = 1_000;
/** The quietest markets are still requoted this often. */
const MAX_REFRESH_MS = 30_000;
/** Balances are checked (and topped up) this often. */

type MarketState = { grid: number; nextAt: number; lastReference: number; busy: boolean; intervalMs: number };

/**
 * Market-making bots (ARCHITECTURE.md decision 6): on embedded defaults every active pair shows a
 * full, moving book. One house account (funded through the ledger from the system market_making
 * account) quotes a ladder of levels a side around the reference price (market-profile.ts), and
 * requotes each market when it is due (the busiest every refreshMs, quiet ones less often). A
 * requote changes only the levels that moved: a level no longer wanted is amended to a wanted price
 * (one modify, the order keeps its id), the rest are cancelled or placed, and all of a market's
 * commands go to its sequencer in the same turn, so they form one batch and one write. It trades
 * through the same order path as everyone (holds, fees, journal), with self-trade prevention
 * 'cancel_oldest' so that a new quote replaces a stale one of its own.
 */
export class MarketMaker {
  private timer: NodeJS.Timeout | null = null;
  private readonly state = new Map<string, MarketState>();
  private stopped = false;
  private inFlight = new Set<Promise<unknown>>();
  private readonly funding: HouseFunding;

  constructor(
    private readonly deps: TradingDeps,
    private readonly options: MarketMakerOptions,
  ) {
    this.funding = new HouseFunding(
      deps.db,
      MARKET_MAKER_ACCOUNT_ID,
      () => this.markets(),
      deps.clock,
      (error: unknown) => options.log.warn({ err: error }, 'market maker funding failed'),
    );
  }

  async start(): Promise<void> {
    await ensureHouseAccount(this.deps.db, MARKET_MAKER_ACCOUNT_ID, this.deps.clock());
    await this.funding.fund();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight, this.funding.settled()]);
  }

  markets(): MarketSequencer[] {
    return houseMarkets(this.deps.exchange, this.options.pairs);
  }

  /** Requotes every market that is due (each at most one requote in flight). */
  tick(): void {
    if (this.stopped) return;
    const now = this.deps.clock().getTime();
    this.funding.checkWhenDue();
    for (const market of this.markets()) {
      const state = this.stateOf(market);
      if (state.busy || now < state.nextAt) continue;
      state.nextAt = now + state.intervalMs;
      state.busy = true;
      const run = this.quote(market)
        .catch((error: unknown) => this.options.log.warn({ err: error, pair: market.spec.id }, 'market maker failed'))
        .finally(() => {
          state.busy = false;
          this.inFlight.delete(run);
        });
      this.inFlight.add(run);
    }
  }

  private stateOf(market: MarketSequencer): MarketState {
    let state = this.state.get(market.spec.id);
    if (!state) {
      const activity = marketProfile(market.spec).activity;
      // Quiet markets are requoted less often (refreshMs / activity, at most every 30 s): every
      // command is a database write, and a quote nobody trades against need not follow every tick.
      const intervalMs = Math.round(Math.min(MAX_REFRESH_MS, this.options.refreshMs / activity));
      state = { grid: 0, nextAt: 0, lastReference: 0, busy: false, intervalMs };
      this.state.set(market.spec.id, state);
    }
    return state;
  }

  /** The ladder the maker wants on a market now (null without a reference price). */
  wantedLadder(market: MarketSequencer): LadderLevel[] | null {
    const spec = market.spec;
    const reference = referenceTicks(this.deps, spec);
    if (reference === null) return null;
    const state = this.stateOf(market);
    const profile = marketProfile(spec);
    if (state.grid === 0) state.grid = gridTicks(profile, reference);
    state.lastReference = reference;
    return buildLadder(spec, reference, {
      profile,
      levels: this.options.levels,
      grid: state.grid,
      seed: this.options.seed,
    });
  }

  /**
   * Brings one market's quotes to the wanted ladder, changing only what moved. The side moving
   * away from the other goes first, so a level never crosses a stale quote of the other side.
   */
  async quote(market: MarketSequencer): Promise<void> {
    const previous = this.stateOf(market).lastReference;
    const ladder = this.wantedLadder(market);
    if (ladder === null) return;
    const rising = this.stateOf(market).lastReference >= previous;
    const mine = [...market.orders.values()].filter(
      (order) => order.accountId === MARKET_MAKER_ACCOUNT_ID && order.priceTicks !== null,
    );
    const commands: Promise<CommandOutcome>[] = [];
    for (const side of rising ? (['sell', 'buy'] as const) : (['buy', 'sell'] as const)) {
      const wanted = ladder.filter((level) => level.side === side);
      const held = mine.filter((order) => order.side === side);
      commands.push(...this.requoteSide(market, wanted, held));
    }
    if (commands.length === 0) return;
    const outcomes = await Promise.allSettled(commands);
    const refused = outcomes.some(
      (outcome) =>
        outcome.status === 'fulfilled' &&
        outcome.value.status === 'rejected' &&
        outcome.value.reason === 'insufficient_balance',
    );
    if (refused) this.funding.afterRefusal();
  }

  /** Amends stale quotes to missing levels (nearest the touch first), cancels or places the rest. */
  private requoteSide(market: MarketSequencer, wanted: LadderLevel[], held: OrderState[]): Promise<CommandOutcome>[] {
    const wantedPrices = new Set(wanted.map((level) => level.priceTicks));
    const heldPrices = new Set(held.map((order) => order.priceTicks));
    const stale = held.filter((order) => !wantedPrices.has(order.priceTicks!));
    const missing = wanted.filter((level) => !heldPrices.has(level.priceTicks));
    const towardTouch = (a: number, b: number) => (wanted[0]?.side === 'buy' ? b - a : a - b);
    stale.sort((a, b) => towardTouch(a.priceTicks!, b.priceTicks!));
    const commands: Promise<CommandOutcome>[] = [];
    const pairs = Math.min(stale.length, missing.length);
    for (let index = 0; index < pairs; index++) commands.push(this.amend(market, stale[index]!, missing[index]!));
    for (const order of stale.slice(pairs)) commands.push(market.cancel(order.id, MARKET_MAKER_ACCOUNT_ID));
    for (const level of missing.slice(pairs)) {
      const placed = this.place(market, level);
      if (placed) commands.push(placed);
    }
    return commands;
  }

  private amend(market: MarketSequencer, order: OrderState, level: LadderLevel): Promise<CommandOutcome> {
    const spec = market.spec;
    const quantityLots = order.filledLots + level.lots;
    return market.modify({
      orderId: order.id,
      accountId: MARKET_MAKER_ACCOUNT_ID,
      quantityLots: quantityLots > spec.maxLots ? null : quantityLots,
      priceTicks: level.priceTicks,
      stopPriceTicks: null,
      referenceTicks: this.stateOf(market).lastReference,
    });
  }

  private place(market: MarketSequencer, level: LadderLevel): Promise<CommandOutcome> | null {
    const spec = market.spec;
    const request: PlaceOrderRequest = {
      trading_pair: spec.id,
      side: level.side,
      type: 'limit',
      price: priceText(spec, level.priceTicks),
      quantity: quantityText(spec, level.lots),
      time_in_force: 'GTC',
      self_trade_prevention: 'cancel_oldest',
    };
    const built = orderFromRequest(this.deps, MARKET_MAKER_ACCOUNT_ID, market, request, this.deps.clock());
    if (!built.ok) {
      this.options.log.debug({ code: built.code, details: built.details, pair: spec.id }, 'market maker quote refused');
      return null;
    }
    try {
      return market.place(built.value);
    } catch (error) {
      this.options.log.debug({ err: error, pair: spec.id }, 'market maker quote refused');
      return null;
    }
  }
}
