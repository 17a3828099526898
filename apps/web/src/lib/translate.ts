import type { TFunction } from 'i18next';

type LooseT = (key: string, options?: Record<string, unknown>) => string;

/**
 * Translates a key that arrives as data (a schema message such as `validation.emailRequired`, a
 * server issue key). Unknown keys show as they came, so a new server text is never hidden.
 */
export function translateMessage(t: TFunction, message: string, values?: Record<string, unknown>): string {
  return (t as unknown as LooseT)(message, { defaultValue: message, ...values });
}
