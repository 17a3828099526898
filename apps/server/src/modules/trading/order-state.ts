import type { Order, OrderSide, OrderStatus, OrderType } from '@platform/contracts';
import type { SelfTradePreventionMode, TimeInForce } from '@platform/engine';
import { formatDecimal } from '@platform/money';
import {
  atomsText,
  bandCeilTicks,
  bandFloorTicks,
  feeAtoms,
  lotsToAtoms,
  maxFeePercent,
  notionalAtoms,
  notionalToAtoms,
  type PairSpec,
  priceText,
  quantityText,
} from './pair-spec.ts';

/**
 * An order as the server keeps it: the row of the orders table in exact units. Open orders also
 * live in memory in their market's sequencer, which is the only writer of the orders table.
 */
export interface OrderState {
  id: string;
  accountId: string;
  clientOrderId: string | null;
  pairId: string;
  side: OrderSide;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  selfTradePrevention: SelfTradePreventionMode | null;
  priceTicks: number | null;
  stopPriceTicks: number | null;
  stopLimitPriceTicks: number | null;
  /** Base quantity in lots; null for a market order by quote amount until it ends. */
  quantityLots: number | null;
  /** Quote amount in notional units (ticks x lots) for a market order by quote amount. */
  quoteNotional: bigint | null;
  /** The lot cap given to the engine for an order by quote amount. */
  lotCap: number;
  filledLots: number;
  /** Quote value of the fills, in atoms. */
  filledTotal: bigint;
  /** Fees paid, in atoms of the quote currency. */
  fee: bigint;
  reserveCurrency: string;
  /** Atoms still held for the order. */
  reserved: bigint;
  /** The reference price (ticks) the order was priced and band-checked with. */
  referenceTicks: number | null;
  status: OrderStatus;
  triggered: boolean;
  rejectReason: string | null;
  /** Why a closed order ended: filled, cancelled, expired, self_trade_prevented. */
  endReason: string | null;
  sequence: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const isOpenStatus = (status: OrderStatus) => status === 'pending' || status === 'partial';

/**
 * The funds an order must hold for its open part (in atoms of reserveCurrency): the base for a sell;
 * for a buy, the most its open lots can cost at the worst price it may trade at, plus the larger fee.
 * A stop market may trade up to the price band above its stop; a market order up to the band above
 * the reference price. Zero means the order cannot be priced (no reference price for a market buy).
 */
export function requiredReserve(
  spec: PairSpec,
  order: Pick<
    OrderState,
    'side' | 'type' | 'priceTicks' | 'stopPriceTicks' | 'stopLimitPriceTicks' | 'quoteNotional' | 'filledTotal'
  > & { openLots: number },
  bandBps: number,
  referenceTicks: number | null,
): bigint {
  if (order.side === 'sell') return lotsToAtoms(spec, order.openLots);
  const fee = maxFeePercent(spec);
  const withFee = (atoms: bigint) => atoms + feeAtoms(atoms, fee);
  if (order.quoteNotional !== null) {
    const budget = notionalToAtoms(spec, order.quoteNotional) - order.filledTotal;
    return budget > 0n ? withFee(budget) : 0n;
  }
  const worst = worstBuyPrice(order, bandBps, referenceTicks);
  if (worst === null) return 0n;
  return withFee(notionalAtoms(spec, worst, order.openLots));
}

function worstBuyPrice(
  order: Pick<OrderState, 'type' | 'priceTicks' | 'stopPriceTicks' | 'stopLimitPriceTicks'>,
  bandBps: number,
  referenceTicks: number | null,
): number | null {
  switch (order.type) {
    case 'limit':
    case 'stop_limit':
    case 'take_profit_limit':
      return order.priceTicks;
    case 'market':
      return referenceTicks === null ? null : bandCeilTicks(referenceTicks, bandBps);
    case 'stop_loss':
    case 'take_profit':
      return order.stopPriceTicks === null ? null : bandCeilTicks(order.stopPriceTicks, bandBps);
    case 'oco': {
      const stopLeg =
        order.stopLimitPriceTicks ??
        (order.stopPriceTicks === null ? null : bandCeilTicks(order.stopPriceTicks, bandBps));
      if (order.priceTicks === null || stopLeg === null) return null;
      return Math.max(order.priceTicks, stopLeg);
    }
  }
}

/** The lots a sell by quote amount may need at most: the amount at the lowest price the band allows. */
export function sellLotCapForQuote(quoteNotional: bigint, referenceTicks: number, bandBps: number): number {
  const floor = BigInt(bandFloorTicks(referenceTicks, bandBps));
  const lots = (quoteNotional + floor - 1n) / floor;
  return lots > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(lots);
}

function average(spec: PairSpec, order: OrderState): string | null {
  if (order.filledLots === 0) return null;
  // total (atoms) / quantity, shown at the pair's price precision, rounded to nearest.
  const quantityAtoms = lotsToAtoms(spec, order.filledLots);
  const scaled = order.filledTotal * 10n ** BigInt(spec.pricePrecision);
  const units = (scaled * 2n + quantityAtoms) / (quantityAtoms * 2n);
  return formatDecimal({ units, scale: spec.pricePrecision });
}

export function toOrderView(spec: PairSpec, order: OrderState): Order {
  const price = (ticks: number | null) => (ticks === null ? null : priceText(spec, ticks));
  const quantity = order.quantityLots === null ? null : quantityText(spec, order.quantityLots);
  const remaining =
    order.quantityLots === null ? null : quantityText(spec, Math.max(0, order.quantityLots - order.filledLots));
  return {
    id: order.id,
    client_order_id: order.clientOrderId,
    account_id: order.accountId,
    trading_pair: spec.id,
    symbol: spec.symbol,
    side: order.side,
    type: order.type,
    status: order.status,
    time_in_force: order.timeInForce,
    post_only: order.postOnly,
    price: price(order.priceTicks),
    stop_price: price(order.stopPriceTicks),
    stop_limit_price: price(order.stopLimitPriceTicks),
    quantity,
    quote_amount:
      order.quoteNotional === null
        ? null
        : formatDecimal({ units: order.quoteNotional, scale: spec.pricePrecision + spec.quantityPrecision }),
    filled_quantity: quantityText(spec, order.filledLots),
    remaining_quantity: isOpenStatus(order.status) ? remaining : remaining === null ? null : '0',
    average_price: average(spec, order),
    total: atomsText(order.filledTotal),
    fee: atomsText(order.fee),
    fee_currency: spec.quote,
    triggered: order.triggered,
    reject_reason: order.rejectReason,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}
