import type { MarketEngine, MarketEvent } from '@platform/engine';
import { invariant } from '../../lib/invariant.ts';
import type { PostingInput } from '../ledger/service.ts';
import type { BatchEffects } from './batch-effects.ts';
import type { Job } from './jobs.ts';
import { type OrderState, requiredReserve } from './order-state.ts';
import { atomsText, feeAtoms, lotsToAtoms, notionalAtoms, type PairSpec } from './pair-spec.ts';

/** What settling a market's events reads: the market's rules, engine and open orders. */
export interface MarketState {
  readonly spec: PairSpec;
  readonly engine: MarketEngine;
  readonly orders: Map<string, OrderState>;
  readonly bandBps: number;
}

/** The system ledger account that collects a market's fees: fees_btc_usd. */
export function feeAccountName(pairId: string): string {
  return `fees_${pairId.toLowerCase()}`;
}

/** What an open order must hold for its open part as it stands. */
function neededHold(market: MarketState, order: OrderState): bigint {
  const openLots = (order.quantityLots ?? order.lotCap) - order.filledLots;
  return requiredReserve(market.spec, { ...order, openLots }, market.bandBps, order.referenceTicks);
}

/** Releases what an open order holds beyond what its open part can still need. */
export function releaseExcess(market: MarketState, order: OrderState, effects: BatchEffects): void {
  const needed = neededHold(market, order);
  if (order.reserved > needed) {
    effects.release(order, order.reserved - needed, 'order_release');
    order.reserved = needed;
  }
}

/** What a modify may change on an open order. */
type Change = Pick<Extract<Job, { kind: 'modify' }>, 'quantityLots' | 'priceTicks' | 'stopPriceTicks'>;

/**
 * Atoms more the order must hold if the change applies, sized against the order as it stands now
 * (other modifies and fills may have changed it since the request was read): 0 when it holds enough.
 */
export function modifyHold(market: MarketState, order: OrderState, change: Change): bigint {
  const next = {
    ...order,
    quantityLots: change.quantityLots ?? order.quantityLots,
    priceTicks: change.priceTicks ?? order.priceTicks,
    stopPriceTicks: change.stopPriceTicks ?? order.stopPriceTicks,
  };
  if ((next.quantityLots ?? next.lotCap) <= next.filledLots) return 0n;
  const needed = neededHold(market, next);
  return needed > order.reserved ? needed - order.reserved : 0n;
}

/** Books what the engine's events did: fills settle, triggers and modifications update the orders, ends close them. */
export function settleEvents(
  market: MarketState,
  events: MarketEvent[],
  sequence: number,
  now: Date,
  effects: BatchEffects,
): void {
  for (const event of events) {
    switch (event.type) {
      case 'accepted':
      case 'rested':
        break;
      case 'trade':
        settleTrade(market, event, sequence, now, effects);
        break;
      case 'triggered': {
        const order = mustGet(market, event.orderId);
        order.triggered = true;
        order.updatedAt = now;
        effects.touch(order);
        break;
      }
      case 'modified': {
        const order = mustGet(market, event.orderId);
        order.quantityLots = event.quantityLots;
        order.priceTicks = event.priceTicks;
        order.stopPriceTicks = event.stopPriceTicks;
        order.updatedAt = now;
        releaseExcess(market, order, effects);
        effects.touch(order);
        break;
      }
      case 'filled':
        closeOrder(market, mustGet(market, event.orderId), 'filled', 'filled', now, effects);
        break;
      case 'ended': {
        const order = mustGet(market, event.orderId);
        const status = event.reason === 'cancelled' ? 'cancelled' : order.filledLots > 0 ? 'completed' : 'expired';
        closeOrder(market, order, status, event.reason, now, effects);
        break;
      }
    }
  }
}

function closeOrder(
  market: MarketState,
  order: OrderState,
  status: OrderState['status'],
  reason: string,
  now: Date,
  effects: BatchEffects,
): void {
  order.status = status;
  order.endReason = reason;
  effects.changes.push({ kind: status === 'pending' || status === 'partial' ? 'expired' : status, order });
  if (order.quantityLots === null) order.quantityLots = order.filledLots > 0 ? order.filledLots : null;
  if (order.reserved > 0n) effects.release(order, order.reserved, 'order_release');
  order.reserved = 0n;
  order.updatedAt = now;
  effects.touch(order);
  market.orders.delete(order.id);
}

