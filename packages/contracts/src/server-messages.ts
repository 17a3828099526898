/**
 * Server messages that carry values the user needs (a limit, a minimum, decimals): the API answers
 * the English message filled in, and beside it `details.text` (one of these keys) and
 * `details.params` (the raw values), so a client shows the text in its own language
 * (docs/i18n.md "Server texts"). The English here is the API's message word for word.
 */
export const serverMessageTemplates = {
  amountDecimals: 'Amount has more than {{decimals}} decimals for {{currency}}',
  transferMinimum: 'Minimum transfer amount is {{minimum}} {{currency}}',
  memoTooLong: 'The memo is longer than {{max}} characters',
  networkNotSupported: '{{currency}} cannot be withdrawn on the {{network}} network',
  conversionMinimum: 'Minimum conversion amount is {{minimum}} {{currency}}',
  conversionLimit:
    'You can convert up to {{limit}} USD per minute, and {{left}} USD of it is left right now. Try a smaller amount or wait a minute.',
  dailyWithdrawalLimit:
    'This withdrawal exceeds your daily withdrawal limit: {{remaining}} USD of your {{limit}} USD limit remains for the next 24 hours',
  noUsdPrice: 'No USD price is available for {{currency}} right now',
  cardNotAvailable: '{{currency}} cannot be bought with a card',
  depositMinimum: 'Minimum deposit amount is {{minimum}} {{currency}}',
  depositMaximum: 'Maximum deposit amount is {{maximum}} {{currency}}',
  purchaseMinimum: 'Minimum purchase amount is {{minimum}} {{currency}}',
  purchaseMaximum: 'Maximum purchase amount is {{maximum}} {{currency}}',
  paymentMinimum: 'Minimum payment amount is {{minimum}} {{currency}}',
  paymentMaximum: 'Maximum payment amount is {{maximum}} {{currency}}',
  lightningMinimum: 'Minimum Lightning payment amount is {{minimum}} {{currency}}',
  lightningMaximum: 'Maximum Lightning payment amount is {{maximum}} {{currency}}',
} as const;
export type ServerMessageKey = keyof typeof serverMessageTemplates;
export type ServerMessageParams = Record<string, string | number>;

/** The English message: each {{name}} filled once with its value. */
export function serverMessageText(key: ServerMessageKey, params: ServerMessageParams): string {
  return serverMessageTemplates[key].replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
