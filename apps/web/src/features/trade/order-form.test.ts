import { CLIENT_ORDER_ID_PATTERN, placeOrderRequestSchema, type TradingPair } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import {
  amountForPercent,
  createOrderFormReducer,
  initialOrderFormState,
  newClientOrderId,
  type OrderFormAction,
  type OrderFormState,
  type OrderFormType,
  orderFields,
  percentOfAvailable,
  summary,
  toPlaceOrderRequest,
  validate,
} from './order-form.ts';

const pair: TradingPair = {
  id: 'BTC_USD',
  base_currency: 'BTC',
  quote_currency: 'USD',
  symbol: 'BTC/USD',
  min_trade_amount: '0.001',
  max_trade_amount: '100',
  price_precision: 2,
  quantity_precision: 5,
  trading_fee: '0.1',
  maker_fee: '0.08',
  taker_fee: '0.1',
  is_active: true,
  is_enabled_by_admin: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  supported_by_provider: false,
  current_price: '67000.50',
  volume_24h: '100',
  change_24h: '1.5',
};

const FILL = 'validation.fillAllRequiredFields';
const AMOUNT = 'errors.invalidAmount';
const PRICE = 'errors.invalidPrice';

/** Fixed ids: id-1, id-2... so a test can tell whether the id was kept or renewed. */
function ids() {
  let next = 0;
  return () => `id-${++next}`;
}

function form(
  type: OrderFormType,
  values: Partial<OrderFormState['values']> = {},
  extra: Partial<OrderFormState> = {},
): OrderFormState {
  const state = initialOrderFormState('buy', type, () => 'order-1');
  return { ...state, ...extra, values: { ...state.values, ...values } };
}

describe('validate (spec §5 Orders)', () => {
  it("asks for every required field with 'Please fill all required fields', per type", () => {
    const missing = (type: OrderFormType, extra: Partial<OrderFormState> = {}) =>
      validate(form(type, {}, extra), pair).map((error) => `${error.field}:${error.messageKey}`);
    expect(missing('market')).toEqual([`amount:${FILL}`]);
    expect(missing('market', { amountMode: 'quote' })).toEqual([`quoteAmount:${FILL}`]);
    expect(missing('limit')).toEqual([`price:${FILL}`, `amount:${FILL}`]);
    expect(missing('stop_limit')).toEqual([`stopPrice:${FILL}`, `price:${FILL}`, `amount:${FILL}`]);
    expect(missing('stop_loss')).toEqual([`stopPrice:${FILL}`, `amount:${FILL}`]);
    // The OCO's stop-limit price is optional: without it the stop leg is a stop market.
    expect(missing('oco')).toEqual([`price:${FILL}`, `stopPrice:${FILL}`, `amount:${FILL}`]);
  });

  it('counts blank text as missing', () => {
    expect(validate(form('limit', { price: '  ', amount: '0.01' }), pair)).toEqual([
      { field: 'price', messageKey: FILL },
    ]);
  });

  it.each([
    ['zero', '0'],
    ['zero with decimals', '0.00000'],
    ['negative', '-1'],
    ['letters', 'abc'],
    ['a number with letters', '1btc'],
    ['an exponent', '1e-3'],
    ['two points', '0.0.1'],
    ['a bare point', '.5'],
    ['grouping', '1,000'],
    ['more decimals than the quantity precision (5)', '0.012345'],
    ['below the minimum (0.001)', '0.0009'],
    ['above the maximum (100)', '100.00001'],
  ])("refuses an amount that is %s with 'Invalid amount'", (_case, amount) => {
    expect(validate(form('limit', { price: '100', amount }), pair)).toEqual([{ field: 'amount', messageKey: AMOUNT }]);
  });

  it.each([
    ['the minimum', '0.001'],
    ['the maximum', '100'],
    ['trailing zeros beyond the precision', '0.0100000'],
    ['surrounding spaces', ' 0.5 '],
    ['leading zeros', '007'],
  ])('accepts an amount at %s', (_case, amount) => {
    expect(validate(form('limit', { price: '100', amount }), pair)).toEqual([]);
  });

  it.each([
    ['zero', '0'],
    ['negative', '-100'],
    ['letters', 'market'],
    ['more decimals than the price precision (2)', '1.234'],
  ])("refuses a price that is %s with 'Invalid price', in every price field", (_case, price) => {
    expect(validate(form('limit', { price, amount: '1' }), pair)).toEqual([{ field: 'price', messageKey: PRICE }]);
    expect(validate(form('stop_loss', { stopPrice: price, amount: '1' }), pair)).toEqual([
      { field: 'stopPrice', messageKey: PRICE },
    ]);
    expect(validate(form('oco', { price: '100', stopPrice: '90', stopLimitPrice: price, amount: '1' }), pair)).toEqual([
      { field: 'stopLimitPrice', messageKey: PRICE },
    ]);
  });

  it("checks a market buy's total against the price precision as an amount", () => {
    const quote = (quoteAmount: string) => validate(form('market', { quoteAmount }, { amountMode: 'quote' }), pair);
    expect(quote('250.5')).toEqual([]);
    expect(quote('250.555')).toEqual([{ field: 'quoteAmount', messageKey: AMOUNT }]);
    expect(quote('0')).toEqual([{ field: 'quoteAmount', messageKey: AMOUNT }]);
  });

  it('tells the missing fields first, then the others in screen order', () => {
    expect(validate(form('stop_limit', { stopPrice: 'x', amount: '-1' }), pair)).toEqual([
      { field: 'price', messageKey: FILL },
      { field: 'stopPrice', messageKey: PRICE },
      { field: 'amount', messageKey: AMOUNT },
    ]);
  });

  it('ignores the fields a type does not use', () => {
    expect(validate(form('market', { amount: '0.5', price: 'junk', stopPrice: '-1' }), pair)).toEqual([]);
  });
});

