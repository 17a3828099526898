import type { FuturesOrderType, MarginMode } from '@platform/contracts';

/**
 * Where the exchange reads a market's mark, index and funding rate. The running module is handed
 * one (modules/futures/marks.ts); without it, or before it has a mark, the index (the spot pair's
 * reference price) stands in. Never the last trade.
 */
export interface FuturesMarkSource {
  mark(
    marketId: string,
  ): { markTicks: number; indexTicks: number; fundingRate: bigint; nextFundingTime: number } | null;
}

export type FuturesOrigin = 'user' | 'liquidation' | 'adl' | 'tpsl';
export type FuturesOrderStatus = 'pending' | 'partial' | 'filled' | 'completed' | 'cancelled' | 'expired' | 'rejected';

/** An order as the exchange keeps it: ticks, lots and money units (docs/futures.md). */
export interface FuturesOrderState {
  id: string;
  accountId: string;
  marketId: string;
  clientOrderId: string | null;
  side: 'buy' | 'sell';
  type: FuturesOrderType;
  timeInForce: 'GTC' | 'IOC' | 'FOK';
  postOnly: boolean;
  reduceOnly: boolean;
  closePosition: boolean;
  origin: FuturesOrigin;
  priceTicks: number | null;
  stopTicks: number | null;
  quantityLots: number;
  filledLots: number;
  /** Σ lots x ticks of the fills. */
  filledCost: bigint;
  fee: bigint;
  realisedPnl: bigint;
  /** Margin the open order reserves from available (not a ledger hold). */
  orderMargin: bigint;
  takeProfitTicks: number | null;
  stopLossTicks: number | null;
  status: FuturesOrderStatus;
  triggered: boolean;
  rejectReason: string | null;
  /** Engine sequence of its placement: time priority when the books are rebuilt. */
  sequence: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PositionState {
  accountId: string;
  marketId: string;
  sizeLots: number;
  costTickLots: bigint;
  isolatedMargin: bigint;
  realisedPnl: bigint;
  takeProfitTicks: number | null;
  stopLossTicks: number | null;
  updatedAt: Date;
}

export interface SettingsState {
  accountId: string;
  marketId: string;
  leverage: number;
  mode: MarginMode;
}

/** The futures wallet as the ledger holds it (money units): available (cross wallet) and locked (isolated margins). */
export interface WalletState {
  available: bigint;
  locked: bigint;
}

export const DEFAULT_LEVERAGE = 20;
export const DEFAULT_MARGIN_MODE: MarginMode = 'cross';
/** TP/SL and close-position orders follow their position's size (upkeep.ts) and close whatever it is when they trade. */
export const followsPosition = (order: Pick<FuturesOrderState, 'closePosition' | 'origin'>) =>
  order.closePosition || order.origin === 'tpsl';

export const futuresKey = (accountId: string, marketId: string) => `${accountId}|${marketId}`;
