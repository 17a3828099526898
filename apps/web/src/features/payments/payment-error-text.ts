import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';

/**
 * Spec §8: a failed deposit, withdrawal or payment call shows the server's error text, or the
 * call's fallback ('Failed to create deposit address', 'Failed to create payment', ...). An answer
 * without the server's error envelope (a proxy's 502 page) has no text of the server's: the
 * fallback says it better than 'Request failed with status 502'.
 */
export function serviceErrorText(error: unknown, t: TFunction, fallbackKey: string): string {
  if (error instanceof ApiError && error.code === 'HTTP_ERROR') return translateMessage(t, fallbackKey);
  return errorMessage(error, t, fallbackKey);
}
