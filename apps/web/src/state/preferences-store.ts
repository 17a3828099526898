import { normalizePairId, PREFERENCES_STORAGE_KEY } from '@platform/contracts';
import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Settings > Preferences: how the trade page and the number and date displays behave for this
 * user on this device. Kept under their own storage key, like the notification settings, so the
 * spec §3.1 client state keeps exactly its six persisted fields.
 */

/** How an open order's Cancel behaves: sent after a few seconds that allow an undo, or after a confirm dialog. */
export const cancelModes = ['undo', 'confirm'] as const;
export type CancelMode = (typeof cancelModes)[number];

/** Digit grouping and decimal separators: the language's own, or one of the common fixed styles. */
export const numberFormats = ['locale', 'comma-dot', 'dot-comma', 'space-comma'] as const;
export type NumberFormatId = (typeof numberFormats)[number];

/** The reference value under which a balance counts as small, in US dollars (decimal strings). */
export const smallBalanceThresholds = ['1', '10', '50'] as const;
export type SmallBalanceThreshold = (typeof smallBalanceThresholds)[number];

/** The device's own time zone. */
export const DEVICE_TIME_ZONE = 'device';

/** How long a cancel waits for an undo before it is sent. */
export const CANCEL_UNDO_MS = 5_000;

export const DEFAULT_PREFERRED_PAIR = 'BTC_USD';

export const preferencesSchema = z.object({
  defaultPair: z
    .string()
    .transform((value, context) => {
      const id = normalizePairId(value);
      if (id === null) {
        context.addIssue({ code: 'custom', message: 'not a pair' });
        return z.NEVER;
      }
      return id;
    })
    .catch(DEFAULT_PREFERRED_PAIR),
  confirmOrders: z.boolean().catch(false),
  cancelMode: z.enum(cancelModes).catch('undo'),
  hideSmallBalances: z.boolean().catch(false),
  smallBalanceUsd: z.enum(smallBalanceThresholds).catch('1'),
  timeZone: z
    .string()
    .refine((zone) => zone === DEVICE_TIME_ZONE || isTimeZone(zone))
    .catch(DEVICE_TIME_ZONE),
  numberFormat: z.enum(numberFormats).catch('locale'),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  defaultPair: DEFAULT_PREFERRED_PAIR,
  confirmOrders: false,
  cancelMode: 'undo',
  hideSmallBalances: false,
  smallBalanceUsd: '1',
  timeZone: DEVICE_TIME_ZONE,
  numberFormat: 'locale',
};

/** True for a zone this browser's Intl knows ('Europe/Paris', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface PreferencesState extends Preferences {
  setPreference: <K extends keyof Preferences>(key: K, value: Preferences[K]) => void;
  resetPreferences: () => void;
}

/** Stored preferences are outside data: each field is read on its own and falls back alone. */
export function mergeStoredPreferences(stored: unknown, current: PreferencesState): PreferencesState {
  if (typeof stored !== 'object' || stored === null) return current;
  const parsed = preferencesSchema.safeParse({ ...defaultPreferences, ...stored });
  return parsed.success ? { ...current, ...parsed.data } : current;
}

export const usePreferences = create<PreferencesState>()(
  persist(
    (set) => ({
      ...defaultPreferences,
      setPreference: (key, value) => set({ [key]: value } as Partial<Preferences>),
      resetPreferences: () => set({ ...defaultPreferences }),
    }),
    {
      name: PREFERENCES_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): Preferences => ({
        defaultPair: state.defaultPair,
        confirmOrders: state.confirmOrders,
        cancelMode: state.cancelMode,
        hideSmallBalances: state.hideSmallBalances,
        smallBalanceUsd: state.smallBalanceUsd,
        timeZone: state.timeZone,
        numberFormat: state.numberFormat,
      }),
      merge: mergeStoredPreferences,
    },
  ),
);

/** The zone dates are shown in: the chosen one, or undefined for the device's (Intl's default). */
export function timeZonePreference(): string | undefined {
  const zone = usePreferences.getState().timeZone;
  return zone === DEVICE_TIME_ZONE ? undefined : zone;
}

export function numberFormatPreference(): NumberFormatId {
  return usePreferences.getState().numberFormat;
}

export interface NumberSeparators {
  group: string;
  decimal: string;
}

const FIXED_SEPARATORS: Record<Exclude<NumberFormatId, 'locale'>, NumberSeparators> = {
  'comma-dot': { group: ',', decimal: '.' },
  'dot-comma': { group: '.', decimal: ',' },
  // A narrow no-break space, so a number never breaks across lines (SI style).
  'space-comma': { group: '\u202f', decimal: ',' },
};

/** The separators a format uses; 'locale' asks Intl for the language's own (a sample, not money). */
export function numberSeparators(format: NumberFormatId, language: string): NumberSeparators {
  if (format !== 'locale') return FIXED_SEPARATORS[format];
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(language === 'ar' ? 'ar-u-nu-latn' : language).formatToParts(1234567.5);
  } catch {
    return FIXED_SEPARATORS['comma-dot'];
  }
  return {
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

/**
 * Rewrites a number the app formatted with ',' groups and a '.' decimal point into the chosen
 * separators ('1,234.56' -> '1.234,56'). Only digits' separators change: text around stays.
 */
export function localizeSeparators(text: string, separators: NumberSeparators): string {
  if (separators.group === ',' && separators.decimal === '.') return text;
  return text.replace(/\d[\d,]*(?:\.\d+)?/g, (number) =>
    number.replace(/[,.]/g, (mark) => (mark === ',' ? separators.group : separators.decimal)),
  );
}

/** The interface language as the page states it (i18n keeps <html lang> in step). */
function displayLocale(): string {
  const language = globalThis.document?.documentElement.lang || 'en';
  return language === 'ar' ? 'ar-u-nu-latn' : language;
}

const separatorsCache = new Map<string, NumberSeparators>();

/** The separators to display numbers with now; Intl is asked once per format and language. */
export function numberSeparatorsPreference(): NumberSeparators {
  const format = numberFormatPreference();
  const language = displayLocale();
  const key = `${format}|${language}`;
  let separators = separatorsCache.get(key);
  if (!separators) {
    separators = numberSeparators(format, language);
    separatorsCache.set(key, separators);
  }
  return separators;
}

/** A number formatted as '1,234.56' shown with the user's separators. */
export function localizedNumber(text: string): string {
  return localizeSeparators(text, numberSeparatorsPreference());
}
