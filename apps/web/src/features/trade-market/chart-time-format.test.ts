import i18n from 'i18next';
import { TickMarkType, type Time } from 'lightweight-charts';
import { afterEach, describe, expect, it } from 'vitest';
import { usePreferences } from '../../state/preferences-store.ts';
import { chartTickMark, chartTimeLabel } from './chart-time-format.ts';

// 2026-12-31 23:30 UTC: already 1 January 2027 in Tokyo.
const NEW_YEAR_EVE = (Date.UTC(2026, 11, 31, 23, 30) / 1000) as Time;

describe('chart time labels', () => {
  const language = i18n.language;
  const zone = usePreferences.getState().timeZone;
  afterEach(async () => {
    await i18n.changeLanguage(language);
    usePreferences.setState({ timeZone: zone });
  });

  it('writes the axis in the chart’s language and the chosen time zone', () => {
    usePreferences.setState({ timeZone: 'UTC' });
    expect(chartTickMark(NEW_YEAR_EVE, TickMarkType.Month, 'de')).toBe('Dez'); // English would write Dec
    expect(chartTickMark(NEW_YEAR_EVE, TickMarkType.Month, 'ja')).toBe('12月');
    expect(chartTickMark(NEW_YEAR_EVE, TickMarkType.Time, 'de')).toBe('23:30');
    usePreferences.setState({ timeZone: 'Asia/Tokyo' });
    expect(chartTickMark(NEW_YEAR_EVE, TickMarkType.Year, 'en')).toBe('2027');
    expect(chartTickMark(NEW_YEAR_EVE, TickMarkType.Time, 'en')).toBe('08:30');
  });

  it('writes the crosshair’s moment in the interface language and the chosen time zone', async () => {
    usePreferences.setState({ timeZone: 'UTC' });
    await i18n.changeLanguage('de');
    expect(chartTimeLabel(true)(NEW_YEAR_EVE)).toBe('31.12.2026, 23:30');
    expect(chartTimeLabel(false)(NEW_YEAR_EVE)).toBe('31.12.2026');
    usePreferences.setState({ timeZone: 'Asia/Tokyo' });
    await i18n.changeLanguage('fr');
    expect(chartTimeLabel(false)(NEW_YEAR_EVE)).toBe('1 janv. 2027');
  });
});
