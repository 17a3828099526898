import i18n from 'i18next';
import { timeZonePreference } from '../state/preferences-store.ts';

/**
 * Where every formatter gets its language and time zone: the one place a user preference for a
 * number format or a time zone plugs in (Settings > Preferences), so no screen reads them itself.
 */

/**
 * The locale dates are written in: the interface language, with Latin digits (Arabic-language
 * exchanges write 0-9, and figures must read the same in every language: spec §5).
 */
export function formatLocale(): string {
  const language = i18n.language || 'en';
  return language === 'ar' ? 'ar-u-nu-latn' : language;
}

/** The time zone times are shown in: the one chosen in Settings > Preferences, else the device's (undefined lets Intl use it). */
export function formatTimeZone(): string | undefined {
  return timeZonePreference();
}
