import type { MarketCommand } from '@platform/engine';
import type { BatchEffects } from './batch-effects.ts';
import type { CommandOutcome, Job } from './jobs.ts';
import type { OrderState } from './order-state.ts';
import { type MarketState, releaseExcess, settleEvents } from './settlement.ts';

type Sequenced = { sequence: number; now: Date; effects: BatchEffects };

/**
 * Applies one command (its funds already checked) to the engine and books what it did. A modify
 * brings the extra hold the sequencer sized for it and found funds for (see modifyHold).
 */
export function applyCommand(market: MarketState, job: Job, at: Sequenced, modifyHold = 0n): CommandOutcome {
  switch (job.kind) {
    case 'place':
      return applyPlace(market, job.order, at);
    case 'cancel':
      return applyCancel(market, job, at);
    case 'modify':
      return applyModify(market, job, modifyHold, at);
  }
}

function applyPlace(market: MarketState, order: OrderState, { sequence, now, effects }: Sequenced): CommandOutcome {
  const timestampMs = now.getTime();
  market.orders.set(order.id, order);
  effects.hold(order, order.reserved);
  const command: MarketCommand = {
    kind: 'place',
    sequence,
    timestampMs,
    orderId: order.id,
    accountId: order.accountId,
    side: order.side,
    type: order.type,
    quantityLots: order.quantityLots ?? order.lotCap,
    quoteAmount: order.quoteNotional,
    priceTicks: order.priceTicks,
    stopPriceTicks: order.stopPriceTicks,
    stopLimitPriceTicks: order.stopLimitPriceTicks,
    timeInForce: order.timeInForce,
    postOnly: order.postOnly,
    selfTradePrevention: order.selfTradePrevention,
    referencePriceTicks: order.referenceTicks,
  };
  const result = market.engine.apply(command);
  effects.journal(command, result.status === 'accepted');
  order.sequence = sequence;
  order.updatedAt = now;
  effects.touch(order);
  if (result.status === 'rejected') {
    order.status = 'rejected';
    order.rejectReason = result.reason;
    effects.changes.push({ kind: 'rejected', order });
    effects.release(order, order.reserved, 'order_release');
    order.reserved = 0n;
    market.orders.delete(order.id);
    return { status: 'rejected', reason: result.reason, order: { ...order } };
  }
  effects.changes.push({ kind: 'placed', order: { ...order } });
  settleEvents(market, result.events, sequence, now, effects);
  return { status: 'accepted', order: { ...order } };
}

function applyCancel(
  market: MarketState,
  job: Extract<Job, { kind: 'cancel' }>,
  { sequence, now, effects }: Sequenced,
): CommandOutcome {
  const timestampMs = now.getTime();
  const command: MarketCommand = {
    kind: 'cancel',
    sequence,
    timestampMs,
    orderId: job.orderId,
    accountId: job.accountId,
  };
  const result = market.engine.apply(command);
  effects.journal(command, result.status === 'accepted');
  const order = market.orders.get(job.orderId);
  if (result.status === 'rejected' || order === undefined) {
    return {
      status: 'rejected',
      reason: result.status === 'rejected' ? result.reason : 'unknown_order',
      order: null,
    };
  }
  settleEvents(market, result.events, sequence, now, effects);
  return { status: 'accepted', order: { ...order } };
}

function applyModify(
  market: MarketState,
  job: Extract<Job, { kind: 'modify' }>,
  hold: bigint,
  { sequence, now, effects }: Sequenced,
): CommandOutcome {
  const timestampMs = now.getTime();
  const command: MarketCommand = {
    kind: 'modify',
    sequence,
    timestampMs,
    orderId: job.orderId,
    accountId: job.accountId,
    quantityLots: job.quantityLots,
    priceTicks: job.priceTicks,
    stopPriceTicks: job.stopPriceTicks,
    referencePriceTicks: job.referenceTicks,
  };
  const result = market.engine.apply(command);
  effects.journal(command, result.status === 'accepted');
  const order = market.orders.get(job.orderId);
  if (order === undefined) {
    return {
      status: 'rejected',
      reason: result.status === 'rejected' ? result.reason : 'unknown_order',
      order: null,
    };
  }
  // The extra hold belongs to the order either way; a rejected modify releases what the
  // order does not need below.
  effects.hold(order, hold);
  order.reserved += hold;
  if (result.status === 'rejected') {
    releaseExcess(market, order, effects);
    effects.touch(order);
    return { status: 'rejected', reason: result.reason, order: { ...order } };
  }
  settleEvents(market, result.events, sequence, now, effects);
  return { status: 'accepted', order: { ...order } };
}
