import { IDEMPOTENCY_KEY_PATTERN, TRANSFER_MEMO_MAX_LENGTH } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { i18n } from '../../i18n/i18n.ts';
import { loadLanguage } from '../../i18n/locale-loader.ts';
import { translateMessage } from '../../lib/translate.ts';
import {
  createIdempotencyKey,
  createTransferFormReducer,
  initialTransferFormState,
  maxTransferAmount,
  minimumTransferAmount,
  type TransferFormContext,
  type TransferFormError,
  type TransferFormState,
  type TransferFormValues,
  toTransferRequest,
  transferErrorFromFailure,
  transferFormErrors,
  transferFormSummary,
  WALLET_CURRENCY_FALLBACK,
} from './transfer-form.ts';

const context: TransferFormContext = { supportedCurrencies: ['BTC', 'ETH', 'USDT', 'DOT', 'XRP', 'USD'] };
const valid: TransferFormValues = { recipient: 'bob', currency: 'USDT', amount: '5', memo: '' };

/** The English text of an error, as the form shows it. */
const text = (error: TransferFormError | undefined) =>
  error ? translateMessage(i18n.t, error.key, error.values) : undefined;

function messages(values: Partial<TransferFormValues>, extra: Partial<TransferFormContext> = {}) {
  const errors = transferFormErrors({ ...valid, ...values }, { ...context, ...extra });
  return Object.fromEntries(errors.map((error) => [error.field, text(error)]));
}

function counter() {
  let next = 0;
  return () => `key-${++next}`;
}

describe('transfer form rules (spec §5, in its words)', () => {
  it('accepts a valid transfer', () => {
    expect(messages({})).toEqual({});
  });

  it.each([
    ['', 'empty'],
    ['0', 'zero'],
    ['0.000', 'zero with decimals'],
    ['-5', 'negative'],
  ])("amount %j (%s): 'Amount must be greater than zero'", (amount) => {
    expect(messages({ amount })).toEqual({ amount: 'Amount must be greater than zero' });
  });

  it.each(['abc', '1e5', '1.2.3', '.5'])('amount %j is not a number: §8 Invalid amount', (amount) => {
    expect(messages({ amount })).toEqual({ amount: 'Invalid amount' });
  });

  it("currency must be a wallet currency: 'Currency {X} is not supported'", () => {
    expect(messages({ currency: 'xyz' })).toEqual({ currency: 'Currency XYZ is not supported' });
    expect(messages({ currency: 'usdt' })).toEqual({});
  });

  it("amount at least 100 units of the last decimal: 'Minimum transfer amount is {min} {X}'", () => {
    expect(messages({ amount: '0.99' })).toEqual({ amount: 'Minimum transfer amount is 1 USDT' });
    expect(messages({ amount: '1' })).toEqual({});
    expect(messages({ currency: 'BTC', amount: '0.00000099' })).toEqual({
      amount: 'Minimum transfer amount is 0.000001 BTC',
    });
    expect(messages({ currency: 'BTC', amount: '0.000001' })).toEqual({});
    expect(messages({ currency: 'DOT', amount: '0.009' })).toEqual({ amount: 'Minimum transfer amount is 0.01 DOT' });
    expect(messages({ currency: 'XRP', amount: '0.000099' })).toEqual({
      amount: 'Minimum transfer amount is 0.0001 XRP',
    });
  });

  it('has the same minimum as the server: 100 units, with default decimals for other currencies', () => {
    expect(minimumTransferAmount('USDT')).toBe('1');
    expect(minimumTransferAmount('btc')).toBe('0.000001');
    expect(minimumTransferAmount('SOL')).toBe('0.000001');
  });

  it('offers the available balance as the most to send, cut down to the currency decimals', () => {
    expect(maxTransferAmount('15234.129', 'USDT')).toBe('15234.12');
    expect(maxTransferAmount('0.123456789', 'BTC')).toBe('0.12345678');
    expect(maxTransferAmount('0.004', 'USDT')).toBeNull();
    expect(maxTransferAmount('0', 'BTC')).toBeNull();
    expect(maxTransferAmount(null, 'BTC')).toBeNull();
  });

  it('refuses more decimals than the currency has', () => {
    expect(messages({ amount: '1.001' })).toEqual({ amount: 'Amount has more than 2 decimals for USDT' });
  });

  it.each([
    ['', 'empty'],
    ['a', 'one character'],
    ['  b  ', 'one character after trimming'],
    ['@b', 'one character after the @'],
  ])("recipient %j (%s): 'Please enter a valid username'", (recipient) => {
    expect(messages({ recipient })).toEqual({ recipient: 'Please enter a valid username' });
  });

  it('accepts a two-character username, trimmed, with or without @', () => {
    expect(messages({ recipient: ' bo ' })).toEqual({});
    expect(messages({ recipient: '@bo' })).toEqual({});
  });

  it('limits the memo', () => {
    expect(messages({ memo: 'x'.repeat(TRANSFER_MEMO_MAX_LENGTH) })).toEqual({});
    expect(messages({ memo: 'x'.repeat(TRANSFER_MEMO_MAX_LENGTH + 1) })).toEqual({
      memo: `Memo must be at most ${TRANSFER_MEMO_MAX_LENGTH} characters`,
    });
  });

  it('checks the available balance once it is known (§8 Insufficient balance)', () => {
    const available = new Map([['USDT', '4.99']]);
    expect(messages({ amount: '5' }, { available })).toEqual({ amount: 'Insufficient balance' });
    expect(messages({ amount: '4.99' }, { available })).toEqual({});
    expect(messages({ amount: '5' }, { available: null })).toEqual({});
  });

  it('reports every field at once, one rule each', () => {
    expect(messages({ recipient: '', currency: 'USDT', amount: '0' })).toEqual({
      recipient: 'Please enter a valid username',
      amount: 'Amount must be greater than zero',
    });
    // An unknown currency has no minimum: only the currency is wrong.
    expect(messages({ currency: 'XYZ', amount: '0.0000001' })).toEqual({ currency: 'Currency XYZ is not supported' });
  });

  it('errors carry an i18n key and a severity', () => {
    const [error] = transferFormErrors({ ...valid, amount: '0.5' }, context);
    expect(error).toEqual({
      field: 'amount',
      key: 'wallet.send.errors.belowMinimum',
      values: { minimum: '1', currency: 'USDT' },
      severity: 'error',
    });
  });

  it('builds the request: trimmed, currency lower-cased (§5), memo only when given', () => {
    expect(toTransferRequest({ recipient: ' @bob ', currency: 'USDT', amount: ' 1,5 ', memo: '  ' })).toEqual({
      to_username: 'bob',
      currency: 'usdt',
      amount: '1.5',
    });
    expect(toTransferRequest({ ...valid, memo: ' lunch ' }).memo).toBe('lunch');
  });

  it('knows the wallet currencies before the balances arrive', () => {
    expect(WALLET_CURRENCY_FALLBACK).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDT', 'USD']));
  });
});

