import {
  DEFAULT_LANGUAGE_CODE,
  type LanguageCode,
  languageByCode,
  languageCodes,
  matchLanguageTag,
} from '@platform/contracts';
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { readSavedLanguage } from '../state/app-store.ts';
import { en } from './locales/en.ts';
import { noticeTexts } from './locales/en-notices.ts';
import { serverTexts } from './locales/en-server.ts';

const savedChoiceDetector = {
  name: 'savedChoice',
  lookup: () => readSavedLanguage() ?? undefined,
  cacheUserLanguage: () => {},
};

/** Mirrors the interface language onto <html lang> and dir (right to left for Arabic). */
export function applyDocumentLanguage(code: LanguageCode): void {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  root.lang = code;
  root.dir = languageByCode(code).dir;
}

export function currentLanguage(): LanguageCode {
  return matchLanguageTag(i18n.language) ?? DEFAULT_LANGUAGE_CODE;
}

/** Spec §9: the saved choice, then the browser, then the page (<html lang>). */
export const detectionOptions = {
  order: ['savedChoice', 'navigator', 'htmlTag'],
  caches: [],
  convertDetectedLanguage: (tag: string) => matchLanguageTag(tag) ?? tag,
};

export function createLanguageDetector(): LanguageDetector {
  const detector = new LanguageDetector();
  detector.addDetector(savedChoiceDetector);
  return detector;
}

void i18n
  .use(createLanguageDetector())
  .use(initReactI18next)
  .init({
    // A deep copy: screens' texts merge into these objects, and the English source must stay as written.
    resources: { en: { translation: structuredClone({ ...en, ...serverTexts, ...noticeTexts }) } },
    fallbackLng: DEFAULT_LANGUAGE_CODE,
    supportedLngs: [...languageCodes],
    load: 'languageOnly',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
    detection: detectionOptions,
  });

i18n.on('languageChanged', (code) => applyDocumentLanguage(matchLanguageTag(code) ?? DEFAULT_LANGUAGE_CODE));
applyDocumentLanguage(currentLanguage());

export { i18n };