describe('toPlaceOrderRequest', () => {
  const request = (state: OrderFormState) => {
    const built = toPlaceOrderRequest(state, pair);
    if (built) expect(placeOrderRequestSchema.parse(built)).toEqual(built);
    return built;
  };
  const base = { trading_pair: 'BTC_USD', side: 'buy', client_order_id: 'order-1' };

  it('is null while the form has a problem', () => {
    expect(request(form('limit', { price: '100' }))).toBeNull();
    expect(request(form('limit', { price: '100', amount: '0' }))).toBeNull();
  });

  it('builds each type with only its own fields, as canonical decimal strings', () => {
    const all = { price: '007.50', stopPrice: '7.00', stopLimitPrice: '6.9', amount: '0.01000', quoteAmount: '25' };
    expect(request(form('market', all))).toEqual({ ...base, type: 'market', quantity: '0.01000' });
    expect(request(form('market', all, { amountMode: 'quote' }))).toEqual({
      ...base,
      type: 'market',
      quote_amount: '25',
    });
    expect(request(form('limit', all))).toEqual({ ...base, type: 'limit', price: '7.50', quantity: '0.01000' });
    expect(request(form('stop_limit', all))).toEqual({
      ...base,
      type: 'stop_limit',
      stop_price: '7.00',
      price: '7.50',
      quantity: '0.01000',
    });
    expect(request(form('stop_loss', all))).toEqual({
      ...base,
      type: 'stop_loss',
      stop_price: '7.00',
      quantity: '0.01000',
    });
    expect(request(form('oco', all))).toEqual({
      ...base,
      type: 'oco',
      price: '7.50',
      stop_price: '7.00',
      stop_limit_price: '6.9',
      quantity: '0.01000',
    });
  });

  it('leaves the optional stop-limit price of an OCO out when it is blank', () => {
    expect(request(form('oco', { price: '110', stopPrice: '90', amount: '1' }))).toEqual({
      ...base,
      type: 'oco',
      price: '110',
      stop_price: '90',
      quantity: '1',
    });
  });

  it('sizes a market sell by quantity even if the total mode was left on', () => {
    const sell = form('market', { amount: '0.5', quoteAmount: '100' }, { side: 'sell', amountMode: 'quote' });
    expect(orderFields(sell)).toEqual([{ field: 'amount', required: true }]);
    expect(request(sell)).toEqual({ ...base, side: 'sell', type: 'market', quantity: '0.5' });
  });

  it('sends client order ids of the contract pattern', () => {
    for (let index = 0; index < 20; index++) expect(newClientOrderId()).toMatch(CLIENT_ORDER_ID_PATTERN);
    expect(newClientOrderId()).not.toBe(newClientOrderId());
  });
});

