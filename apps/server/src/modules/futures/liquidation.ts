import { perp } from '@platform/engine';
import { ok, type Result } from '../../lib/errors.ts';
import { EntryBuilder, FUTURES_WALLET, INSURANCE } from './batch.ts';
import type { DecideContext } from './context.ts';
import { type AdlClose, deleverage } from './deleverage.ts';
import { applyEvents } from './engine-events.ts';
import { placeCommand } from './engine-orders.ts';
import { cancelInBook, newOrder } from './orders.ts';
import { bankruptcyCollateral, collateralOf, crossOf, type MarkOf, riskOf } from './risk.ts';
import type { FuturesState } from './state.ts';
import type { FuturesOrderState, PositionState } from './types.ts';
import { unitsText } from './units.ts';
import { insertRows } from './writer.ts';

/** The liquidation fee: 0.5 % of the liquidated notional at the mark (RATE_SCALE), capped at what is left. */
export const LIQUIDATION_FEE_RATE = 500_000n;

/**
 * The `liquidate` command. `marks` holds the mark (ticks) of every market where the account had a
 * position when the watcher saw it under maintenance: the command decides on these, not on the
 * live marks, so that a replay of the journal decides the same.
 */
export type LiquidateCommand = { accountId: string; marketId: string; marks: Record<string, number> };

export type LiquidationStep =
  | 'cancel_orders'
  | 'partial_close'
  | 'close'
  | 'insurance_close'
  | 'adl'
  | 'liquidation_fee'
  | 'surplus'
  | 'insurance_clear';

/** One step of a liquidation, for the audit trail (futures_liquidations). */
export type StepRow = {
  step: LiquidationStep;
  bankruptcyTicks: number | null;
  priceTicks: number | null;
  lots: number | null;
  amount: bigint | null;
  counterparty: string | null;
};

export type LiquidationOutcome = {
  status: 'not_liquidatable' | 'partial' | 'closed';
  accountId: string;
  marketId: string;
  side: 'long' | 'short';
  markTicks: number;
  /** Lots closed through the book at the bankruptcy price or better, with the fund's help, by ADL. */
  bookLots: number;
  insuranceLots: number;
  adl: AdlClose[];
  fee: bigint;
  surplus: bigint;
  /** What the insurance fund paid for the fills worse than the bankruptcy price. */
  insurancePaid: bigint;
  steps: StepRow[];
};

/** The command's marks, the live mark for a market it does not name. */
export const commandMarks =
  (ctx: DecideContext, command: LiquidateCommand): MarkOf =>
  (marketId) =>
    command.marks[marketId] ?? ctx.markOf(marketId);

/** The maintenance rule, exactly: isolated margin + P&L <= MM; cross margin balance <= Σ MM of the cross positions. */
export function underMaintenance(state: FuturesState, accountId: string, marketId: string, markOf: MarkOf): boolean {
  const position = state.positions.get(`${accountId}|${marketId}`);
  if (!position || position.sizeLots === 0) return false;
  if (state.setting(accountId, marketId).mode === 'isolated') {
    return perp.isolatedLiquidatable(riskOf(state, position, markOf));
  }
  return crossOf(state, accountId, markOf).liquidatable;
}

/** The position's bankruptcy price (ticks); the mark when none exists (a long no price bankrupts). */
function bankruptcyOf(state: FuturesState, position: PositionState, markOf: MarkOf, mark: number): number {
  const spec = state.markets.get(position.marketId)!;
  const collateral = bankruptcyCollateral(state, position, markOf);
  const price = perp.bankruptcyPriceTicks(
    spec,
    { sizeLots: position.sizeLots, costTickLots: position.costTickLots },
    collateral,
  );
  return price ?? mark;
}

