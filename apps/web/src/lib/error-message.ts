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
 * A server message that carries values (a limit, a minimum): `details.text` names its text under
 * serverMessages and `details.params` holds the values (docs/i18n.md "Server texts"). The values are
 * shown as the server wrote them, so the English reads exactly as the API's message. Null when the
 * answer has none or names a text this client does not know.
 */
export function serverMessage(error: ApiError, t: TFunction): string | null {
  const text = serverMessageKey(error);
  return text ? translateMessage(t, text.key, text.values) : null;
}

/** The same as a key and its values, for forms that keep an error as key + values. */
export function serverMessageKey(error: ApiError): { key: string; values: Record<string, string> } | null {
  const details = error.details;
  if (typeof details !== 'object' || details === null) return null;
  const { text, params } = details as { text?: unknown; params?: unknown };
  if (typeof text !== 'string' || !/^[a-zA-Z]{1,64}$/.test(text)) return null;
  const key = `serverMessages.${text}`;
  if (!i18n.exists(key)) return null;
  const values: Record<string, string> = {};
  if (typeof params === 'object' && params !== null) {
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string' || typeof value === 'number') values[name] = String(value);
    }
  }
  return { key, values };
}

/**
 * The text to show for a failed action. Spec §8 prefers the server's message: in English its own
 * words; in another language the text of its code (`serverErrors.<CODE>`), the API's English staying
 * for API users; then the caller's fallback. A message with values (serverMessage) comes first.
 */
export function errorMessage(error: unknown, t: TFunction, fallbackKey: string): string {
  if (error instanceof UserFacingError) return translateMessage(t, error.messageKey);
  if (error instanceof ApiError) {
    if (error.isNetworkError) return translateMessage(t, 'errors.networkError');
    // No error envelope (an answer we could not read, a proxy's bare 502): no server words to prefer.
    if (error.code === 'INVALID_RESPONSE' || error.code === 'HTTP_ERROR') return translateMessage(t, fallbackKey);
    const issueKey = error.issues.find((issue) => issue.key)?.key;
    if (issueKey) return translateMessage(t, issueKey);
    const withValues = serverMessage(error, t);
    if (withValues) return withValues;
    // In English the server's own words are the most precise; in another language, its code's text.
    const codeKey = `serverErrors.${error.code}`;
    const english = !i18n.language || i18n.language === 'en';
    if (!english && i18n.exists(codeKey)) return translateMessage(t, codeKey);
    if (error.message) return error.message;
    if (i18n.exists(codeKey)) return translateMessage(t, codeKey);
  }
  return translateMessage(t, fallbackKey);
}