describe('the reducer and the client order id', () => {
  const run = (actions: OrderFormAction[], start?: OrderFormState) => {
    const reducer = createOrderFormReducer(ids());
    return actions.reduce(reducer, start ?? initialOrderFormState('buy', 'limit', () => 'id-0'));
  };

  it('keeps the id for a repeated submit of the same values, so a double click places one order', () => {
    const typed = run([
      { type: 'edit', field: 'price', value: '100' },
      { type: 'edit', field: 'amount', value: '1' },
    ]);
    const submitted = run([{ type: 'submitAttempted' }, { type: 'submitAttempted' }], typed);
    expect(submitted.clientOrderId).toBe(typed.clientOrderId);
    expect(toPlaceOrderRequest(submitted, pair)?.client_order_id).toBe(typed.clientOrderId);
  });

  it('draws a new id after a placed or refused order and after any edit', () => {
    const typed = run([{ type: 'edit', field: 'price', value: '100' }]);
    expect(typed.clientOrderId).toBe('id-1');
    const reducer = createOrderFormReducer(() => 'fresh');
    expect(reducer(typed, { type: 'placed' }).clientOrderId).toBe('fresh');
    expect(reducer(typed, { type: 'refused' }).clientOrderId).toBe('fresh');
    expect(reducer(typed, { type: 'side', side: 'sell' }).clientOrderId).toBe('fresh');
    expect(reducer(typed, { type: 'edit', field: 'price', value: '100' })).toBe(typed);
  });

  it('after a placed order keeps the price and clears the size', () => {
    const placed = run([
      { type: 'edit', field: 'price', value: '100' },
      { type: 'edit', field: 'amount', value: '1' },
      { type: 'submitAttempted' },
      { type: 'placed' },
    ]);
    expect(placed.values).toMatchObject({ price: '100', amount: '' });
    expect(placed.submitAttempted).toBe(false);
  });

  it('puts a clicked price where the type takes it', () => {
    expect(run([{ type: 'priceClicked', price: '65000.10' }]).values.price).toBe('65000.10');
    const market = run([
      { type: 'orderType', orderType: 'market' },
      { type: 'priceClicked', price: '65000.10' },
    ]);
    expect(market.type).toBe('limit');
    expect(market.values.price).toBe('65000.10');
    const stop = run([
      { type: 'orderType', orderType: 'stop_loss' },
      { type: 'priceClicked', price: '64000' },
    ]);
    expect(stop.values).toMatchObject({ stopPrice: '64000', price: '' });
  });

  it('forgets the values of another pair', () => {
    const changed = run([
      { type: 'side', side: 'sell' },
      { type: 'edit', field: 'price', value: '100' },
      { type: 'pairChanged' },
    ]);
    expect(changed.side).toBe('sell');
    expect(changed.values.price).toBe('');
  });
});

