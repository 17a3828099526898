/**
 * The text keys a stored notification carries (docs/i18n.md "Server texts"): the client shows
 * notices.<key>.title and notices.<key>.message in its language with the notification's params; the
 * English title and message stored beside them are the same text for API users.
 */
export const NOTICE_KEYS = [
  'orderPlaced',
  'orderFilled',
  'orderCancelled',
  'orderRejected',
  'orderExpired',
  'orderCompleted',
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
