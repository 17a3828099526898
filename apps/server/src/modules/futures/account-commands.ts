import type { MarginMode } from '@platform/contracts';
import { perp } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { EntryBuilder, FUTURES_WALLET, type TransferRow } from './batch.ts';
import type { DecideContext } from './context.ts';
import { crossOf, riskOf, transferableOf } from './risk.ts';
import { futuresKey, type SettingsState } from './types.ts';
import { syncTpsl } from './upkeep.ts';

export type TransferCommand = {
  accountId: string;
  direction: 'to_futures' | 'to_spot';
  amount: bigint;
  clientTransferId: string | null;
};

/** One entry between the spot wallet's USD and the futures wallet's available; to_spot only what is transferable. */
export function transfer(ctx: DecideContext, command: TransferCommand): Result<TransferRow> {
  const { state, batch } = ctx;
  const wallet = state.wallet(command.accountId);
  if (command.direction === 'to_spot' && command.amount > transferableOf(state, command.accountId, ctx.markOf)) {
    return fail('TRANSFER_EXCEEDS_AVAILABLE');
  }
  const row: TransferRow = { id: ctx.newId(), ...command, createdAt: ctx.now };
  const entry = new EntryBuilder('futures_transfer', row.id);
  const spot = { kind: 'user', accountId: command.accountId } as const;
  const futures = FUTURES_WALLET(command.accountId);
  if (command.direction === 'to_futures') entry.move([spot, 'available'], [futures, 'available'], command.amount);
  else entry.move([futures, 'available'], [spot, 'available'], command.amount);
  wallet.available += command.direction === 'to_futures' ? command.amount : -command.amount;
  batch.addEntry(entry);
  batch.transfers.push(row);
  const signed = command.direction === 'to_futures' ? command.amount : -command.amount;
  batch.income.push({
    accountId: command.accountId,
    type: 'transfer',
    marketId: null,
    amount: signed,
    reference: row.id,
  });
  return ok(row);
}

function touchSetting(ctx: DecideContext, setting: SettingsState): void {
  ctx.batch.settings.set(futuresKey(setting.accountId, setting.marketId), setting);
}

/** The worst notional the position could reach with every open order of the market filled (at mark or their price). */
function worstNotional(ctx: DecideContext, accountId: string, marketId: string): bigint {
  const spec = ctx.state.markets.get(marketId)!;
  const position = ctx.state.position(accountId, marketId);
  const mark = ctx.markOf(marketId) ?? 0;
  let long = position.sizeLots;
  let short = position.sizeLots;
  let cost = 0n;
  for (const order of ctx.state.openOrdersOf(accountId, marketId)) {
    if (order.reduceOnly) continue;
    const lots = order.quantityLots - order.filledLots;
    if (order.side === 'buy') long += lots;
    else short -= lots;
    cost += perp.notionalMoney(spec, order.priceTicks ?? order.stopTicks ?? mark, lots);
  }
  const worstLots = Math.max(Math.abs(long), Math.abs(short));
  const atMark = perp.notionalMoney(spec, mark, worstLots);
  return atMark > cost ? atMark : cost;
}

export function setLeverage(
  ctx: DecideContext,
  accountId: string,
  marketId: string,
  leverage: number,
): Result<SettingsState> {
  const spec = ctx.state.markets.get(marketId)!;
  const setting = ctx.state.setting(accountId, marketId);
  if (leverage > spec.maxLeverage) return fail('LEVERAGE_TOO_HIGH');
  if (worstNotional(ctx, accountId, marketId) > perp.maxNotionalForLeverage(spec.tiers, leverage)) {
    return fail('LEVERAGE_TOO_HIGH');
  }
  const previous = setting.leverage;
  setting.leverage = leverage;
  if (setting.mode === 'cross' && crossOf(ctx.state, accountId, ctx.markOf).available < 0n && leverage < previous) {
    setting.leverage = previous;
    return fail('INSUFFICIENT_MARGIN');
  }
  touchSetting(ctx, setting);
  const position = ctx.state.position(accountId, marketId);
  if (position.sizeLots !== 0) ctx.batch.touchPosition(position, 'leverage');
  return ok({ ...setting });
}

export function setMarginMode(
  ctx: DecideContext,
  accountId: string,
  marketId: string,
  mode: MarginMode,
): Result<SettingsState> {
  const setting = ctx.state.setting(accountId, marketId);
  const position = ctx.state.position(accountId, marketId);
  if (setting.mode === mode) return ok({ ...setting });
  if (
    position.sizeLots !== 0 ||
    position.isolatedMargin !== 0n ||
    ctx.state.openOrdersOf(accountId, marketId).length > 0
  ) {
    return fail('MARGIN_MODE_LOCKED');
  }
  setting.mode = mode;
  touchSetting(ctx, setting);
  return ok({ ...setting });
}

