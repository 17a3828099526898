import type { FuturesOrder } from '@platform/contracts';
import type { FuturesMarketSpec } from './markets.ts';
import type { FuturesOrderState, PositionState } from './types.ts';
import { moneyText, storedUnits, unitsText } from './units.ts';

export type OrderRow = {
  id: string;
  account_id: string;
  market_id: string;
  client_order_id: string | null;
  side: 'buy' | 'sell';
  type: FuturesOrderState['type'];
  time_in_force: FuturesOrderState['timeInForce'];
  post_only: boolean;
  reduce_only: boolean;
  close_position: boolean;
  origin: FuturesOrderState['origin'];
  price: string | null;
  stop_price: string | null;
  quantity: string;
  filled_quantity: string;
  filled_cost: string;
  fee: string;
  realised_pnl: string;
  order_margin: string;
  take_profit_price: string | null;
  stop_loss_price: string | null;
  status: FuturesOrderState['status'];
  triggered: boolean;
  reject_reason: string | null;
  sequence: string | number | null;
  created_at: Date | string;
  updated_at: Date | string;
};

const ticks = (text: string | null, decimals: number) => (text === null ? null : Number(storedUnits(text, decimals)));

export function orderFromRow(spec: FuturesMarketSpec, row: OrderRow): FuturesOrderState {
  return {
    id: row.id,
    accountId: row.account_id,
    marketId: row.market_id,
    clientOrderId: row.client_order_id,
    side: row.side,
    type: row.type,
    timeInForce: row.time_in_force,
    postOnly: row.post_only,
    reduceOnly: row.reduce_only,
    closePosition: row.close_position,
    origin: row.origin,
    priceTicks: ticks(row.price, spec.priceDecimals),
    stopTicks: ticks(row.stop_price, spec.priceDecimals),
    quantityLots: Number(storedUnits(row.quantity, spec.quantityDecimals)),
    filledLots: Number(storedUnits(row.filled_quantity, spec.quantityDecimals)),
    filledCost: storedUnits(row.filled_cost, 0),
    fee: storedUnits(row.fee, 8),
    realisedPnl: storedUnits(row.realised_pnl, 8),
    orderMargin: storedUnits(row.order_margin, 8),
    takeProfitTicks: ticks(row.take_profit_price, spec.priceDecimals),
    stopLossTicks: ticks(row.stop_loss_price, spec.priceDecimals),
    status: row.status,
    triggered: row.triggered,
    rejectReason: row.reject_reason,
    sequence: row.sequence === null ? null : Number(row.sequence),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export const ORDER_COLUMNS = [
  'id',
  'account_id',
  'market_id',
  'client_order_id',
  'side',
  'type',
  'time_in_force',
  'post_only',
  'reduce_only',
  'close_position',
  'origin',
  'price',
  'stop_price',
  'quantity',
  'filled_quantity',
  'filled_cost',
  'fee',
  'realised_pnl',
  'order_margin',
  'take_profit_price',
  'stop_loss_price',
  'status',
  'triggered',
  'reject_reason',
  'sequence',
  'created_at',
  'updated_at',
] as const;

const priceOrNull = (spec: FuturesMarketSpec, value: number | null) =>
  value === null ? null : unitsText(value, spec.priceDecimals);

/** The row's values in ORDER_COLUMNS order. */
export function orderValues(spec: FuturesMarketSpec, o: FuturesOrderState): unknown[] {
  return [
    o.id,
    o.accountId,
    o.marketId,
    o.clientOrderId,
    o.side,
    o.type,
    o.timeInForce,
    o.postOnly,
    o.reduceOnly,
    o.closePosition,
    o.origin,
    priceOrNull(spec, o.priceTicks),
    priceOrNull(spec, o.stopTicks),
    unitsText(o.quantityLots, spec.quantityDecimals),
    unitsText(o.filledLots, spec.quantityDecimals),
    o.filledCost.toString(),
    moneyText(o.fee),
    moneyText(o.realisedPnl),
    moneyText(o.orderMargin),
    priceOrNull(spec, o.takeProfitTicks),
    priceOrNull(spec, o.stopLossTicks),
    o.status,
    o.triggered,
    o.rejectReason,
    o.sequence,
    o.createdAt,
    o.updatedAt,
  ];
}

export const POSITION_COLUMNS = [
  'account_id',
  'market_id',
  'size_lots',
  'cost_tick_lots',
  'isolated_margin',
  'realised_pnl',
  'take_profit_price',
  'stop_loss_price',
  'updated_at',
] as const;

export function positionValues(spec: FuturesMarketSpec, p: PositionState): unknown[] {
  return [
    p.accountId,
    p.marketId,
    p.sizeLots,
    p.costTickLots.toString(),
    moneyText(p.isolatedMargin),
    moneyText(p.realisedPnl),
    priceOrNull(spec, p.takeProfitTicks),
    priceOrNull(spec, p.stopLossTicks),
    p.updatedAt,
  ];
}

/** The order as the API shows it. */
export function orderView(spec: FuturesMarketSpec, o: FuturesOrderState): FuturesOrder {
  const average =
    o.filledLots > 0 ? unitsText((o.filledCost * 10n ** 2n) / BigInt(o.filledLots), spec.priceDecimals + 2) : null;
  return {
    id: o.id,
    client_order_id: o.clientOrderId,
    market: o.marketId,
    side: o.side,
    type: o.type,
    status: o.status,
    time_in_force: o.timeInForce,
    post_only: o.postOnly,
    reduce_only: o.reduceOnly,
    close_position: o.closePosition,
    price: priceOrNull(spec, o.priceTicks),
    stop_price: priceOrNull(spec, o.stopTicks),
    quantity: unitsText(o.quantityLots, spec.quantityDecimals),
    filled_quantity: unitsText(o.filledLots, spec.quantityDecimals),
    average_price: average,
    fee: moneyText(o.fee),
    realised_pnl: moneyText(o.realisedPnl),
    triggered: o.triggered,
    origin: o.origin,
    reject_reason: o.rejectReason,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}