/** The account's open orders the liquidation cancels: in this market (isolated) or in every market (cross). */
function cancelOrders(ctx: DecideContext, accountId: string, marketId: string): number {
  const cross = ctx.state.setting(accountId, marketId).mode === 'cross';
  const orders = ctx.state
    .openOrdersOf(accountId)
    .filter((o) => o.marketId === marketId || (cross && ctx.state.setting(accountId, o.marketId).mode === 'cross'));
  for (const order of orders) cancelInBook(ctx, order);
  return orders.length;
}

/**
 * A reduce-only IOC limit order of the liquidation engine (origin 'liquidation', no trading fee),
 * sent to the book without the price band (its limit, the bankruptcy price or the fund's bound, is
 * the protection). Returns it with what it filled.
 */
function closeThroughBook(ctx: DecideContext, position: PositionState, lots: number, priceTicks: number) {
  const order = newOrder(
    ctx,
    position.accountId,
    {
      order: {
        marketId: position.marketId,
        side: position.sizeLots > 0 ? 'sell' : 'buy',
        type: 'limit',
        timeInForce: 'IOC',
        postOnly: false,
        reduceOnly: true,
        closePosition: false,
        priceTicks,
        stopTicks: null,
        takeProfitTicks: null,
        stopLossTicks: null,
        clientOrderId: null,
        quantityLots: lots,
      },
      orderMargin: 0n,
    },
    'liquidation',
  );
  const sequence = ctx.nextSequence();
  const result = ctx.state.engine(position.marketId).apply(placeCommand(order, sequence, null, ctx.now));
  ctx.batch.touchOrder(order);
  if (result.status === 'rejected') {
    order.status = 'rejected';
    order.rejectReason = result.reason;
    return order;
  }
  order.sequence = sequence;
  ctx.state.orders.set(order.id, order);
  applyEvents(ctx, position.marketId, result.events);
  const left = ctx.state.orders.get(order.id);
  if (left) cancelInBook(ctx, left);
  return order;
}

/** closeThroughBook; an isolated position that stays open keeps every unit of its margin (relock). */
function closeKeepingMargin(ctx: DecideContext, position: PositionState, lots: number, priceTicks: number) {
  const wallet = ctx.state.wallet(position.accountId);
  const before = wallet.available;
  const order = closeThroughBook(ctx, position, lots, priceTicks);
  if (ctx.state.setting(position.accountId, position.marketId).mode === 'isolated') {
    relock(ctx, position, wallet.available - before);
  }
  return order;
}

/** Money of (filled lots x limit - filled cost), the side's way round: what the fills did better than `ticks`. */
function betterThan(state: FuturesState, order: FuturesOrderState, ticks: number): bigint {
  const spec = state.markets.get(order.marketId)!;
  const atPrice = BigInt(order.filledLots) * BigInt(ticks);
  const diff = order.side === 'sell' ? order.filledCost - atPrice : atPrice - order.filledCost;
  return diff * perp.unitsPerTickLot(spec);
}

type Run = {
  ctx: DecideContext;
  markOf: MarkOf;
  position: PositionState;
  mark: number;
  outcome: LiquidationOutcome;
};

/** The partial liquidation by tier: closes only what brings the rest into a lower tier and safe; true if it sufficed. */
function partialByTier(run: Run): boolean {
  const { ctx, position, mark, markOf, outcome } = run;
  const spec = ctx.state.markets.get(position.marketId)!;
  const held = Math.abs(position.sizeLots);
  const collateral = collateralOf(ctx.state, position, markOf);
  const risk = { sizeLots: position.sizeLots, costTickLots: position.costTickLots };
  const lots = perp.liquidationCloseLots(spec, spec.tiers, risk, collateral, mark);
  if (lots >= held) return false;
  const bp = bankruptcyOf(ctx.state, position, markOf, mark);
  const order = closeKeepingMargin(ctx, position, lots, bp);
  outcome.bookLots += order.filledLots;
  outcome.steps.push(step('partial_close', bp, bp, order.filledLots));
  return order.filledLots > 0 && !underMaintenance(ctx.state, position.accountId, position.marketId, markOf);
}