describe('transfer form reducer and summary', () => {
  function start(): { state: TransferFormState; reduce: ReturnType<typeof createTransferFormReducer> } {
    const newKey = counter();
    return { state: initialTransferFormState('USDT', newKey), reduce: createTransferFormReducer(newKey) };
  }

  it('shows a field rule once the field is left, and every rule after a send attempt', () => {
    const { state, reduce } = start();
    expect(transferFormSummary(state, context).visibleErrors).toEqual({});
    const blurred = reduce(state, { type: 'blur', field: 'recipient' });
    expect(Object.keys(transferFormSummary(blurred, context).visibleErrors)).toEqual(['recipient']);
    const attempted = reduce(blurred, { type: 'submitAttempted' });
    expect(Object.keys(transferFormSummary(attempted, context).visibleErrors).sort()).toEqual(['amount', 'recipient']);
  });

  it('offers a request only when every rule passes', () => {
    const { state, reduce } = start();
    expect(transferFormSummary(state, context).request).toBeNull();
    let next = reduce(state, { type: 'edit', field: 'recipient', value: 'bob' });
    next = reduce(next, { type: 'edit', field: 'amount', value: '2' });
    const summary = transferFormSummary(next, context);
    expect(summary.request).toEqual({ to_username: 'bob', currency: 'usdt', amount: '2' });
    expect(summary.minimumAmount).toBe('1');
  });

  it('keeps one idempotency key while the payload stays, so a retry cannot send twice', () => {
    const { state, reduce } = start();
    let next = reduce(state, { type: 'edit', field: 'recipient', value: 'bob' });
    next = reduce(next, { type: 'edit', field: 'amount', value: '2' });
    const key = next.idempotencyKey;
    next = reduce(next, { type: 'submitAttempted' });
    next = reduce(next, { type: 'failed', error: { field: 'form', key: 'errors.networkError', severity: 'error' } });
    next = reduce(next, { type: 'submitAttempted' });
    next = reduce(next, { type: 'blur', field: 'amount' });
    next = reduce(next, { type: 'edit', field: 'amount', value: '2' });
    expect(next.idempotencyKey).toBe(key);
  });

  it('takes a fresh key when the payload changes, and after a completed send', () => {
    const { state, reduce } = start();
    const edited = reduce(state, { type: 'edit', field: 'amount', value: '2' });
    expect(edited.idempotencyKey).not.toBe(state.idempotencyKey);
    const sent = reduce(edited, { type: 'sent' });
    expect(sent.idempotencyKey).not.toBe(edited.idempotencyKey);
    expect(sent.values).toEqual({ recipient: '', currency: 'USDT', amount: '', memo: '' });
    expect(sent.submitAttempted).toBe(false);
  });

  it('makes keys the server accepts, also where randomUUID is missing (plain http)', () => {
    const first = createIdempotencyKey();
    expect(first).toMatch(IDEMPOTENCY_KEY_PATTERN);
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array) => real.getRandomValues(array) });
    const fallback = createIdempotencyKey();
    expect(fallback).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(fallback).not.toBe(createIdempotencyKey());
    vi.unstubAllGlobals();
  });

  it("shows the server's error until the user edits what it was about", () => {
    const { state, reduce } = start();
    const failed = reduce(state, {
      type: 'failed',
      error: { field: 'recipient', key: 'wallet.send.errors.recipientNotFound', severity: 'error' },
    });
    expect(text(transferFormSummary(failed, context).visibleErrors.recipient)).toBe('No user with this username');
    const other = reduce(failed, { type: 'edit', field: 'memo', value: 'hi' });
    expect(other.serverError).not.toBeNull();
    const fixed = reduce(other, { type: 'edit', field: 'recipient', value: 'carol' });
    expect(fixed.serverError).toBeNull();
  });
});

