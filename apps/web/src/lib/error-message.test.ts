import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { i18n } from '../i18n/i18n.ts';
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
