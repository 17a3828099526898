/**
 * The text keys a stored notification carries, shared by the server that stores them and the client
 * that shows them (docs/i18n.md "Server texts"): the client shows
 * notices.<key>.title and notices.<key>.message in its language with the notification's params; the
 * English title and message stored beside them are the same text for API users.
 */
export const ORDER_NOTICE_KEYS = [
  'orderPlaced',
  'orderFilled',
  'orderCancelled',
  'orderRejected',
  'orderExpired',
  'orderCompleted',
] as const;

export const NOTICE_KEYS = [
  ...ORDER_NOTICE_KEYS,
  'positionLiquidated',
  'positionPartiallyLiquidated',
  'positionDeleveraged',
  'marginCall',
  'marginCallCross',
  'transferSent',
  'transferSentUnnamed',
  'transferReceived',
  'transferReceivedUnnamed',
  'kycApproved',
  'kycRejected',
  'depositConfirmed',
  'withdrawalSubmitted',
  'payoutSubmitted',
  'withdrawalCompleted',
  'withdrawalFailed',
] as const;
export type NoticeKey = (typeof NOTICE_KEYS)[number];
export type OrderNoticeKey = (typeof ORDER_NOTICE_KEYS)[number];

const ORDER_NOTICE_SET: ReadonlySet<string> = new Set(ORDER_NOTICE_KEYS);
/** Whether a notification's text key is one of an order's (their message is built from the order's parts). */
export function isOrderNoticeKey(key: string): key is OrderNoticeKey {
  return ORDER_NOTICE_SET.has(key);
}