/**
 * An isolated position partly liquidated keeps every unit of its margin: what the reduction
 * released to the wallet goes back to the position (a liquidation pays nothing out while a part
 * of the position is still open).
 */
function relock(ctx: DecideContext, position: PositionState, released: bigint): void {
  if (released <= 0n || position.sizeLots === 0) return;
  const wallet = ctx.state.wallet(position.accountId);
  const user = FUTURES_WALLET(position.accountId);
  const entry = new EntryBuilder('futures_margin', `${position.marketId}:liquidation-margin:${ctx.state.sequence}`);
  entry.move([user, 'available'], [user, 'locked'], released);
  wallet.available -= released;
  wallet.locked += released;
  position.isolatedMargin += released;
  ctx.batch.addEntry(entry);
  ctx.batch.touchPosition(position, 'margin');
}

const step = (
  kind: LiquidationStep,
  bankruptcyTicks: number | null,
  priceTicks: number | null,
  lots: number | null,
  amount: bigint | null = null,
  counterparty: string | null = null,
): StepRow => ({ step: kind, bankruptcyTicks, priceTicks, lots, amount, counterparty });

/**
 * The full close: an IOC at the bankruptcy price; then, while the insurance fund has money, an IOC
 * at a worse price bounded so that the shortfall the fund pays never exceeds its balance (long:
 * price >= BP - floor(fund / (lots x units)), short: <= BP + that); what is still open is
 * deleveraged at the bankruptcy price. Returns the surplus of the fills better than BP.
 */
function closeAll(run: Run): bigint {
  const { ctx, position, mark, markOf, outcome } = run;
  const spec = ctx.state.markets.get(position.marketId)!;
  const bp = bankruptcyOf(ctx.state, position, markOf, mark);
  const first = closeKeepingMargin(ctx, position, Math.abs(position.sizeLots), bp);
  outcome.bookLots += first.filledLots;
  outcome.steps.push(step('close', bp, bp, first.filledLots));
  const surplus = betterThan(ctx.state, first, bp);
  let remaining = Math.abs(position.sizeLots);
  const fund = ctx.state.insuranceFund;
  const perTick = BigInt(remaining) * perp.unitsPerTickLot(spec);
  let reach = remaining > 0 && fund > 0n ? fund / perTick : 0n; // floor: the fund's bound is never exceeded
  const room = BigInt(position.sizeLots > 0 ? bp - 1 : Number.MAX_SAFE_INTEGER - bp); // a price stays a safe tick >= 1
  if (reach > room) reach = room;
  if (reach > 0n) {
    const limit = position.sizeLots > 0 ? bp - Number(reach) : bp + Number(reach);
    const before = ctx.state.insuranceFund;
    const second = closeKeepingMargin(ctx, position, remaining, limit);
    outcome.insuranceLots += second.filledLots;
    outcome.insurancePaid += before - ctx.state.insuranceFund;
    outcome.steps.push(step('insurance_close', bp, limit, second.filledLots));
    if (before > ctx.state.insuranceFund) {
      outcome.steps.push(step('insurance_clear', bp, null, null, before - ctx.state.insuranceFund));
    }
    remaining = Math.abs(position.sizeLots);
  }
  if (remaining > 0) {
    // At the bankruptcy price of the position as it was taken over: what the earlier closes did
    // better than it is the fund's (the surplus), not the counterparties'.
    outcome.adl = deleverage(ctx, position, remaining, bp, markOf);
    for (const close of outcome.adl) {
      outcome.steps.push(step('adl', bp, close.priceTicks, close.lots, null, close.counterparty));
    }
  }
  return surplus > 0n ? surplus : 0n;
}