export type MarginCommand = { accountId: string; marketId: string; action: 'add' | 'remove'; amount: bigint };

/** Adds to or removes from an isolated position's margin; removal keeps it at or above its initial margin. */
export function moveIsolatedMargin(ctx: DecideContext, command: MarginCommand): Result<{ margin: bigint }> {
  const { state } = ctx;
  const setting = state.setting(command.accountId, command.marketId);
  const position = state.position(command.accountId, command.marketId);
  if (position.sizeLots === 0) return fail('POSITION_NOT_FOUND');
  if (setting.mode !== 'isolated') return fail('ISOLATED_MARGIN_ONLY');
  const wallet = state.wallet(command.accountId);
  const user = FUTURES_WALLET(command.accountId);
  const entry = new EntryBuilder('futures_margin', `${command.marketId}:${ctx.nextSequence()}`);
  if (command.action === 'add') {
    if (command.amount > crossOf(state, command.accountId, ctx.markOf).available) return fail('INSUFFICIENT_MARGIN');
    entry.move([user, 'available'], [user, 'locked'], command.amount);
    wallet.available -= command.amount;
    wallet.locked += command.amount;
    position.isolatedMargin += command.amount;
  } else {
    const metrics = perp.positionMetrics(riskOf(state, position, ctx.markOf));
    const loss = metrics.unrealisedPnl < 0n ? metrics.unrealisedPnl : 0n;
    const removable = position.isolatedMargin + loss - metrics.initialMargin;
    if (command.amount > removable)
      return fail('INSUFFICIENT_MARGIN', { message: 'The position would fall below its initial margin' });
    entry.move([user, 'locked'], [user, 'available'], command.amount);
    wallet.locked -= command.amount;
    wallet.available += command.amount;
    position.isolatedMargin -= command.amount;
  }
  position.updatedAt = ctx.now;
  ctx.batch.addEntry(entry);
  ctx.batch.touchPosition(position, 'margin');
  return ok({ margin: position.isolatedMargin });
}

export type TpslCommand = {
  accountId: string;
  marketId: string;
  takeProfitTicks: number | null | undefined;
  stopLossTicks: number | null | undefined;
};

/** Sets (or with null removes) the position's TP and SL; their orders follow at once. */
export function setTpsl(
  ctx: DecideContext,
  command: TpslCommand,
): Result<{ takeProfitTicks: number | null; stopLossTicks: number | null }> {
  const position = ctx.state.position(command.accountId, command.marketId);
  if (position.sizeLots === 0) return fail('POSITION_NOT_FOUND');
  const refused = triggerRefusal(ctx, position.sizeLots > 0, command);
  if (refused) return refused;
  if (command.takeProfitTicks !== undefined) position.takeProfitTicks = command.takeProfitTicks;
  if (command.stopLossTicks !== undefined) position.stopLossTicks = command.stopLossTicks;
  const wanted = { tp: position.takeProfitTicks, sl: position.stopLossTicks };
  position.updatedAt = ctx.now;
  ctx.batch.touchPosition(position, 'margin');
  syncTpsl(ctx, position);
  if (position.takeProfitTicks !== wanted.tp || position.stopLossTicks !== wanted.sl) {
    return fail('INVALID_PRICE', { message: 'The trigger price has already been reached' });
  }
  return ok({ takeProfitTicks: position.takeProfitTicks, stopLossTicks: position.stopLossTicks });
}

/** A TP must lie on the profitable side of the last price (the trigger's reference), an SL on the other. */
function triggerRefusal(ctx: DecideContext, long: boolean, command: TpslCommand) {
  const last = ctx.state.engine(command.marketId).lastTradePrice() ?? ctx.markOf(command.marketId);
  if (last === null) return null;
  const tp = command.takeProfitTicks;
  const sl = command.stopLossTicks;
  const tpWrong = tp != null && (long ? tp <= last : tp >= last);
  const slWrong = sl != null && (long ? sl >= last : sl <= last);
  if (tpWrong || slWrong) {
    const which = tpWrong ? 'Take-profit' : 'Stop-loss';
    return fail('INVALID_PRICE', { message: `${which} price is on the wrong side of the last price` });
  }
  return null;
}