describe('server failures in the spec words', () => {
  const request = { to_username: 'bob', currency: 'usdt', amount: '5' };
  const failure = (code: string, message: string, details?: unknown) =>
    transferErrorFromFailure(new ApiError(400, code, message, details), request);

  it.each([
    [
      'AMOUNT_NOT_POSITIVE',
      'Amount must be greater than zero',
      undefined,
      'amount',
      'Amount must be greater than zero',
    ],
    [
      'CURRENCY_NOT_SUPPORTED',
      'Currency USDT is not supported',
      undefined,
      'currency',
      'Currency USDT is not supported',
    ],
    [
      'AMOUNT_BELOW_MINIMUM',
      'Minimum transfer amount is 1 USDT',
      { field: 'amount', minimum: '1' },
      'amount',
      'Minimum transfer amount is 1 USDT',
    ],
    ['USERNAME_INVALID', 'Please enter a valid username', undefined, 'recipient', 'Please enter a valid username'],
    ['RECIPIENT_NOT_FOUND', 'No user with this username', undefined, 'recipient', 'No user with this username'],
    [
      'TRANSFER_TO_SELF',
      'You cannot send funds to yourself',
      undefined,
      'recipient',
      'You cannot send funds to yourself',
    ],
    ['INSUFFICIENT_BALANCE', 'Insufficient balance', undefined, 'amount', 'Insufficient balance'],
  ])('%s goes to its field', (code, message, details, field, shown) => {
    const error = failure(code, message, details);
    expect(error.field).toBe(field);
    expect(text(error)).toBe(shown);
  });

  it('shows a server message with values by its text key: the same words in English, on its field', async () => {
    const details = { field: 'amount', decimals: 2, text: 'amountDecimals', params: { decimals: 2, currency: 'USDT' } };
    const error = failure('INVALID_AMOUNT', 'Amount has more than 2 decimals for USDT', details);
    expect(error).toMatchObject({ field: 'amount', key: 'serverMessages.amountDecimals' });
    expect(text(error)).toBe('Amount has more than 2 decimals for USDT');
    await loadLanguage('fr');
    await i18n.changeLanguage('fr');
    try {
      expect(text(error)).toBe('Le montant a plus de 2 décimales pour USDT');
    } finally {
      await i18n.changeLanguage('en');
    }
    // An unknown text key falls back to the server's words.
    const unknown = failure('INVALID_AMOUNT', 'Server words', { field: 'amount', text: 'noSuchText', params: {} });
    expect(text(unknown)).toBe('Server words');
  });

  it('shows any other server text as it came, on the field it names', () => {
    const error = failure('INVALID_AMOUNT', 'Amount has more than 2 decimals for USDT', { field: 'amount' });
    expect(error.field).toBe('amount');
    expect(text(error)).toBe('Amount has more than 2 decimals for USDT');
    const limited = transferErrorFromFailure(
      new ApiError(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.'),
      request,
    );
    expect(limited).toMatchObject({ field: 'form' });
    expect(text(limited)).toBe('Too many attempts. Please try again later.');
  });

  it('says a retry is safe after a lost answer, and falls back to §8 otherwise', () => {
    const network = transferErrorFromFailure(new ApiError(0, 'NETWORK_ERROR', 'Network error occurred'), request);
    expect(text(network)).toMatch(/^Network error occurred\. Sending again is safe/);
    expect(text(transferErrorFromFailure(new Error('bug'), request))).toBe('Transfer failed. Please try again.');
    expect(text(failure('INVALID_RESPONSE', 'Unexpected response from the server'))).toBe(
      'Transfer failed. Please try again.',
    );
  });
});
