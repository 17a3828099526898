import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import {
  amountProblem,
  conversionRequest,
  convertFormSummary,
  failureField,
  isQuoteProblem,
  quoteMatches,
  quoteSecondsLeft,
} from './convert-form.ts';

const quote = {
  quote_id: 'q-1',
  from_currency: 'USDT',
  to_currency: 'BTC',
  from_amount: '10.00',
  to_amount: '0.000165',
  rate: '0.0000165',
  spread: { percent: '0.5', amount: '0.00000083', currency: 'BTC' },
  price_source: 'order_book' as const,
  route: ['USDT', 'BTC'],
  expires_at: '2026-01-01T00:00:15.000Z',
  valid_for_seconds: 15,
};

describe('conversion amounts (spec §5, §9 decimals)', () => {
  it('checks the amount with the currency decimals and the balance', () => {
    expect(amountProblem('', 'USDT')).toEqual({ key: 'wallet.convert.errors.amountNotPositive' });
    expect(amountProblem('0', 'USDT')).toEqual({ key: 'wallet.convert.errors.amountNotPositive' });
    expect(amountProblem('-1', 'USDT')).toEqual({ key: 'wallet.convert.errors.amountNotPositive' });
    expect(amountProblem('1e3', 'USDT')).toEqual({ key: 'errors.invalidAmount' });
    expect(amountProblem('1.005', 'USDT')).toEqual({
      key: 'wallet.convert.errors.tooManyDecimals',
      values: { decimals: '2', currency: 'USDT' },
    });
    expect(amountProblem('0.123456789', 'btc')).toMatchObject({ values: { decimals: '8', currency: 'BTC' } });
    expect(amountProblem('0.12345678', 'BTC')).toBeNull();
    expect(amountProblem('1,5', 'DOT')).toBeNull();
    expect(amountProblem('10.01', 'USDT', '10')).toEqual({ key: 'errors.insufficientBalance' });
    expect(amountProblem('10', 'USDT', '10')).toBeNull();
  });

  it('asks for an estimate once the amount reads right, even above the balance', () => {
    const summary = convertFormSummary({ from: 'usdt', to: 'btc', amount: ' 25,5 ' }, '10');
    expect(summary.amountProblem).toEqual({ key: 'errors.insufficientBalance' });
    expect(summary.estimateRequest).toEqual({ from_currency: 'USDT', to_currency: 'BTC', from_amount: '25.5' });
    expect(convertFormSummary({ from: 'BTC', to: 'BTC', amount: '1' }, null)).toMatchObject({
      samePair: true,
      estimateRequest: null,
    });
    expect(convertFormSummary({ from: 'USDT', to: 'BTC', amount: '1.001' }, null).estimateRequest).toBeNull();
    expect(convertFormSummary({ from: 'USDT', to: 'BTC', amount: '' }, null)).toMatchObject({
      amountProblem: null,
      estimateRequest: null,
    });
  });
});

describe('quotes', () => {
  it('counts the validity down from when the answer arrived', () => {
    expect(quoteSecondsLeft(quote, 1_000, 1_000)).toBe(15);
    expect(quoteSecondsLeft(quote, 1_000, 1_500)).toBe(15);
    expect(quoteSecondsLeft(quote, 1_000, 15_999)).toBe(1);
    expect(quoteSecondsLeft(quote, 1_000, 16_000)).toBe(0);
    expect(quoteSecondsLeft(quote, 1_000, 99_000)).toBe(0);
    // A clock read before the quote arrived shows the whole validity, never more.
    expect(quoteSecondsLeft(quote, 1_000, 0)).toBe(15);
  });

  it('matches a quote to the request by pair and amount value', () => {
    const request = { from_currency: 'usdt', to_currency: 'BTC', from_amount: '10' };
    expect(quoteMatches(quote, request)).toBe(true);
    expect(quoteMatches(quote, { ...request, from_amount: '10.5' })).toBe(false);
    expect(quoteMatches(quote, { ...request, to_currency: 'ETH' })).toBe(false);
    expect(quoteMatches(quote, null)).toBe(false);
  });

  it("executes exactly the quote's pair and amount", () => {
    expect(conversionRequest(quote)).toEqual({
      from_currency: 'USDT',
      to_currency: 'BTC',
      from_amount: '10.00',
      quote_id: 'q-1',
    });
  });

  it('tells quote problems and amount problems from the rest', () => {
    const expired = new ApiError(409, 'QUOTE_EXPIRED', 'The quote has expired. Please get a new estimate.');
    expect(isQuoteProblem(expired)).toBe(true);
    expect(isQuoteProblem(new ApiError(409, 'QUOTE_ALREADY_USED', 'x'))).toBe(true);
    expect(isQuoteProblem(new ApiError(409, 'PRICE_MOVED', 'The price has moved since your quote.'))).toBe(true);
    expect(isQuoteProblem(new ApiError(503, 'PRICE_STALE', 'x'))).toBe(false);
    expect(failureField(new ApiError(422, 'CONVERSION_LIMIT_EXCEEDED', 'x'))).toBe('form');
    expect(isQuoteProblem(new ApiError(422, 'INSUFFICIENT_BALANCE', 'x'))).toBe(false);
    expect(failureField(new ApiError(422, 'INSUFFICIENT_BALANCE', 'x'))).toBe('amount');
    expect(failureField(new ApiError(503, 'PRICE_UNAVAILABLE', 'x'))).toBe('form');
    expect(failureField(new Error('x'))).toBe('form');
  });
});

describe('rates', () => {
  it('keeps tiny rates readable and large ones in the price format', async () => {
    const { formatRateNumber, inverseRate } = await import('./convert-form.ts');
    expect(formatRateNumber('0.0000165')).toBe('0.0000165');
    expect(formatRateNumber('0.000000000123456789')).toBe('0.000000000123457');
    expect(formatRateNumber('0.5')).toBe('0.5');
    expect(formatRateNumber('60606.060606')).toBe('60,606.060606');
    expect(formatRateNumber('60606')).toBe('60,606.00');
    expect(formatRateNumber('x')).toBe('—');
    expect(inverseRate('0.0000165')).toBe('60606.060606060606060606');
    expect(inverseRate('0')).toBeNull();
  });
});
