import { perp } from '@platform/engine';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { InsertNotifications, NewNotification } from '../notifications/service.ts';
import { publishNotifications } from '../notifications/service.ts';
import type { Batch } from './batch.ts';
import type { LiquidationOutcome } from './liquidation.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { type MarkOf, riskOf } from './risk.ts';
import type { FuturesState } from './state.ts';
import type { PositionState } from './types.ts';
import { unitsText } from './units.ts';

/** The margin ratio (maintenance / margin balance, RATE_SCALE) at which a margin call goes out: 0.8 unless configured. */
export const DEFAULT_MARGIN_CALL_RATIO = 80_000_000n;

/** FUTURES_MARGIN_CALL_RATIO ('0.8'): a decimal fraction strictly between 0 and 1; the default otherwise. */
export function marginCallRatio(text: string | undefined): bigint {
  if (text === undefined || text.trim() === '') return DEFAULT_MARGIN_CALL_RATIO;
  const rate = perp.decimalToRate(text.trim());
  if (rate === null || rate <= 0n || rate >= perp.RATE_SCALE) {
    throw new Error('FUTURES_MARGIN_CALL_RATIO must be a decimal between 0 and 1 (exclusive), e.g. 0.8');
  }
  return rate;
}

/** Stores notifications in the batch's transaction and pushes them once it has committed. */
export type Notifier = (batch: Batch, rows: readonly NewNotification[]) => void;

export function batchNotifier(insert: InsertNotifications, pubsub: PubSub): Notifier {
  return (batch, rows) => {
    if (rows.length === 0) return;
    let stored: Awaited<ReturnType<InsertNotifications>> = [];
    batch.writes.push(async (tx) => {
      stored = await insert(tx, rows);
    });
    batch.afterCommit.push(() => publishNotifications(pubsub, stored));
  };
}

const sideText = (side: 'long' | 'short') => side;

/** "Position liquidated" for the trader, "Position deleveraged" for each ADL counterparty. */
export function liquidationNotices(spec: FuturesMarketSpec, outcome: LiquidationOutcome, now: Date): NewNotification[] {
  if (outcome.status === 'not_liquidatable') return [];
  const price = unitsText(outcome.markTicks, spec.priceDecimals);
  const lots = outcome.bookLots + outcome.insuranceLots + outcome.adl.reduce((sum, close) => sum + close.lots, 0);
  const size = unitsText(lots, spec.quantityDecimals);
  const partial = outcome.status === 'partial';
  const notices: NewNotification[] = [
    {
      accountId: outcome.accountId,
      type: 'trade',
      title: partial ? 'Position partially liquidated' : 'Position liquidated',
      message: `${size} of your ${spec.id} ${sideText(outcome.side)} position was liquidated at mark price ${price}${
        partial ? '; the rest is back above its maintenance margin' : ''
      }.`,
      severity: 'error',
      actionUrl: null,
      textKey: partial ? 'positionPartiallyLiquidated' : 'positionLiquidated',
      params: { pair: spec.id, base: spec.base, side: outcome.side, size, price },
      metadata: { tradingPair: spec.id, amount: size, price },
      createdAt: now,
    },
  ];
  const counterSide = outcome.side === 'long' ? 'short' : 'long';
  for (const close of outcome.adl) {
    const closed = unitsText(close.lots, spec.quantityDecimals);
    const at = unitsText(close.priceTicks, spec.priceDecimals);
    notices.push({
      accountId: close.counterparty,
      type: 'trade',
      title: 'Position deleveraged',
      message: `${closed} of your ${spec.id} ${counterSide} position was closed by auto-deleveraging at ${at}.`,
      severity: 'warning',
      actionUrl: null,
      textKey: 'positionDeleveraged',
      params: { pair: spec.id, base: spec.base, side: counterSide, size: closed, price: at },
      metadata: { tradingPair: spec.id, amount: closed, price: at },
      createdAt: now,
    });
  }
  return notices;
}

