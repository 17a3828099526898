import type { NoticeKey, NotificationParams, NotificationSeverity, Order } from '@platform/contracts';
import type {
  OrderEvent,
  OrderEventBatch,
  OrderEventKind,
  OrderEventMarket,
  OrderEventWriter,
} from '../../events/orders.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { addInsertNotifications, type NewNotification, publishNotifications } from './service.ts';

/** Spec §4 order notifications: placed (info), filled (success), cancelled (warning), rejected (error). */
const ORDER_NOTICES: Record<OrderEventKind, { title: string; severity: NotificationSeverity; textKey: NoticeKey }> = {
  placed: { title: 'Order placed', severity: 'info', textKey: 'orderPlaced' },
  filled: { title: 'Order filled', severity: 'success', textKey: 'orderFilled' },
  cancelled: { title: 'Order cancelled', severity: 'warning', textKey: 'orderCancelled' },
  rejected: { title: 'Order rejected', severity: 'error', textKey: 'orderRejected' },
  expired: { title: 'Order expired', severity: 'warning', textKey: 'orderExpired' },
  completed: { title: 'Order closed', severity: 'warning', textKey: 'orderCompleted' },
};

/**
 * The notifications of one batch's order events. An order placed and closed in the same batch
 * (a market order that filled at once, an IOC that found nothing) gets only its closing notice: the
 * placement already answered the user's request, and a second notice would say nothing new.
 * Accounts in skipAccounts (the house's market makers) get none.
 */
export function orderNotifications(batch: OrderEventBatch, skipAccounts: ReadonlySet<string>): NewNotification[] {
  const { market, events } = batch;
  const closedInBatch = new Set(events.filter((event) => event.kind !== 'placed').map((event) => event.order.id));
  const notices: NewNotification[] = [];
  events.forEach((event, index) => {
    if (skipAccounts.has(event.order.accountId)) return;
    if (event.kind === 'placed' && closedInBatch.has(event.order.id)) return;
    notices.push(orderNotification(market, event, batch.view(index)));
  });
  return notices;
}

/**
 * Trading's writer is handed this (through the composition root): the order notifications of the
 * batches it writes, as part of its one statement (written only when `gate` holds), and the push to
 * run once that has committed.
 */
const TRIM_EVERY = 20;

export function orderNotificationsPart(pubsub: PubSub, skipAccounts: ReadonlySet<string>): OrderEventWriter {
  // Trimming to the cap costs a ranking query; in the order path it runs for an account once every
  // TRIM_EVERY notifications, so a busy account holds at most that many extra rows for a moment.
  const sinceTrim = new Map<string, number>();
  return (batches, stmt, gate) => {
    const rows = batches.flatMap((batch) => orderNotifications(batch, skipAccounts));
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
    const stored = addInsertNotifications(stmt, rows, trimAccounts, gate);
    return () => publishNotifications(pubsub, stored);
  };
}

function orderNotification(spec: OrderEventMarket, change: OrderEvent, order: Order): NewNotification {
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
    textKey: notice.textKey,
    params: orderParams(spec, order),
    metadata: {
      tradingPair: spec.id,
      orderId: order.id,
      ...(amount === undefined ? {} : { amount }),
      ...(price === null ? {} : { price }),
    },
    createdAt: change.order.updatedAt,
  };
}

/** The order's raw values for the client's text: codes and decimal strings, absent when they do not apply. */
function orderParams(spec: OrderEventMarket, order: Order): NotificationParams {
  const optional = {
    quantity: order.quantity,
    quoteAmount: order.quantity === null ? (order.quote_amount ?? '0') : null,
    price: order.price,
    stopPrice: order.stop_price,
    averagePrice: order.average_price,
    reason: order.reject_reason,
  };
  const params: NotificationParams = {
    pair: spec.id,
    base: spec.base,
    quote: spec.quote,
    side: order.side,
    type: order.type,
    filled: order.filled_quantity,
  };
  for (const [name, value] of Object.entries(optional)) if (value !== null) params[name] = value;
  return params;
}

/** 'Buy 0.5 BTC at 67,250.00 USD', then what became of it. */
function orderMessage(spec: OrderEventMarket, order: Order, kind: OrderEventKind): string {
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

function describeOrder(spec: OrderEventMarket, order: Order): string {
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
