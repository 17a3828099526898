import i18n from 'i18next';
import { timeZonePreference } from '../state/preferences-store.ts';

/**
 * Where every formatter gets its language and time zone: the one place a user preference for a
 * number format or a time zone plugs in (Settings > Preferences), so no screen reads them itself.
 */

/** The locale dates are written in: the interface language today. */
export function formatLocale(): string {
  return i18n.language || 'en';
}

/** The time zone times are shown in: the one chosen in Settings > Preferences, else the device's (undefined lets Intl use it). */
export function formatTimeZone(): string | undefined {
  return timeZonePreference();
}
