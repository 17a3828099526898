import { randomUUID } from 'node:crypto';
import { perp } from '@platform/engine';
import { Batch } from './batch.ts';
import type { DecideContext } from './context.ts';
import { type FuturesMarketSpec, futuresMarketSpecs } from './markets.ts';
import { checkOrder, enterOrder, newOrder } from './orders.ts';
import type { ParsedOrder } from './parse.ts';
import { FuturesState } from './state.ts';
import { triggerOrders } from './triggers.ts';
import { followMoved } from './upkeep.ts';

export const BTC = 'BTC_USD_PERP';
/** BTC: price ticks of 0.1 USD, lots of 0.001 BTC; a tick x lot is 10^-4 USD = 10,000 money units. */
export const USD = perp.MONEY_SCALE;

/**
 * An exchange state with nothing around it: decide functions run on it as the core runs them, and
 * every batch's ledger entries are kept, so that a test can sum the ledger by owner.
 */
export class Desk {
  readonly markets: ReadonlyMap<string, FuturesMarketSpec>;
  readonly state: FuturesState;
  readonly marks: Record<string, number> = {};
  readonly batches: Batch[] = [];

  constructor() {
    this.markets = new Map(futuresMarketSpecs().map((spec) => [spec.id, spec]));
    this.state = new FuturesState(this.markets, 5_000);
  }

  get btc(): FuturesMarketSpec {
    return this.markets.get(BTC)!;
  }

  /** A context for one command, its batch kept. */
  context(): DecideContext {
    const batch = new Batch();
    this.batches.push(batch);
    const state = this.state;
    return {
      state,
      batch,
      now: new Date(0),
      markOf: (id) => this.marks[id] ?? null,
      bandBps: 5_000,
      nextSequence: () => ++state.sequence,
      moved: new Set(),
      newId: () => randomUUID(),
    };
  }

  /** A trader whose futures wallet holds `usd` (credited from outside: tracked as the `deposits` owner). */
  trader(id: string, usd: bigint, mode: 'cross' | 'isolated' = 'cross', leverage = 20): string {
    this.state.wallets.set(id, { available: usd * USD, locked: 0n });
    this.initial.set(id, usd * USD);
    const setting = this.state.setting(id, BTC);
    setting.mode = mode;
    setting.leverage = leverage;
    return id;
  }
  /** What each trader's wallet started with (credited outside the batches). */
  readonly initial = new Map<string, bigint>();

  /**
   * A BTC order as the core runs a place command: checked, entered, then the positions it moved
   * followed and the stop triggers run (upkeep.ts, triggers.ts). Answers the refusal instead of
   * throwing.
   */
  place(accountId: string, order: Partial<ParsedOrder> & Pick<ParsedOrder, 'side' | 'type'>) {
    const ctx = this.context();
    const parsed: ParsedOrder = {
      marketId: BTC,
      timeInForce: order.type === 'market' ? 'IOC' : 'GTC',
      postOnly: false,
      reduceOnly: false,
      closePosition: false,
      priceTicks: null,
      stopTicks: null,
      takeProfitTicks: null,
      stopLossTicks: null,
      clientOrderId: null,
      quantityLots: null,
      ...order,
    };
    const checked = checkOrder(ctx, accountId, parsed);
    const entered = checked.ok ? enterOrder(ctx, this.btc, newOrder(ctx, accountId, checked.value, 'user')) : checked;
    followMoved(ctx);
    triggerOrders(ctx);
    return entered;
  }

  /** A BTC limit order (price in ticks, size in lots) through the pre-trade check and the book. */
  order(accountId: string, side: 'buy' | 'sell', priceTicks: number, lots: number, extra: Partial<ParsedOrder> = {}) {
    const ctx = this.context();
    const parsed: ParsedOrder = {
      marketId: BTC,
      side,
      type: 'limit',
      timeInForce: 'GTC',
      postOnly: false,
      reduceOnly: false,
      closePosition: false,
      priceTicks,
      stopTicks: null,
      takeProfitTicks: null,
      stopLossTicks: null,
      clientOrderId: null,
      quantityLots: lots,
      ...extra,
    };
    const checked = checkOrder(ctx, accountId, parsed);
    if (!checked.ok) throw new Error(`order refused: ${checked.code}`);
    const entered = enterOrder(ctx, this.btc, newOrder(ctx, accountId, checked.value, 'user'));
    if (!entered.ok) throw new Error(`order rejected: ${entered.code}`);
    return entered.value;
  }

  /** Σ of every posting by owner and bucket, money units (the ledger as the batches wrote it). */
  ledger(): Map<string, bigint> {
    const sums = new Map<string, bigint>();
    for (const batch of this.batches) {
      for (const entry of batch.entries) {
        let total = 0n;
        for (const posting of entry.postings) {
          const owner =
            posting.owner.kind === 'system' ? posting.owner.name : `${posting.owner.kind}:${posting.owner.accountId}`;
          const key = `${owner}:${posting.bucket}`;
          const amount = perp.decimalToMoney(posting.amount)!;
          total += amount;
          sums.set(key, (sums.get(key) ?? 0n) + amount);
        }
        if (total !== 0n) throw new Error(`unbalanced entry ${entry.kind} ${entry.reference}`);
      }
    }
    return sums;
  }

  /** The insurance fund as the ledger has it. */
  fund(): bigint {
    return this.ledger().get('insurance_fund:available') ?? 0n;
  }

  /** Puts money in the insurance fund (as if earlier liquidations had). */
  seedFund(usd: bigint): void {
    this.state.insuranceFund += usd * USD;
    this.seeded += usd * USD;
  }
  seeded = 0n;
}
