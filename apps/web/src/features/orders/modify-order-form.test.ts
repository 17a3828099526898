import { describe, expect, it } from 'vitest';
import {
  canModify,
  initialModifyValues,
  modifiableFields,
  toModifyRequest,
  validateModify,
} from './modify-order-form.ts';
import { makeOrder, makePair } from './orders-test-fixtures.ts';

const pair = makePair({
  price_precision: 2,
  quantity_precision: 6,
  min_trade_amount: '0.0001',
  max_trade_amount: '100',
});

describe('fields by order type', () => {
  it.each([
    ['limit', ['price', 'quantity']],
    ['stop_limit', ['price', 'stopPrice', 'quantity']],
    ['take_profit_limit', ['price', 'stopPrice', 'quantity']],
    ['oco', ['price', 'stopPrice', 'quantity']],
    ['stop_loss', ['stopPrice', 'quantity']],
    ['take_profit', ['stopPrice', 'quantity']],
    ['market', []],
  ] as const)('%s changes %j', (type, fields) => {
    expect(modifiableFields(type)).toEqual(fields);
  });

  it('cannot modify a market order or one given by quote amount', () => {
    expect(canModify(makeOrder({ type: 'market' }))).toBe(false);
    expect(canModify(makeOrder({ type: 'limit', quantity: null, quote_amount: '100' }))).toBe(false);
    expect(canModify(makeOrder({ type: 'limit' }))).toBe(true);
  });
});

describe('validateModify (spec §5 Orders texts)', () => {
  const order = makeOrder({
    type: 'stop_limit',
    price: '60000.00',
    stop_price: '59000.00',
    quantity: '0.010000',
    filled_quantity: '0.004',
  });
  const values = initialModifyValues(order);

  it('starts from the order as typed, trailing zeros dropped', () => {
    expect(values).toEqual({ price: '60000', stopPrice: '59000', quantity: '0.01' });
  });

  it('asks for a change when nothing changed', () => {
    expect(validateModify(values, order, pair)).toEqual([{ field: null, messageKey: 'history.modify.nothingChanged' }]);
    expect(validateModify({ ...values, price: '60000.000' }, order, pair)).toEqual([
      { field: null, messageKey: 'history.modify.nothingChanged' },
    ]);
  });

  it("says 'Please fill all required fields' for an emptied field", () => {
    expect(validateModify({ ...values, price: ' ' }, order, pair)).toEqual([
      { field: 'price', messageKey: 'validation.fillAllRequiredFields' },
    ]);
  });

  it.each(['0', '-1', 'abc', '1e5', '60000.123', '.5'])("says 'Invalid price' for price %s", (price) => {
    expect(validateModify({ ...values, price }, order, pair)).toEqual([
      { field: 'price', messageKey: 'errors.invalidPrice' },
    ]);
  });

  it("says 'Invalid price' for a bad stop price", () => {
    expect(validateModify({ ...values, stopPrice: '0.001' }, order, pair)).toEqual([
      { field: 'stopPrice', messageKey: 'errors.invalidPrice' },
    ]);
  });

  it.each([
    ['0', 'zero'],
    ['-0.1', 'negative'],
    ['x', 'letters'],
    ['0.0000001', 'too many decimals'],
    ['0.004', 'not above what has filled'],
    ['0.003', 'below what has filled'],
    ['101', 'above the maximum'],
  ])("says 'Invalid amount' for %s (%s)", (quantity) => {
    expect(validateModify({ ...values, quantity }, order, pair)).toEqual([
      { field: 'quantity', messageKey: 'errors.invalidAmount' },
    ]);
  });

  it("says 'Invalid amount' below the pair's minimum", () => {
    const fresh = makeOrder({ quantity: '1', filled_quantity: '0' });
    expect(validateModify({ ...initialModifyValues(fresh), quantity: '0.00005' }, fresh, pair)).toEqual([
      { field: 'quantity', messageKey: 'errors.invalidAmount' },
    ]);
  });

  it('reports every bad field at once', () => {
    expect(validateModify({ price: '0', stopPrice: '', quantity: 'x' }, order, pair).map((p) => p.field)).toEqual([
      'price',
      'stopPrice',
      'quantity',
    ]);
  });

  it('checks decimals only against the server limit when the pair is not known', () => {
    expect(validateModify({ ...values, price: '60000.123' }, order, undefined)).toEqual([]);
  });
});

describe('toModifyRequest', () => {
  it('sends only the changed fields, as typed decimal strings', () => {
    const order = makeOrder({ type: 'stop_limit', price: '60000.00', stop_price: '59000.00', quantity: '0.01' });
    expect(toModifyRequest({ price: ' 60500.5 ', stopPrice: '59000', quantity: '0.01' }, order)).toEqual({
      price: '60500.5',
    });
    expect(toModifyRequest({ price: '60000', stopPrice: '58000', quantity: '0.02' }, order)).toEqual({
      stop_price: '58000',
      quantity: '0.02',
    });
  });

  it('never sends a field the type does not have', () => {
    const order = makeOrder({ type: 'limit', stop_price: null });
    expect(toModifyRequest({ price: '1', stopPrice: '5', quantity: '0.01' }, order)).toEqual({ price: '1' });
  });
});
