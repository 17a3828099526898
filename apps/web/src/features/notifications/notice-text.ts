import { isOrderNoticeKey, type Notification } from '@platform/contracts';
import type { TFunction } from 'i18next';
import { i18n } from '../../i18n/i18n.ts';
import { MISSING_VALUE } from '../../lib/format.ts';
import { formatCurrencyAmount } from '../../lib/number-format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { shortenAddress } from '../../lib/wallet-format.ts';

/**
 * A stored notification in the reader's language (docs/i18n.md "Server texts"): the server sends a
 * text key and raw params beside its English; the texts are notices.<key>.title / .message with the
 * amounts formatted at their currency's precision. A notification without a key (stored before
 * keys existed, or seeded on this device) or with a key this client does not know shows its own words.
 */
type Params = Record<string, string | number>;
type Texted = Pick<Notification, 'title' | 'message' | 'textKey' | 'params'>;

export function noticeText(notification: Texted, t: TFunction = i18n.t): { title: string; message: string } {
  const key = notification.textKey;
  if (!key || !/^[a-zA-Z]+$/.test(key) || !i18n.exists(`notices.${key}.title`)) {
    return { title: notification.title, message: notification.message };
  }
  const params = notification.params ?? {};
  const title = translateMessage(t, `notices.${key}.title`);
  const message = isOrderNoticeKey(key) ? orderMessage(key, params, t) : otherMessage(key, params, t);
  return { title, message };
}

const text = (params: Params, name: string) => String(params[name] ?? '');
const amountIn = (params: Params, name: string, currency: string) => {
  const value = params[name];
  if (value === undefined) return MISSING_VALUE;
  return formatCurrencyAmount(String(value), currency);
};

function otherMessage(key: string, params: Params, t: TFunction): string {
  const currency = text(params, 'currency');
  const futures = key.startsWith('position');
  const side = text(params, 'side');
  const values: Params = {
    ...params,
    ...(currency ? { amount: amountIn(params, 'amount', currency), total: amountIn(params, 'total', currency) } : {}),
    ...(params.address === undefined ? {} : { address: shortenAddress(text(params, 'address')) }),
    ...(futures
      ? {
          size: amountIn(params, 'size', text(params, 'base')),
          price: amountIn(params, 'price', 'USD'),
          side: side === 'long' || side === 'short' ? translateMessage(t, `notices.positionSides.${side}`) : side,
        }
      : {}),
    ...(key === 'withdrawalFailed' && params.reason === undefined
      ? { reason: translateMessage(t, 'notices.withdrawalFailed.providerRefused') }
      : {}),
  };
  return translateMessage(t, `notices.${key}.message`, values);
}

/** 'Buy 0.5 BTC at 67,250.00 USD', then what became of it, as the server's English says it. */
function orderMessage(key: string, params: Params, t: TFunction): string {
  const base = text(params, 'base');
  const quote = text(params, 'quote');
  const buy = params.side !== 'sell';
  const what =
    params.quantity === undefined
      ? translateMessage(t, buy ? 'notices.order.buyFunds' : 'notices.order.sellFunds', {
          base,
          quote,
          amount: amountIn(params, 'quoteAmount', quote),
        })
      : translateMessage(t, buy ? 'notices.order.buyQuantity' : 'notices.order.sellQuantity', {
          base,
          quantity: amountIn(params, 'quantity', base),
        });
  let order =
    params.price === undefined
      ? translateMessage(t, 'notices.order.atMarket', { what })
      : translateMessage(t, 'notices.order.atPrice', { what, quote, price: amountIn(params, 'price', quote) });
  if (params.stopPrice !== undefined) {
    order = translateMessage(t, 'notices.order.withStop', {
      order,
      quote,
      price: amountIn(params, 'stopPrice', quote),
    });
  }
  const quantity = amountIn(params, 'filled', base);
  const filled =
    params.averagePrice === undefined
      ? `${quantity} ${base}`
      : translateMessage(t, 'notices.order.filledAt', {
          quantity,
          base,
          quote,
          price: amountIn(params, 'averagePrice', quote),
        });
  switch (key) {
    case 'orderFilled':
      return translateMessage(t, buy ? 'notices.order.bought' : 'notices.order.sold', { filled });
    case 'orderCancelled':
      return params.averagePrice === undefined
        ? order
        : translateMessage(t, 'notices.order.cancelledPartly', { order, filled });
    case 'orderRejected':
      return params.reason === undefined
        ? order
        : translateMessage(t, 'notices.order.rejected', { order, reason: rejectReason(text(params, 'reason'), t) });
    case 'orderExpired':
      return translateMessage(t, 'notices.order.expired', { order });
    case 'orderCompleted':
      return translateMessage(t, 'notices.order.completed', { order, filled });
    default:
      return order;
  }
}

/** A reject reason code in words: the translation when there is one, else the code's own words. */
function rejectReason(code: string, t: TFunction): string {
  const fallback = code.replaceAll('_', ' ');
  if (!/^[a-z_]+$/.test(code)) return fallback;
  return (t as unknown as (key: string, options: object) => string)(`notices.rejectReasons.${code}`, {
    defaultValue: fallback,
  });
}
