import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import {
  ADDRESS_PATTERNS,
  createWithdrawFormReducer,
  destinationTagLabel,
  initialWithdrawFormState,
  localMinimumWithdrawal,
  localWithdrawalFee,
  maxWithdrawalAmount,
  toWithdrawalRequest,
  type WithdrawFormContext,
  type WithdrawFormValues,
  withdrawErrorFromFailure,
  withdrawFormErrors,
  withdrawFormSummary,
} from './withdraw-form.ts';

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BTC_LEGACY = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const LTC_ADDRESS = 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9';
const XRP_ADDRESS = 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh';

const context = (overrides: Partial<WithdrawFormContext> = {}): WithdrawFormContext => ({
  supportedCurrencies: ['BTC', 'ETH', 'USDT', 'USDC', 'LTC', 'XRP', 'SOL', 'DOGE'],
  available: new Map([
    ['BTC', '1'],
    ['USDT', '100'],
    ['XRP', '500'],
  ]),
  minimum: localMinimumWithdrawal,
  fee: null,
  twoFactorRequired: false,
  ...overrides,
});

const values = (overrides: Partial<WithdrawFormValues> = {}): WithdrawFormValues => ({
  currency: 'BTC',
  amount: '0.5',
  address: BTC_ADDRESS,
  extraId: '',
  twoFactorCode: '',
  ...overrides,
});

const messages = (formValues: WithdrawFormValues, formContext = context()) =>
  withdrawFormErrors(formValues, formContext).map((error) => [error.field, error.key, error.values]);

describe('§9 withdrawal fee (local fallback)', () => {
  it('is the base fee for small amounts and 0.1 % above it, rounded up to the decimals', () => {
    expect(localWithdrawalFee('btc', '0.05')).toEqual({
      currency: 'BTC',
      amount: '0.05',
      fee: '0.0001',
      total_amount: '0.0501',
    });
    expect(localWithdrawalFee('BTC', '2')).toMatchObject({ fee: '0.002', total_amount: '2.002' });
    // 0.1 % of 1234.57 USDT is 1.23457, rounded up to 2 decimals.
    expect(localWithdrawalFee('USDT', '1234.57')).toMatchObject({ fee: '1.24', total_amount: '1235.81' });
    expect(localWithdrawalFee('USDT', '50')).toMatchObject({ fee: '1', total_amount: '51' });
    // Currencies without a base fee of their own pay 0.001.
    expect(localWithdrawalFee('SOL', '1')).toMatchObject({ fee: '0.001' });
  });

  it('has no fee for an amount that is not one', () => {
    expect(localWithdrawalFee('BTC', '')).toBeNull();
    expect(localWithdrawalFee('BTC', '0')).toBeNull();
    expect(localWithdrawalFee('BTC', 'abc')).toBeNull();
    expect(localWithdrawalFee('USDT', '1.001')).toBeNull();
  });

  it('knows the §9 minimums, 0.001 when unknown', () => {
    expect(localMinimumWithdrawal('btc')).toBe('0.01');
    expect(localMinimumWithdrawal('USDT')).toBe('50');
    expect(localMinimumWithdrawal('XRP')).toBe('100');
    expect(localMinimumWithdrawal('SOL')).toBe('0.001');
  });
});

describe('Max: available minus the fee', () => {
  it('leaves room for the base fee', () => {
    expect(maxWithdrawalAmount('0.05', 'BTC')).toBe('0.0499');
    expect(maxWithdrawalAmount('100', 'USDT')).toBe('99');
  });

  it('leaves room for the proportional fee, and what it takes fits exactly', () => {
    const max = maxWithdrawalAmount('10', 'BTC');
    expect(max).toBe('9.99000999');
    const fee = localWithdrawalFee('BTC', max ?? '');
    expect(fee?.total_amount).toBe('10');
    // One unit more would not fit.
    expect(localWithdrawalFee('BTC', '9.99001')?.total_amount).toBe('10.00000001');
  });

  it('cuts a ledger balance to the currency decimals and gives nothing when the fee does not fit', () => {
    expect(maxWithdrawalAmount('100.129', 'USDT')).toBe('99.12');
    expect(maxWithdrawalAmount('0.0001', 'BTC')).toBeNull();
    expect(maxWithdrawalAmount('0', 'BTC')).toBeNull();
    expect(maxWithdrawalAmount(null, 'BTC')).toBeNull();
  });
});

