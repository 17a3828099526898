import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from './date-format.ts';
import { MISSING_VALUE } from './format.ts';

describe('one date format per language', () => {
  const language = i18n.language;
  afterEach(async () => {
    await i18n.changeLanguage(language);
  });

  it('writes a moment as numbers and a 24-hour clock, in the interface language', async () => {
    const instant = new Date(2026, 10, 24, 14, 3, 22);
    await i18n.changeLanguage('en');
    expect(formatDateTime(instant)).toBe('11/24/2026, 14:03:22');
    expect(formatDate(instant.getTime())).toBe('11/24/2026');
    expect(formatTime(instant.toISOString())).toBe('14:03:22');
    await i18n.changeLanguage('de');
    expect(formatDateTime(instant)).toBe('24.11.2026, 14:03:22');
  });

  it('shows a dash for a missing or unreadable moment', () => {
    expect(formatDateTime(null)).toBe(MISSING_VALUE);
    expect(formatDate('not a date')).toBe(MISSING_VALUE);
  });
});