/** Moves `amount` (capped at the wallet's available) from the account to the insurance fund; returns what moved. */
function toFund(run: Run, entry: EntryBuilder, amount: bigint, reference: string, fromMargin: boolean): bigint {
  const { ctx, position } = run;
  const wallet = ctx.state.wallet(position.accountId);
  const source = fromMargin ? position.isolatedMargin : wallet.available;
  const taken = least(amount, atLeastZero(source));
  if (taken <= 0n) return 0n;
  entry.move(
    [FUTURES_WALLET(position.accountId), fromMargin ? 'locked' : 'available'],
    [INSURANCE, 'available'],
    taken,
  );
  if (fromMargin) {
    wallet.locked -= taken;
    position.isolatedMargin -= taken;
  } else wallet.available -= taken;
  ctx.state.insuranceFund += taken;
  ctx.batch.income.push({
    accountId: position.accountId,
    type: 'liquidation_fee',
    marketId: position.marketId,
    amount: -taken,
    reference,
  });
  return taken;
}

const atLeastZero = (value: bigint) => (value > 0n ? value : 0n);
const least = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * What the liquidation may take for the fund. After a full close: isolated, what the closed
 * position released to the wallet (it all goes: the trader ends as if closed at the bankruptcy
 * price); cross, what leaves the cross account's equity and wallet at zero or above. After a
 * partial close, only what keeps the rest above its maintenance margin (isolated: taken from the
 * position's margin; cross: from the wallet).
 */
function takeable(run: Run, releasedIsolated: bigint, isolated: boolean, full: boolean): bigint {
  const { ctx, position, markOf } = run;
  if (isolated && full) return atLeastZero(releasedIsolated);
  if (isolated) {
    const metrics = perp.positionMetrics(riskOf(ctx.state, position, markOf));
    const spare = position.isolatedMargin + metrics.unrealisedPnl - metrics.maintenanceMargin - 1n;
    return atLeastZero(least(spare, position.isolatedMargin));
  }
  const cross = crossOf(ctx.state, position.accountId, markOf);
  const wallet = ctx.state.wallet(position.accountId).available;
  const equity = full ? cross.marginBalance : cross.marginBalance - cross.maintenanceMargin - 1n;
  return atLeastZero(least(equity, wallet));
}

/** Whether the account still has an open cross position other than this one. */
function otherCrossOpen(state: FuturesState, position: PositionState): boolean {
  return state
    .positionsOf(position.accountId)
    .some((p) => p !== position && p.sizeLots !== 0 && state.setting(p.accountId, p.marketId).mode === 'cross');
}

/** The liquidation fee and, after a full close, the surplus beyond it, to the insurance fund. */
function charge(run: Run, closedLots: number, surplus: bigint, released: bigint, full: boolean): void {
  const { ctx, position, mark, outcome } = run;
  const spec = ctx.state.markets.get(position.marketId)!;
  const isolated = ctx.state.setting(position.accountId, position.marketId).mode === 'isolated';
  const reference = `${position.marketId}:liquidation:${ctx.state.sequence}`;
  const entry = new EntryBuilder('futures_liquidation', reference);
  let cap = takeable(run, released, isolated, full);
  const fromMargin = isolated && !full;
  const due = perp.divCeil(perp.notionalMoney(spec, mark, closedLots) * LIQUIDATION_FEE_RATE, perp.RATE_SCALE);
  outcome.fee = toFund(run, entry, least(due, cap), reference, fromMargin);
  cap -= outcome.fee;
  if (full && (isolated || !otherCrossOpen(ctx.state, position))) {
    // Isolated: everything the position left goes; cross: the part of the fills better than BP beyond
    // the fee, once no other cross position needs the wallet (else it stays to back them).
    const wanted = least(isolated ? cap : surplus - outcome.fee, cap);
    if (wanted > 0n) outcome.surplus = toFund(run, entry, wanted, `${reference}:surplus`, false);
  }
  if (fromMargin && outcome.fee > 0n) ctx.batch.touchPosition(position, 'margin');
  ctx.batch.addEntry(entry);
  if (outcome.fee > 0n) outcome.steps.push(step('liquidation_fee', null, mark, closedLots, outcome.fee));
  if (outcome.surplus > 0n) outcome.steps.push(step('surplus', null, null, null, outcome.surplus));
}

function emptyOutcome(command: LiquidateCommand, position: PositionState, mark: number): LiquidationOutcome {
  return {
    status: 'not_liquidatable',
    accountId: command.accountId,
    marketId: command.marketId,
    side: position.sizeLots >= 0 ? 'long' : 'short',
    markTicks: mark,
    bookLots: 0,
    insuranceLots: 0,
    adl: [],
    fee: 0n,
    surplus: 0n,
    insurancePaid: 0n,
    steps: [],
  };
}

/**
 * The `liquidate` command, decided in one batch (docs/futures.md, "Liquidation, insurance fund and
 * ADL"): re-checks the maintenance rule at the command's marks (else nothing happens); cancels the
 * account's open orders (this market, or every cross market); closes by tier where a partial close
 * suffices; else closes all: through the book at the bankruptcy price or better, then with the fund's
 * help within its balance, then by ADL. The liquidation fee, and after a full close the surplus,
 * go to the insurance fund. Every step is a row of futures_liquidations.
 */
export function liquidate(ctx: DecideContext, command: LiquidateCommand): Result<LiquidationOutcome> {
  const markOf = commandMarks(ctx, command);
  const position = ctx.state.position(command.accountId, command.marketId);
  const mark = markOf(command.marketId) ?? 1;
  const outcome = emptyOutcome(command, position, mark);
  if (!underMaintenance(ctx.state, command.accountId, command.marketId, markOf)) return ok(outcome);
  const sequence = ctx.state.sequence;
  const run: Run = { ctx: { ...ctx, markOf }, markOf, position, mark, outcome };
  const cancelled = cancelOrders(run.ctx, command.accountId, command.marketId);
  if (cancelled > 0) outcome.steps.push(step('cancel_orders', null, null, null, BigInt(cancelled)));
  const wallet = ctx.state.wallet(command.accountId);
  const availableBefore = wallet.available;
  const held = Math.abs(position.sizeLots);
  const partial = partialByTier(run);
  const surplus = partial ? 0n : closeAll(run);
  outcome.status = partial ? 'partial' : 'closed';
  const closedLots = held - Math.abs(position.sizeLots);
  charge(run, closedLots, surplus, wallet.available - availableBefore, !partial);
  ctx.batch.touchPosition(position, 'fill');
  ctx.batch.positionReasons.set(`${command.accountId}|${command.marketId}`, 'liquidation');
  recordSteps(ctx, command, sequence, outcome);
  return ok(outcome);
}

/** The steps as futures_liquidations rows, written with the batch. */
function recordSteps(ctx: DecideContext, command: LiquidateCommand, sequence: number, outcome: LiquidationOutcome) {
  const spec = ctx.state.markets.get(command.marketId)!;
  const price = (ticks: number | null) => (ticks === null ? null : unitsText(ticks, spec.priceDecimals));
  const rows = outcome.steps.map((s) => [
    sequence,
    command.accountId,
    command.marketId,
    s.step,
    price(outcome.markTicks),
    price(s.bankruptcyTicks),
    price(s.priceTicks),
    s.lots === null ? null : unitsText(s.lots, spec.quantityDecimals),
    s.amount === null ? null : s.step === 'cancel_orders' ? s.amount.toString() : unitsText(s.amount, 8),
    s.counterparty,
  ]);
  if (rows.length === 0) return;
  const columns = [
    'sequence',
    'account_id',
    'market_id',
    'step',
    'mark_price',
    'bankruptcy_price',
    'price',
    'quantity',
    'amount',
    'counterparty_account_id',
  ];
  ctx.batch.writes.push((tx) => insertRows(tx, 'futures_liquidations', columns, rows));
}
