import type { PlaceFuturesOrderRequest } from '@platform/contracts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import {
  type MarginCommand,
  moveIsolatedMargin,
  setLeverage,
  setMarginMode,
  setTpsl,
  type TpslCommand,
  type TransferCommand,
  transfer,
} from './account-commands.ts';
import { EntryBuilder, FUTURES_WALLET } from './batch.ts';
import type { DecideContext } from './context.ts';
import { type FundingCommand, settleFunding } from './funding.ts';
import { type LiquidateCommand, liquidate } from './liquidation.ts';
import { type ModifyCommand, modifyOrder } from './modify.ts';
import { cancelInBook, checkOrder, enterOrder, newOrder } from './orders.ts';
import { parseOrder } from './parse.ts';
import { orderView } from './rows.ts';
import type { FuturesOrigin } from './types.ts';

/**
 * Every command the futures exchange applies, by the kind its journal row names. The live queue
 * and the journal's replay (replay.ts) decide through these same functions, so a replay that feeds
 * the same inputs (clock, marks, ids: journal.ts) reaches the same state.
 */
export type PlacePayload = { accountId: string; request: PlaceFuturesOrderRequest; origin: FuturesOrigin };
export type CancelPayload = { accountId: string; orderId: string };
export type CancelAllPayload = { accountId: string; marketId: string | null };
export type HouseFundingPayload = { accountId: string; target: bigint };

export interface CommandPayloads {
  place: PlacePayload;
  cancel: CancelPayload;
  cancel_all: CancelAllPayload;
  modify: ModifyCommand;
  transfer: TransferCommand;
  leverage: { accountId: string; marketId: string; leverage: number };
  margin_mode: { accountId: string; marketId: string; mode: 'cross' | 'isolated' };
  isolated_margin: MarginCommand;
  tpsl: TpslCommand;
  funding: FundingCommand;
  house_funding: HouseFundingPayload;
  liquidate: LiquidateCommand;
}
export type CommandKind = keyof CommandPayloads;

type Deciders = { [K in CommandKind]: (ctx: DecideContext, payload: CommandPayloads[K]) => Result<unknown> };

const deciders: Deciders = {
  place: placeOrder,
  cancel: cancelOrder,
  cancel_all: cancelAll,
  modify: modifyOrder,
  transfer: transferOnce,
  leverage: (ctx, p) => setLeverage(ctx, p.accountId, p.marketId, p.leverage),
  margin_mode: (ctx, p) => setMarginMode(ctx, p.accountId, p.marketId, p.mode),
  isolated_margin: moveIsolatedMargin,
  tpsl: setTpsl,
  funding: fundingOnce,
  house_funding: fundHouse,
  liquidate,
};

export const isCommandKind = (kind: string): kind is CommandKind => Object.hasOwn(deciders, kind);

/** Decides one command of this kind on the state (synchronously; its follow-ups are the caller's). */
export function decideCommand<K extends CommandKind>(
  ctx: DecideContext,
  kind: K,
  payload: CommandPayloads[K],
): Result<unknown> {
  return (deciders[kind] as (ctx: DecideContext, payload: CommandPayloads[K]) => Result<unknown>)(ctx, payload);
}

/** Checks, enters and settles one new order; a repeat of a client id within the batch answers the first. */
function placeOrder(ctx: DecideContext, { accountId, request: body, origin }: PlacePayload) {
  const spec = ctx.state.markets.get(body.market.toUpperCase());
  if (!spec) return fail('FUTURES_MARKET_NOT_FOUND');
  const parsed = parseOrder(spec, body);
  if (!parsed.ok) return parsed;
  const request = parsed.value;
  if (request.clientOrderId !== null) {
    for (const order of ctx.batch.orders.values()) {
      if (order.accountId === accountId && order.clientOrderId === request.clientOrderId) {
        return ok({ order: orderView(spec, order), created: false });
      }
    }
  }
  const checked = checkOrder(ctx, accountId, request);
  if (!checked.ok) return checked;
  const order = newOrder(ctx, accountId, checked.value, origin);
  const entered = enterOrder(ctx, spec, order);
  if (!entered.ok) return entered;
  return ok({ order: orderView(spec, order), created: true });
}

function cancelOrder(ctx: DecideContext, { accountId, orderId }: CancelPayload) {
  const order = ctx.state.orders.get(orderId);
  if (!order || order.accountId !== accountId) return fail('ORDER_NOT_OPEN');
  cancelInBook(ctx, order);
  return ok(orderView(ctx.state.markets.get(order.marketId)!, order));
}

/** Every open order of the account (in one market or all), except those that follow a position's TP/SL. */
function cancelAll(ctx: DecideContext, { accountId, marketId }: CancelAllPayload) {
  const cancelled = [];
  for (const order of ctx.state.openOrdersOf(accountId, marketId ?? undefined)) {
    if (order.origin === 'tpsl') continue;
    cancelInBook(ctx, order);
    cancelled.push(orderView(ctx.state.markets.get(order.marketId)!, order));
  }
  return ok(cancelled);
}

/** A transfer; a repeat of its client id within the batch answers the first. */
function transferOnce(ctx: DecideContext, command: TransferCommand) {
  const repeated = ctx.batch.transfers.find(
    (t) =>
      command.clientTransferId !== null &&
      t.accountId === command.accountId &&
      t.clientTransferId === command.clientTransferId,
  );
  if (repeated) return ok({ ...repeated, repeated: true });
  const done = transfer(ctx, command);
  return done.ok ? ok({ ...done.value, repeated: false }) : done;
}

function fundingOnce(ctx: DecideContext, command: FundingCommand) {
  const settled = ctx.batch.funding.some(
    (r) => r.marketId === command.marketId && r.fundingTime === command.fundingTime,
  );
  return settled
    ? fail('VALIDATION_ERROR', { message: 'This funding round was already settled' })
    : settleFunding(ctx, command);
}

/** Tops the house's futures wallet up to `target` from market_making when it holds less than half of it. */
function fundHouse(ctx: DecideContext, { accountId, target }: HouseFundingPayload): Result<bigint> {
  const wallet = ctx.state.wallet(accountId);
  const held = wallet.available + wallet.locked;
  if (held * 2n >= target) return ok(0n);
  const entry = new EntryBuilder('futures_house_funding', `${accountId}:${ctx.now.getTime()}`);
  entry.move(
    [{ kind: 'system', name: 'market_making' }, 'available'],
    [FUTURES_WALLET(accountId), 'available'],
    target - held,
  );
  wallet.available += target - held;
  ctx.batch.addEntry(entry);
  return ok(target - held);
}
