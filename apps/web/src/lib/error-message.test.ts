import { serverMessageText } from '@platform/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { i18n } from '../i18n/i18n.ts';
import { loadLanguage } from '../i18n/locale-loader.ts';
import { errorMessage } from './error-message.ts';

const t = i18n.t.bind(i18n);

describe('errorMessage (spec §8: the server error field or a fallback)', () => {
  it("prefers the server's own words", () => {
    const error = new ApiError(422, 'SOME_RULE', 'Minimum withdrawal amount is 0.01 BTC');
    expect(errorMessage(error, t, 'errors.transferFailed')).toBe('Minimum withdrawal amount is 0.01 BTC');
  });

  it('falls back when the answer carried no error envelope (a bare 502 from a proxy)', () => {
    const error = new ApiError(502, 'HTTP_ERROR', 'Request failed with status 502');
    expect(errorMessage(error, t, 'errors.transferFailed')).toBe(t('errors.transferFailed'));
    expect(errorMessage(error, t, 'errors.transferFailed')).not.toContain('502');
  });

  it('says so when the network failed', () => {
    const error = new ApiError(0, 'NETWORK_ERROR', 'Network error occurred');
    expect(errorMessage(error, t, 'errors.transferFailed')).toBe(t('errors.networkError'));
  });
});

describe('server messages with values (docs/i18n.md "Server texts")', () => {
  const limitParams = { remaining: '120.50', limit: '1000.00' };
  const limitError = () =>
    new ApiError(422, 'DAILY_LIMIT_EXCEEDED', serverMessageText('dailyWithdrawalLimit', limitParams), {
      kyc_tier: 'basic',
      text: 'dailyWithdrawalLimit',
      params: limitParams,
    });

  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('reads in English exactly as the API message, values included', () => {
    const error = limitError();
    expect(errorMessage(error, t, 'errors.transferFailed')).toBe(error.message);
    expect(error.message).toBe(
      'This withdrawal exceeds your daily withdrawal limit: 120.50 USD of your 1000.00 USD limit remains for the next 24 hours',
    );
  });

  it('reads in the current language with the same values', async () => {
    await loadLanguage('de');
    await i18n.changeLanguage('de');
    const text = errorMessage(limitError(), t, 'errors.transferFailed');
    expect(text).toContain('tägliches Auszahlungslimit');
    expect(text).toContain('120.50 USD');
    expect(text).toContain('1000.00 USD');
  });

  it('ignores an unknown or hostile text and keeps only text and number values', () => {
    for (const text of ['noSuchText', '__proto__', 'a.b', 'x'.repeat(100), 'a\u0000b', 42, null]) {
      const error = new ApiError(422, 'DAILY_LIMIT_EXCEEDED', 'Specific', { text, params: {} });
      // In English the server's own words stand (they are the most precise).
      expect(errorMessage(error, t, 'errors.transferFailed'), String(text)).toBe('Specific');
    }
    const odd = new ApiError(400, 'VALIDATION_ERROR', 'x', {
      text: 'memoTooLong',
      params: { max: { toString: () => 'evil' }, extra: 1 },
    });
    expect(errorMessage(odd, t, 'errors.transferFailed')).toBe('The memo is longer than {{max}} characters');
  });

  it("shows the code's text in the reader's language, the server's English in English", async () => {
    const error = new ApiError(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.', undefined);
    i18n.addResourceBundle('de', 'translation', { serverErrors: { RATE_LIMITED: 'Zu viele Versuche.' } }, true, true);
    await i18n.changeLanguage('de');
    try {
      expect(errorMessage(error, i18n.t, 'errors.transferFailed')).toBe('Zu viele Versuche.');
    } finally {
      await i18n.changeLanguage('en');
    }
    expect(errorMessage(error, i18n.t, 'errors.transferFailed')).toBe('Too many attempts. Please try again later.');
  });
});
