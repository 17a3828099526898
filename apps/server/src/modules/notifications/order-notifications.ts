import type { NotificationSeverity, Order } from '@platform/contracts';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { OrderChange } from '../trading/batch-effects.ts';
import { toOrderView } from '../trading/order-state.ts';
import type { PairSpec } from '../trading/pair-spec.ts';
import { insertNotificationsPart, type NewNotification, publishNotifications } from './service.ts';

type OrderChangeKind = OrderChange['kind'];

/** Spec §4 order notifications: placed (info), filled (success), cancelled (warning), rejected (error). */
const ORDER_NOTICES: Record<OrderChangeKind, { title: string; severity: NotificationSeverity }> = {
  placed: { title: 'Order placed', severity: 'info' },
  filled: { title: 'Order filled', severity: 'success' },
  cancelled: { title: 'Order cancelled', severity: 'warning' },
  rejected: { title: 'Order rejected', severity: 'error' },
  expired: { title: 'Order expired', severity: 'warning' },
  completed: { title: 'Order closed', severity: 'warning' },
};

/**
 * The notifications of one batch's order changes. An order placed and closed in the same batch
 * (a market order that filled at once, an IOC that found nothing) gets only its closing notice: the
 * placement already answered the user's request, and a second notice would say nothing new.
 * Accounts in skipAccounts (the house's market makers) get none.
 */
export function orderNotifications(
  spec: PairSpec,
  changes: readonly OrderChange[],
  skipAccounts: ReadonlySet<string>,
): NewNotification[] {
  const closedInBatch = new Set(changes.filter((change) => change.kind !== 'placed').map((change) => change.order.id));
  return changes
    .filter((change) => !skipAccounts.has(change.order.accountId))
    .filter((change) => change.kind !== 'placed' || !closedInBatch.has(change.order.id))
    .map((change) => orderNotification(spec, change));
}

/**
 * The trading writer's hook: the order notifications of the batches it writes, as part of its one
 * statement (written only when `gate` holds), and the push to run once that has committed.
 */
const TRIM_EVERY = 20;

export function orderNotificationsPart(pubsub: PubSub, skipAccounts: ReadonlySet<string>) {
  // Trimming to the cap costs a ranking query; in the order path it runs for an account once every
  // TRIM_EVERY notifications, so a busy account holds at most that many extra rows for a moment.
  const sinceTrim = new Map<string, number>();
  return (
    groups: readonly { spec: PairSpec; changes: OrderChange[] }[],
    offset: number,
    gate: string,
  ): { ctes: string; params: unknown[]; after: () => void } | null => {
    const rows = groups.flatMap(({ spec, changes }) => orderNotifications(spec, changes, skipAccounts));
    if (rows.length === 0) return null;
    const trimAccounts: string[] = [];
    for (const row of rows) {
      const count = (sinceTrim.get(row.accountId) ?? TRIM_EVERY - 1) + 1;
      if (count >= TRIM_EVERY) {
        if (!trimAccounts.includes(row.accountId)) trimAccounts.push(row.accountId);
        sinceTrim.set(row.accountId, 0);
      } else {
        sinceTrim.set(row.accountId, count);
      }
    }
    if (sinceTrim.size > 100_000) sinceTrim.clear();
    const part = insertNotificationsPart(rows, trimAccounts, offset, gate);
    return { ctes: part.ctes, params: part.params, after: () => publishNotifications(pubsub, part.stored) };
  };
}

function orderNotification(spec: PairSpec, change: OrderChange): NewNotification {
  const order = toOrderView(spec, change.order);
  const notice = ORDER_NOTICES[change.kind];
  const reportsFills = change.kind === 'filled' || change.kind === 'completed';
  const amount = reportsFills ? order.filled_quantity : (order.quantity ?? undefined);
  const price = reportsFills ? order.average_price : order.price;
  return {
    accountId: change.order.accountId,
    type: 'order',
    title: notice.title,
    message: orderMessage(spec, order, change.kind),
    severity: notice.severity,
    actionUrl: `/trade?pair=${spec.symbol}`,
    metadata: {
      tradingPair: spec.id,
      orderId: order.id,
      ...(amount === undefined ? {} : { amount }),
      ...(price === null ? {} : { price }),
    },
    createdAt: change.order.updatedAt,
  };
}

/** 'Buy 0.5 BTC at 67,250.00 USD', then what became of it. */
function orderMessage(spec: PairSpec, order: Order, kind: OrderChangeKind): string {
  const described = describeOrder(spec, order);
  const filled = `${quantityShown(order.filled_quantity)} ${spec.base}`;
  const averagePrice = order.average_price === null ? '' : ` at ${priceShown(order.average_price)} ${spec.quote}`;
  switch (kind) {
    case 'placed':
      return described;
    case 'filled':
      return `${order.side === 'buy' ? 'Bought' : 'Sold'} ${filled}${averagePrice}`;
    case 'cancelled':
      return order.average_price === null ? described : `${described} (${filled} filled${averagePrice})`;
    case 'rejected':
      return order.reject_reason === null ? described : `${described}: ${order.reject_reason.replaceAll('_', ' ')}`;
    case 'expired':
      return `${described}: nothing could be filled`;
    case 'completed':
      return `${described}: ${filled} filled${averagePrice}, the rest was closed`;
  }
}

function describeOrder(spec: PairSpec, order: Order): string {
  const side = order.side === 'buy' ? 'Buy' : 'Sell';
  const what =
    order.quantity === null
      ? `${side} ${spec.base} for ${priceShown(order.quote_amount ?? '0')} ${spec.quote}`
      : `${side} ${quantityShown(order.quantity)} ${spec.base}`;
  const at = order.price === null ? 'at market' : `at ${priceShown(order.price)} ${spec.quote}`;
  const stop = order.stop_price === null ? '' : `, stop ${priceShown(order.stop_price)} ${spec.quote}`;
  return `${what} ${at}${stop}`;
}

/** A quantity without trailing zeros: 0.50000000 reads 0.5. */
function quantityShown(decimal: string): string {
  return groupThousands(trimZeros(decimal, 0));
}

/** A price or quote amount with at least two decimals: 100.0000000000 reads 100.00. */
function priceShown(decimal: string): string {
  return groupThousands(trimZeros(decimal, 2));
}

function trimZeros(decimal: string, keepDecimals: number): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  let end = fraction.length;
  while (end > keepDecimals && fraction[end - 1] === '0') end--;
  return end === 0 ? whole : `${whole}.${fraction.slice(0, end)}`;
}

function groupThousands(decimal: string): string {
  const [whole = '0', fraction] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
