import type { TFunction } from 'i18next';
import { ApiError } from '../api/client.ts';
import { i18n } from '../i18n/i18n.ts';
import { translateMessage } from './translate.ts';

/** A failure the user can act on, carrying the i18n key of its text (wallet extension problems). */
export class UserFacingError extends Error {
  readonly messageKey: string;

  constructor(messageKey: string) {
    super(messageKey);
    this.name = 'UserFacingError';
    this.messageKey = messageKey;
  }
}

/**
 * The text to show for a failed action. Spec §8 prefers the server's message: a translation of its
 * code wins when the current language has one (`serverErrors.<CODE>`), then the server's own words,
 * then the caller's fallback.
 */
export function errorMessage(error: unknown, t: TFunction, fallbackKey: string): string {
  if (error instanceof UserFacingError) return translateMessage(t, error.messageKey);
  if (error instanceof ApiError) {
    if (error.isNetworkError) return translateMessage(t, 'errors.networkError');
    // No error envelope (an answer we could not read, a proxy's bare 502): no server words to prefer.
    if (error.code === 'INVALID_RESPONSE' || error.code === 'HTTP_ERROR') return translateMessage(t, fallbackKey);
    const issueKey = error.issues.find((issue) => issue.key)?.key;
    if (issueKey) return translateMessage(t, issueKey);
    const codeKey = `serverErrors.${error.code}`;
    if (i18n.exists(codeKey)) return translateMessage(t, codeKey);
    if (error.message) return error.message;
  }
  return translateMessage(t, fallbackKey);
}
