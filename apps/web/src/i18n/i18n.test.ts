import { languageCodes } from '@platform/contracts';
import { createInstance } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../state/app-store.ts';
import { createLanguageDetector, detectionOptions } from './i18n.ts';

async function detect(): Promise<string> {
  const instance = createInstance();
  await instance.use(createLanguageDetector()).init({
    resources: { en: { translation: {} } },
    fallbackLng: 'en',
    supportedLngs: [...languageCodes],
    load: 'languageOnly',
    showSupportNotice: false,
    detection: detectionOptions,
  });
  return instance.language;
}

describe('language detection (spec §9)', () => {
  afterEach(() => document.documentElement.setAttribute('lang', 'en'));

  it('takes the saved choice first', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    useAppStore.getState().setLanguage('ja');
    expect(await detect()).toBe('ja');
  });

  it('then the browser', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nb-NO', 'en']);
    expect(await detect()).toBe('no');
  });

  it('then the page', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['xx-YY']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('xx-YY');
    document.documentElement.setAttribute('lang', 'fr');
    expect(await detect()).toBe('fr');
  });
});