describe('§5 withdrawal rules, in the spec words', () => {
  it('accepts a valid withdrawal', () => {
    expect(messages(values())).toEqual([]);
  });

  it('checks the amount', () => {
    expect(messages(values({ amount: '' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.amountNotPositive', undefined],
    ]);
    expect(messages(values({ amount: '0' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.amountNotPositive', undefined],
    ]);
    expect(messages(values({ amount: '-1' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.amountNotPositive', undefined],
    ]);
    expect(messages(values({ amount: '1e3' }))).toEqual([['amount', 'errors.invalidAmount', undefined]]);
    expect(messages(values({ amount: '0.123456789' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.tooManyDecimals', { decimals: '8', currency: 'BTC' }],
    ]);
    expect(messages(values({ amount: '0.005' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.belowMinimum', { minimum: '0.01', currency: 'BTC' }],
    ]);
    expect(messages(values({ amount: '1,5' }))).toEqual([['amount', 'errors.insufficientBalance', undefined]]);
  });

  it('counts the fee against the available balance', () => {
    expect(messages(values({ amount: '1' }), context({ fee: null }))).toEqual([]);
    expect(messages(values({ amount: '1' }), context({ fee: '0.001' }))).toEqual([
      ['amount', 'errors.insufficientBalance', undefined],
    ]);
  });

  it('uses the minimum it is given (the server one)', () => {
    expect(messages(values({ amount: '0.02' }), context({ minimum: () => '0.05' }))).toEqual([
      ['amount', 'wallet.withdraw.errors.belowMinimum', { minimum: '0.05', currency: 'BTC' }],
    ]);
  });

  it('refuses a currency the wallet does not hold', () => {
    expect(messages(values({ currency: 'xyz' }))).toEqual([
      ['currency', 'wallet.withdraw.errors.currencyNotSupported', { currency: 'XYZ' }],
    ]);
  });

  it('checks the address length, then its format for btc, eth, ltc, xrp, usdt and usdc', () => {
    expect(messages(values({ address: 'bc1short' }))).toEqual([
      ['address', 'wallet.withdraw.errors.addressInvalid', undefined],
    ]);
    expect(messages(values({ address: ETH_ADDRESS }))).toEqual([
      ['address', 'wallet.withdraw.errors.addressFormat', { currency: 'BTC' }],
    ]);
    expect(messages(values({ address: `  ${BTC_LEGACY} ` }))).toEqual([]);
    expect(messages(values({ currency: 'ETH', amount: '0.5', address: BTC_ADDRESS }))).toEqual([
      ['address', 'wallet.withdraw.errors.addressFormat', { currency: 'ETH' }],
    ]);
    // usdt and usdc use the Ethereum format.
    expect(messages(values({ currency: 'USDT', amount: '60', address: ETH_ADDRESS }))).toEqual([]);
    expect(messages(values({ currency: 'USDT', amount: '60', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' }))).toEqual(
      [['address', 'wallet.withdraw.errors.addressFormat', { currency: 'USDT' }]],
    );
    // Other currencies are not format-checked.
    expect(messages(values({ currency: 'SOL', amount: '1', address: 'anything-long-enough' }))).toEqual([]);
  });

  it.each([
    ['BTC', BTC_ADDRESS, true],
    ['BTC', BTC_LEGACY, true],
    ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', true],
    ['BTC', 'bc1Oaddresswithbadchars0000000000000000', false],
    ['ETH', ETH_ADDRESS, true],
    ['ETH', '0x123', false],
    ['LTC', LTC_ADDRESS, true],
    ['LTC', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea', true],
    ['LTC', BTC_LEGACY, false],
    ['XRP', XRP_ADDRESS, true],
    ['XRP', 'xEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', false],
    ['USDC', ETH_ADDRESS.toLowerCase(), true],
  ])('%s address %s is %s', (currency, address, valid) => {
    expect(ADDRESS_PATTERNS[currency]?.test(address)).toBe(valid);
  });

  it('checks an XRP destination tag and shows the tag field for tag networks only', () => {
    const xrp = (extraId: string) => values({ currency: 'XRP', amount: '150', address: XRP_ADDRESS, extraId });
    expect(messages(xrp(''))).toEqual([]);
    expect(messages(xrp('12345'))).toEqual([]);
    expect(messages(xrp('4294967296'))).toEqual([['extraId', 'wallet.withdraw.errors.tagInvalid', undefined]]);
    expect(messages(xrp('abc'))).toEqual([['extraId', 'wallet.withdraw.errors.tagInvalid', undefined]]);
    expect(destinationTagLabel('xrp')).toBe('destinationTag');
    expect(destinationTagLabel('XLM')).toBe('memo');
    expect(destinationTagLabel('BTC')).toBeNull();
  });

  it('asks for a 6-digit code only when two-factor is on', () => {
    expect(messages(values(), context({ twoFactorRequired: true }))).toEqual([
      ['twoFactorCode', 'validation.twoFactorCodeRequired', undefined],
    ]);
    expect(messages(values({ twoFactorCode: '12345' }), context({ twoFactorRequired: true }))).toEqual([
      ['twoFactorCode', 'validation.twoFactorCodeLength', undefined],
    ]);
    expect(messages(values({ twoFactorCode: '123456' }), context({ twoFactorRequired: true }))).toEqual([]);
  });
});

describe('the request', () => {
  it('lower-cases the currency, trims, and sends the tag and code only when there are some', () => {
    expect(toWithdrawalRequest(values({ amount: ' 0,5 ', address: ` ${BTC_ADDRESS} ` }), false)).toEqual({
      currency: 'btc',
      amount: '0.5',
      address: BTC_ADDRESS,
    });
    expect(
      toWithdrawalRequest(values({ currency: 'XRP', extraId: ' 42 ', twoFactorCode: '123456' }), true),
    ).toMatchObject({ currency: 'xrp', extra_id: '42', two_factor_code: '123456' });
    expect(toWithdrawalRequest(values({ twoFactorCode: '123456' }), false)).not.toHaveProperty('two_factor_code');
  });

  it('shows rules once a field was left or a send was tried, and builds the request when all pass', () => {
    let key = 0;
    const reducer = createWithdrawFormReducer(() => `k${++key}`);
    let state = initialWithdrawFormState('BTC', () => 'k0');
    state = reducer(state, { type: 'edit', field: 'amount', value: '0' });
    expect(withdrawFormSummary(state, context()).visibleErrors).toEqual({});
    state = reducer(state, { type: 'blur', field: 'amount' });
    expect(withdrawFormSummary(state, context()).visibleErrors.amount?.key).toBe(
      'wallet.withdraw.errors.amountNotPositive',
    );
    state = reducer(state, { type: 'submitAttempted' });
    expect(Object.keys(withdrawFormSummary(state, context()).visibleErrors)).toEqual(['amount', 'address']);
    state = reducer(state, { type: 'edit', field: 'amount', value: '0.5' });
    state = reducer(state, { type: 'edit', field: 'address', value: BTC_ADDRESS });
    const summary = withdrawFormSummary(state, context());
    expect(summary.request).toEqual({ currency: 'btc', amount: '0.5', address: BTC_ADDRESS });
    expect(summary.amount).toBe('0.5');
    expect(summary.minimum).toBe('0.01');
    expect(summary.available).toBe('1');
  });
});

describe('the idempotency key', () => {
  it('changes with every edit, stays after a refusal, and is fresh after a send', () => {
    let key = 0;
    const reducer = createWithdrawFormReducer(() => `k${++key}`);
    let state = initialWithdrawFormState('XRP', () => 'k0');
    state = reducer(state, { type: 'edit', field: 'extraId', value: '7' });
    expect(state.idempotencyKey).toBe('k1');
    state = reducer(state, { type: 'edit', field: 'extraId', value: '7' });
    expect(state.idempotencyKey).toBe('k1');
    state = reducer(state, {
      type: 'failed',
      error: { field: 'twoFactorCode', key: 'wallet.withdraw.errors.twoFactorRequired' },
      twoFactorAsked: true,
    });
    expect(state.idempotencyKey).toBe('k1');
    expect(state.twoFactorAsked).toBe(true);
    // A new currency drops the tag typed for the old one.
    state = reducer(state, { type: 'edit', field: 'currency', value: 'BTC' });
    expect(state.values.extraId).toBe('');
    expect(state.serverError).not.toBeNull();
    state = reducer(state, { type: 'edit', field: 'twoFactorCode', value: '123456' });
    expect(state.serverError).toBeNull();
    state = reducer(state, { type: 'sent' });
    expect(state.values).toEqual({ currency: 'BTC', amount: '', address: '', extraId: '', twoFactorCode: '' });
    expect(state.twoFactorAsked).toBe(true);
    expect(state.idempotencyKey).toBe('k4');
  });
});

describe("the server's refusals", () => {
  const request = { currency: 'btc', amount: '0.5', address: BTC_ADDRESS };
  const failure = (code: string, message: string, details?: unknown, status = 400) =>
    withdrawErrorFromFailure(new ApiError(status, code, message, details), request);

  it('maps codes to the fields and the spec words', () => {
    expect(failure('WITHDRAWAL_TWO_FACTOR_REQUIRED', 'Two-factor authentication required', undefined, 403)).toEqual({
      error: { field: 'twoFactorCode', key: 'wallet.withdraw.errors.twoFactorRequired' },
      twoFactorAsked: true,
    });
    expect(failure('WITHDRAWAL_TWO_FACTOR_INVALID', 'Invalid', undefined, 403).error.field).toBe('twoFactorCode');
    expect(failure('AMOUNT_BELOW_MINIMUM', 'Minimum withdrawal amount is 0.02 BTC', { minimum: '0.02' }).error).toEqual(
      {
        field: 'amount',
        key: 'wallet.withdraw.errors.belowMinimum',
        values: { minimum: '0.02', currency: 'BTC' },
      },
    );
    expect(failure('ADDRESS_FORMAT_INVALID', 'Invalid BTC address format').error).toEqual({
      field: 'address',
      key: 'wallet.withdraw.errors.addressFormat',
      values: { currency: 'BTC' },
    });
    expect(failure('INSUFFICIENT_BALANCE', 'Insufficient balance', undefined, 422).error.key).toBe(
      'errors.insufficientBalance',
    );
    expect(failure('DESTINATION_TAG_INVALID', 'Invalid destination tag').error.field).toBe('extraId');
  });

  it("shows other texts as the server wrote them, else 'Failed to create withdrawal'", () => {
    expect(
      failure('DAILY_LIMIT_EXCEEDED', 'This withdrawal exceeds your daily withdrawal limit', undefined, 422),
    ).toEqual({
      error: { field: 'form', key: 'This withdrawal exceeds your daily withdrawal limit' },
      twoFactorAsked: false,
    });
    expect(failure('VALIDATION_ERROR', 'Bad address', { field: 'address' }).error).toEqual({
      field: 'address',
      key: 'Bad address',
    });
    expect(failure('INVALID_RESPONSE', 'Unexpected response').error.key).toBe('wallet.withdraw.errors.failed');
    expect(failure('HTTP_ERROR', 'Request failed with status 502', undefined, 502).error.key).toBe(
      'wallet.withdraw.errors.failed',
    );
    expect(withdrawErrorFromFailure(new Error('boom'), request).error.key).toBe('wallet.withdraw.errors.failed');
    expect(
      withdrawErrorFromFailure(new ApiError(0, 'NETWORK_ERROR', 'Network error occurred'), request).error.key,
    ).toBe('wallet.withdraw.errors.networkRetrySafe');
  });
});