describe('summary', () => {
  const balances = [
    { currency: 'usd', available: '1000' },
    { currency: 'BTC', available: '0.5' },
  ];

  it('previews price x amount and the taker fee in the quote currency, exactly', () => {
    const preview = summary(form('limit', { price: '67000.50', amount: '0.01234' }), pair, balances);
    expect(preview).toEqual({
      spendCurrency: 'USD',
      available: '1000',
      price: '67000.50',
      estimated: false,
      quantity: '0.01234',
      total: '826.7861700',
      fee: '0.8267861700',
      feeRatePercent: '0.1',
    });
  });

  it('estimates a market order at the last price and a stop market at its trigger', () => {
    const market = summary(form('market', { amount: '0.01234' }), pair, balances, '67000.50');
    expect(market).toMatchObject({ price: '67000.50', estimated: true, total: '826.7861700' });
    const stop = summary(form('stop_loss', { stopPrice: '60000', amount: '1' }, { side: 'sell' }), pair, balances);
    expect(stop).toMatchObject({ spendCurrency: 'BTC', available: '0.5', price: '60000', estimated: true });
  });

  it('estimates the quantity of a market buy sized by its total', () => {
    const preview = summary(form('market', { quoteAmount: '500' }, { amountMode: 'quote' }), pair, balances, '67000.5');
    expect(preview).toMatchObject({ total: '500', quantity: '0.00746', fee: '0.500' });
  });

  it('knows no balance when signed out, and zero for a currency the wallet lacks', () => {
    expect(summary(form('limit'), pair, null).available).toBeNull();
    expect(summary(form('limit'), { ...pair, quote_currency: 'EUR' }, balances).available).toBe('0');
    expect(summary(form('limit'), pair, balances)).toMatchObject({ total: null, fee: null });
  });
});

describe('percent of the available balance', () => {
  it('sells that share of the base, floored to the quantity precision', () => {
    const sell = form('limit', { price: '100' }, { side: 'sell' });
    expect(amountForPercent(sell, pair, '0.123456789', null, 50)).toEqual({ field: 'amount', value: '0.06172' });
    expect(amountForPercent(sell, pair, '0.5', null, 100)).toEqual({ field: 'amount', value: '0.5' });
  });

  it('buys balance x percent / (price x (1 + the larger fee)), floored, so the hold fits', () => {
    // 1000 x 25% / (100 x 1.001) = 2.4975024975...
    expect(amountForPercent(form('limit', { price: '100' }), pair, '1000', null, 25)).toEqual({
      field: 'amount',
      value: '2.4975',
    });
    // 1000 x 75% / (105 x 1.001) = 7.1357214214...
    expect(amountForPercent(form('stop_limit', { stopPrice: '99', price: '105' }), pair, '1000', null, 75)).toEqual({
      field: 'amount',
      value: '7.13572',
    });
  });

  it('uses the last price for a market buy, the trigger for a stop market, the dearer leg for an OCO', () => {
    // 1000 / (67000.5 x 1.001) = 0.0149103514...
    expect(amountForPercent(form('market'), pair, '1000', '67000.5', 100)?.value).toBe('0.01491');
    expect(amountForPercent(form('stop_loss', { stopPrice: '100' }), pair, '1000', null, 25)?.value).toBe('2.4975');
    const oco = form('oco', { price: '100', stopPrice: '95', stopLimitPrice: '105' });
    expect(amountForPercent(oco, pair, '1000', null, 75)?.value).toBe('7.13572');
  });

  it('spends balance x percent / (1 + fee) as the total of a market buy by quote amount', () => {
    // 1000 / 1.001 = 999.000999...
    expect(amountForPercent(form('market', {}, { amountMode: 'quote' }), pair, '1000', null, 100)).toEqual({
      field: 'quoteAmount',
      value: '999',
    });
  });

  it('cannot size a buy without a price or without a balance', () => {
    expect(amountForPercent(form('limit'), pair, '1000', null, 50)).toBeNull();
    expect(amountForPercent(form('market'), pair, '1000', null, 50)).toBeNull();
    expect(amountForPercent(form('limit', { price: '100' }), pair, null, null, 50)).toBeNull();
    expect(amountForPercent(form('limit', { price: '100' }), pair, '1000', null, 101)).toBeNull();
  });

  it('places the slider where the typed size stands', () => {
    const limit = form('limit', { price: '100', amount: '2.4975' });
    expect(percentOfAvailable(limit, pair, '1000', null)).toBe(24);
    expect(percentOfAvailable(form('limit', { price: '100', amount: '5' }), pair, '1000', null)).toBe(50);
    expect(percentOfAvailable(form('limit', { price: '100', amount: '50' }), pair, '1000', null)).toBe(100);
    expect(percentOfAvailable(form('limit', { amount: '1' }, { side: 'sell' }), pair, '4', null)).toBe(25);
    expect(percentOfAvailable(limit, pair, '0', null)).toBe(0);
  });
});
