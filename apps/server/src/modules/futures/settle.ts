import { perp } from '@platform/engine';
import { type Batch, CLEARING, EntryBuilder, FEES, FUTURES_WALLET, INSURANCE } from './batch.ts';
import type { FuturesMarketSpec } from './markets.ts';
import type { FuturesState } from './state.ts';
import type { FuturesOrderState, PositionState, WalletState } from './types.ts';

export interface FillInput {
  tradeId: string;
  order: FuturesOrderState;
  role: 'maker' | 'taker';
  priceTicks: number;
  lots: number;
  now: Date;
}

/**
 * Settles one side of a trade into its position and the ledger (docs/futures.md): realised P&L
 * against futures_clearing, the fee to futures_fees, isolated margin posted at the opening part's
 * initial margin and released in proportion on a reduction. A balance that cannot pay (a loss
 * beyond the collateral) is made good by the insurance fund (income insurance_clear).
 */
export function settleFill(state: FuturesState, batch: Batch, fill: FillInput): void {
  const { order } = fill;
  const spec = state.markets.get(order.marketId)!;
  const position = state.position(order.accountId, order.marketId);
  const setting = state.setting(order.accountId, order.marketId);
  const wallet = state.wallet(order.accountId);
  const before = { sizeLots: position.sizeLots, costTickLots: position.costTickLots };
  const effect = perp.applyFill(spec, before, order.side, fill.lots, fill.priceTicks);
  const notional = perp.notionalMoney(spec, fill.priceTicks, fill.lots);
  // The liquidation engine's own orders pay no trading fee (the liquidation fee stands instead), nor do ADL closes.
  const exempt = order.origin === 'liquidation' || order.origin === 'adl';
  const rate = exempt ? 0n : fill.role === 'maker' ? spec.makerFee : spec.takerFee;
  const fee = perp.divCeil(notional * rate, perp.RATE_SCALE);
  const entry = new EntryBuilder('futures_trade', `${order.marketId}:${fill.tradeId}:${fill.role}`);
  const user = FUTURES_WALLET(order.accountId);
  entry.move([CLEARING, 'available'], [user, setting.mode === 'isolated' ? 'locked' : 'available'], effect.realisedPnl);
  if (setting.mode === 'isolated') {
    const marginBefore = position.isolatedMargin;
    wallet.locked += effect.realisedPnl;
    position.isolatedMargin += effect.realisedPnl;
    releaseIsolated(state, batch, entry, { position, before, effect, wallet, marginBefore });
    const opened = perp.notionalMoney(spec, fill.priceTicks, effect.openedLots);
    const im = effect.openedLots > 0 ? perp.initialMargin(opened, setting.leverage) : 0n;
    const posted = im < wallet.available ? im : wallet.available > 0n ? wallet.available : 0n;
    entry.move([user, 'available'], [user, 'locked'], posted);
    wallet.available -= posted;
    wallet.locked += posted;
    position.isolatedMargin += posted;
  } else {
    wallet.available += effect.realisedPnl;
  }
  entry.move([user, 'available'], [FEES, 'available'], fee);
  wallet.available -= fee;
  coverShortfall(state, batch, entry, order.accountId, order.marketId);
  batch.addEntry(entry);
  recordFill(spec, batch, fill, { effect, fee, position });
}

type Release = {
  position: PositionState;
  before: perp.PerpPosition;
  effect: perp.FillEffect;
  wallet: WalletState;
  /** The position's margin before this fill's realised P&L. */
  marginBefore: bigint;
};

/**
 * An isolated reduction gives back the closed part's share of the margin with its own realised P&L
 * (all of it when the position closes or flips): the rest keeps its proportional margin, so a
 * reduction never moves the rest's liquidation price; a loss beyond the closed part's share is
 * taken from the rest's margin.
 */
