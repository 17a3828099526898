import { serverMessageTemplates } from '@platform/contracts';

/**
 * English texts of what the server says in words (docs/i18n.md "Server texts"), loaded with the
 * shell as the `notices` part: the stored notifications by their text key (notices.<key>.title /
 * .message, with the notification's params formatted by the client) and the server messages that
 * carry values (serverMessages.<details.text>, the API's English word for word).
 */
export const noticeTexts = {
  notices: {
    orderPlaced: { title: 'Order placed' },
    orderFilled: { title: 'Order filled' },
    orderCancelled: { title: 'Order cancelled' },
    orderRejected: { title: 'Order rejected' },
    orderExpired: { title: 'Order expired' },
    orderCompleted: { title: 'Order closed' },
    order: {
      buyQuantity: 'Buy {{quantity}} {{base}}',
      sellQuantity: 'Sell {{quantity}} {{base}}',
      buyFunds: 'Buy {{base}} for {{amount}} {{quote}}',
      sellFunds: 'Sell {{base}} for {{amount}} {{quote}}',
      atPrice: '{{what}} at {{price}} {{quote}}',
      atMarket: '{{what}} at market',
      withStop: '{{order}}, stop {{price}} {{quote}}',
      filledAt: '{{quantity}} {{base}} at {{price}} {{quote}}',
      bought: 'Bought {{filled}}',
      sold: 'Sold {{filled}}',
      cancelledPartly: '{{order}} ({{filled}} filled)',
      rejected: '{{order}} was rejected: {{reason}}',
      expired: '{{order}}: nothing could be filled',
      completed: '{{order}}: {{filled}} filled, the rest was closed',
    },
    rejectReasons: {
      quantity_below_minimum: 'the quantity is below the minimum',
      quantity_above_maximum: 'the quantity is above the maximum',
      price_outside_band: 'the price is too far from the market price',
      stop_would_trigger_immediately: 'the stop price has already been reached',
      post_only_would_cross: 'a post-only order would have traded at once',
      fok_not_fillable: 'the order could not be filled in full at once',
      invalid_quantity: 'the quantity is not valid',
      invalid_price: 'the price is not valid',
      invalid_stop_price: 'the stop price is not valid',
      invalid_time_in_force: 'the time in force is not valid for this order',
      invalid_order_type: 'the order type is not valid',
      invalid_quote_budget: 'the amount to spend is not valid',
      duplicate_order_id: 'an order with the same id already exists',
      unknown_order: 'the order was not found',
      invalid_modification: 'the change is not valid',
      insufficient_margin: 'the margin is not enough',
      reduce_only_would_increase: 'a reduce-only order would have increased the position',
      leverage_too_high: 'the leverage is above the maximum for this position size',
    },
    positionSides: { long: 'long', short: 'short' },
    positionLiquidated: {
      title: 'Position liquidated',
      message: '{{size}} of your {{pair}} {{side}} position was liquidated at mark price {{price}}.',
    },
    positionPartiallyLiquidated: {
      title: 'Position partially liquidated',
      message:
        '{{size}} of your {{pair}} {{side}} position was liquidated at mark price {{price}}; the rest is back above its maintenance margin.',
    },
    positionDeleveraged: {
      title: 'Position deleveraged',
      message: '{{size}} of your {{pair}} {{side}} position was closed by auto-deleveraging at {{price}}.',
    },
    marginCall: {
      title: 'Margin call',
      message:
        'Your isolated {{pair}} position is at a margin ratio of {{ratio}}% (liquidation at 100%). Add margin or reduce the position.',
    },
    marginCallCross: {
      title: 'Margin call',
      message:
        'Your cross margin account is at a margin ratio of {{ratio}}% (liquidation at 100%). Add margin or reduce the position.',
    },
    transferSent: { title: 'Transfer sent', message: 'Sent {{amount}} {{currency}} to @{{username}}' },
    transferSentUnnamed: { title: 'Transfer sent', message: 'Sent {{amount}} {{currency}} to a user' },
    transferReceived: { title: 'Transfer received', message: 'Received {{amount}} {{currency}} from @{{username}}' },
    transferReceivedUnnamed: { title: 'Transfer received', message: 'Received {{amount}} {{currency}} from a user' },
    kycApproved: { title: 'Identity verification', message: 'Verification approved' },
    kycRejected: { title: 'Identity verification', message: 'Verification rejected: {{reason}}' },
    depositConfirmed: {
      title: 'Deposit confirmed',
      message: 'Your deposit of {{amount}} {{currency}} is confirmed and available',
    },
    withdrawalSubmitted: {
      title: 'Withdrawal submitted',
      message: 'Withdrawal of {{amount}} {{currency}} to {{address}} submitted',
    },
    payoutSubmitted: {
      title: 'Withdrawal submitted',
      message_one: 'Payout of {{count}} withdrawal submitted',
      message_other: 'Payout of {{count}} withdrawals submitted',
    },
    withdrawalCompleted: {
      title: 'Withdrawal completed',
      message: 'Withdrawal of {{amount}} {{currency}} to {{address}} completed',
    },
    withdrawalFailed: {
      title: 'Withdrawal failed',
      message:
        'Withdrawal of {{amount}} {{currency}} failed: {{reason}}. {{total}} {{currency}} is back in your balance.',
      providerRefused: 'refused by the payment provider',
    },
  },
  serverMessages: { ...serverMessageTemplates },
};