function settleTrade(
  market: MarketState,
  event: Extract<MarketEvent, { type: 'trade' }>,
  sequence: number,
  now: Date,
  effects: BatchEffects,
): void {
  const spec = market.spec;
  const maker = mustGet(market, event.makerOrderId);
  const taker = mustGet(market, event.takerOrderId);
  const value = notionalAtoms(spec, event.priceTicks, event.quantityLots);
  const base = lotsToAtoms(spec, event.quantityLots);
  const buyer = event.takerSide === 'buy' ? taker : maker;
  const seller = buyer === taker ? maker : taker;
  const buyerRate = buyer === maker ? spec.makerFeePercent : spec.takerFeePercent;
  const sellerRate = seller === maker ? spec.makerFeePercent : spec.takerFeePercent;
  invariant(
    buyer.reserved >= value && seller.reserved >= base,
    `trade ${sequence}:${event.tradeId} exceeds a hold (buyer ${buyer.id}, seller ${seller.id})`,
  );
  // The buyer's fee never takes more than its hold has left (rounding safety; exact at 0.1 %).
  const fullBuyerFee = feeAtoms(value, buyerRate);
  const buyerFee = fullBuyerFee <= buyer.reserved - value ? fullBuyerFee : buyer.reserved - value;
  const sellerFee = feeAtoms(value, sellerRate);
  buyer.reserved -= value + buyerFee;
  seller.reserved -= base;
  invariant(buyer.reserved >= 0n, `trade ${sequence}:${event.tradeId}: the buyer's fee overdrew its hold`);
  for (const [order, fee] of [
    [buyer, buyerFee],
    [seller, sellerFee],
  ] as const) {
    order.filledLots += event.quantityLots;
    order.filledTotal += value;
    order.fee += fee;
    order.updatedAt = now;
    if (order.status === 'pending') order.status = 'partial';
    effects.touch(order);
  }
  const user = (accountId: string) => ({ kind: 'user' as const, accountId });
  const postings: PostingInput[] = [
    { owner: user(buyer.accountId), currency: spec.quote, bucket: 'locked', amount: atomsText(-(value + buyerFee)) },
    { owner: user(buyer.accountId), currency: spec.base, bucket: 'available', amount: atomsText(base) },
    { owner: user(seller.accountId), currency: spec.base, bucket: 'locked', amount: atomsText(-base) },
    {
      owner: user(seller.accountId),
      currency: spec.quote,
      bucket: 'available',
      amount: atomsText(value - sellerFee),
    },
    {
      // Fees go to the market's own fee account, so that batches of two markets never wait for
      // each other on one shared row; fee revenue is the sum of the fees_* accounts.
      owner: { kind: 'system', name: feeAccountName(spec.id) },
      currency: spec.quote,
      bucket: 'available',
      amount: atomsText(buyerFee + sellerFee),
    },
  ];
  effects.settle({ kind: 'trade', reference: event.tradeId, postings }, [
    { accountId: buyer.accountId, currency: spec.base, amount: base },
    { accountId: seller.accountId, currency: spec.quote, amount: value - sellerFee },
  ]);
  effects.trades.push({
    id: `${spec.id}:${event.tradeId}`,
    pairId: spec.id,
    sequence,
    priceTicks: event.priceTicks,
    quantityLots: event.quantityLots,
    total: value,
    takerSide: event.takerSide,
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    makerAccountId: maker.accountId,
    takerAccountId: taker.accountId,
    makerFee: maker === buyer ? buyerFee : sellerFee,
    takerFee: taker === buyer ? buyerFee : sellerFee,
    executedAt: now,
  });
}

function mustGet(market: MarketState, orderId: string): OrderState {
  const order = market.orders.get(orderId);
  invariant(order !== undefined, `engine event for an order the sequencer does not hold: ${orderId}`);
  return order;
}