function releaseIsolated(state: FuturesState, batch: Batch, entry: EntryBuilder, release: Release): void {
  const { position, before, effect, wallet, marginBefore } = release;
  if (effect.closedLots === 0) return;
  let margin = position.isolatedMargin;
  if (margin < 0n) {
    // A loss beyond the posted margin: the insurance fund makes it good.
    pay(state, batch, entry, position.accountId, position.marketId, 'locked', -margin);
    wallet.locked += -margin;
    margin = 0n;
  }
  const oldSize = BigInt(Math.abs(before.sizeLots));
  const share = (marginBefore * BigInt(effect.closedLots)) / oldSize + effect.realisedPnl; // floor: against the trader
  const released =
    effect.closedLots === Math.abs(before.sizeLots) ? margin : share <= 0n ? 0n : share < margin ? share : margin;
  const user = FUTURES_WALLET(position.accountId);
  entry.move([user, 'locked'], [user, 'available'], released);
  wallet.locked -= released;
  wallet.available += released;
  position.isolatedMargin = margin - released;
}

/** The insurance fund pays `amount` into the user's bucket (income insurance_clear). */
function pay(
  state: FuturesState,
  batch: Batch,
  entry: EntryBuilder,
  accountId: string,
  marketId: string,
  bucket: 'available' | 'locked',
  amount: bigint,
): void {
  entry.move([INSURANCE, 'available'], [FUTURES_WALLET(accountId), bucket], amount);
  state.insuranceFund -= amount;
  batch.income.push({ accountId, type: 'insurance_clear', marketId, amount, reference: entry.reference });
}

/** A wallet the fill took below zero is brought back to zero by the insurance fund. */
function coverShortfall(state: FuturesState, batch: Batch, entry: EntryBuilder, accountId: string, marketId: string) {
  const wallet = state.wallet(accountId);
  if (wallet.available >= 0n) return;
  const shortfall = -wallet.available;
  pay(state, batch, entry, accountId, marketId, 'available', shortfall);
  wallet.available = 0n;
}

function recordFill(
  spec: FuturesMarketSpec,
  batch: Batch,
  fill: FillInput,
  done: { effect: perp.FillEffect; fee: bigint; position: PositionState },
): void {
  const { order } = fill;
  const { effect, fee, position } = done;
  position.sizeLots = effect.position.sizeLots;
  position.costTickLots = effect.position.costTickLots;
  position.realisedPnl += effect.realisedPnl;
  position.updatedAt = fill.now;
  const remainingBefore = order.quantityLots - order.filledLots;
  order.filledLots += fill.lots;
  order.filledCost += BigInt(fill.lots) * BigInt(fill.priceTicks);
  order.fee += fee;
  order.realisedPnl += effect.realisedPnl;
  order.status = order.filledLots >= order.quantityLots ? 'filled' : 'partial';
  order.orderMargin =
    remainingBefore > 0 ? ceilMul(order.orderMargin, remainingBefore - fill.lots, remainingBefore) : 0n;
  order.updatedAt = fill.now;
  batch.touchOrder(order);
  batch.touchPosition(position, 'fill');
  batch.fills.push({
    id: `${spec.id}:${fill.tradeId}`,
    orderId: order.id,
    accountId: order.accountId,
    marketId: spec.id,
    side: order.side,
    role: fill.role,
    priceTicks: fill.priceTicks,
    lots: fill.lots,
    fee,
    realisedPnl: effect.realisedPnl,
    executedAt: fill.now,
  });
  const reference = `${spec.id}:${fill.tradeId}:${fill.role}`;
  if (effect.realisedPnl !== 0n) {
    batch.income.push({
      accountId: order.accountId,
      type: 'realised_pnl',
      marketId: spec.id,
      amount: effect.realisedPnl,
      reference,
    });
  }
  if (fee !== 0n)
    batch.income.push({ accountId: order.accountId, type: 'fee', marketId: spec.id, amount: -fee, reference });
}

/** ceil(value x numerator / denominator). */
function ceilMul(value: bigint, numerator: number, denominator: number): bigint {
  if (numerator <= 0) return 0n;
  return perp.divCeil(value * BigInt(numerator), BigInt(denominator));
}