/** A cross account from its cross positions (grouped by the caller: one pass over the state); null when its wallet is not loaded. */
export function crossAccountState(
  state: FuturesState,
  accountId: string,
  positions: readonly PositionState[],
  markOf: MarkOf,
): perp.CrossState | null {
  const wallet = state.wallets.get(accountId);
  if (!wallet) return null;
  return perp.crossState({
    walletBalance: wallet.available,
    positions: positions.map((p) => riskOf(state, p, markOf)),
    orderMargin: 0n,
  });
}

/** maintenance / balance >= ratio (or no positive balance), without a division. */
function atOrAbove(maintenance: bigint, balance: bigint, ratio: bigint): boolean {
  if (maintenance <= 0n) return false;
  if (balance <= 0n) return true;
  return maintenance * perp.RATE_SCALE >= ratio * balance;
}

type Called = { accountId: string; marketId: string | null; maintenance: bigint; balance: bigint };

/**
 * Margin calls: one notification when a position's margin ratio (isolated) or a cross account's
 * (maintenance / margin balance) rises to the configured ratio, and none again until it has
 * fallen back below it (kept in memory: a restart may call once more).
 */
export class MarginCalls {
  private readonly called = new Set<string>();
  constructor(private readonly ratio: bigint) {}

  /**
   * The calls due now over every open position of the state. A position in a `skip` market (its
   * index is stale), and a cross account holding one, is neither called nor cleared: decided again
   * once the market is fresh.
   */
  check(state: FuturesState, markOf: MarkOf, skip: (marketId: string) => boolean = () => false): Called[] {
    const seen = new Set<string>();
    const due: Called[] = [];
    const consider = (key: string, call: Called | null) => {
      seen.add(key);
      if (call === null) return;
      if (!atOrAbove(call.maintenance, call.balance, this.ratio)) {
        this.called.delete(key);
        return;
      }
      if (!this.called.has(key)) due.push(call);
      this.called.add(key);
    };
    const crossAccounts = new Map<string, PositionState[]>();
    for (const position of state.positions.values()) {
      if (position.sizeLots === 0) continue;
      const { accountId, marketId } = position;
      if (state.setting(accountId, marketId).mode === 'cross') {
        const group = crossAccounts.get(accountId);
        if (group) group.push(position);
        else crossAccounts.set(accountId, [position]);
        continue;
      }
      if (skip(marketId)) {
        consider(`${accountId}|${marketId}`, null);
        continue;
      }
      const metrics = perp.positionMetrics(riskOf(state, position, markOf));
      const balance = position.isolatedMargin + metrics.unrealisedPnl;
      consider(`${accountId}|${marketId}`, { accountId, marketId, maintenance: metrics.maintenanceMargin, balance });
    }
    for (const [accountId, positions] of crossAccounts) {
      if (positions.some((position) => skip(position.marketId))) {
        consider(`${accountId}|cross`, null);
        continue;
      }
      const cross = crossAccountState(state, accountId, positions, markOf);
      if (!cross) continue;
      const call = { accountId, marketId: null, maintenance: cross.maintenanceMargin, balance: cross.marginBalance };
      consider(`${accountId}|cross`, call);
    }
    // A position that closed may be called again once it is reopened.
    for (const key of [...this.called]) if (!seen.has(key)) this.called.delete(key);
    return due;
  }
}

/** The notification of a margin call. */
export function marginCallNotice(
  state: FuturesState,
  call: { accountId: string; marketId: string | null; maintenance: bigint; balance: bigint },
  now: Date,
): NewNotification {
  const percent = call.balance > 0n ? (call.maintenance * 100n) / call.balance : 100n; // floor: display only
  const spec = call.marketId === null ? undefined : state.markets.get(call.marketId);
  const what = spec ? `Your isolated ${spec.id} position` : 'Your cross margin account';
  return {
    accountId: call.accountId,
    type: 'trade',
    title: 'Margin call',
    message: `${what} is at a margin ratio of ${percent}% (liquidation at 100%). Add margin or reduce the position.`,
    severity: 'warning',
    actionUrl: null,
    textKey: spec ? 'marginCall' : 'marginCallCross',
    params: spec ? { pair: spec.id, ratio: percent.toString() } : { ratio: percent.toString() },
    metadata: spec ? { tradingPair: spec.id } : {},
    createdAt: now,
  };
}
