import { z } from 'zod';

/** Spec §3.1: the 22 interface languages, in the spec's order; every one has the full text (issue F11). */
export const languageCodes = [
  'en',
  'da',
  'de',
  'es',
  'fr',
  'it',
  'pt',
  'ru',
  'zh',
  'ja',
  'ko',
  'ar',
  'hi',
  'tr',
  'pl',
  'nl',
  'sv',
  'no',
  'fi',
  'cs',
  'hu',
  'ro',
] as const;

export const languageCodeSchema = z.enum(languageCodes);
export type LanguageCode = z.infer<typeof languageCodeSchema>;

/** Spec §9: English unless the saved choice, the browser or the page says otherwise. */
export const DEFAULT_LANGUAGE_CODE: LanguageCode = 'en';

export interface Language {
  code: LanguageCode;
  /** The language's own name, as a speaker of it would look for it in a list. */
  name: string;
  englishName: string;
  /** The country whose flag stands for the language (ISO 3166-1 alpha-2), drawn as an image. */
  country: string;
  dir: 'ltr' | 'rtl';
}

export const languages: readonly Language[] = [
  { code: 'en', name: 'English', englishName: 'English', country: 'GB', dir: 'ltr' },
  { code: 'da', name: 'Dansk', englishName: 'Danish', country: 'DK', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', englishName: 'German', country: 'DE', dir: 'ltr' },
  { code: 'es', name: 'Español', englishName: 'Spanish', country: 'ES', dir: 'ltr' },
  { code: 'fr', name: 'Français', englishName: 'French', country: 'FR', dir: 'ltr' },
  { code: 'it', name: 'Italiano', englishName: 'Italian', country: 'IT', dir: 'ltr' },
  { code: 'pt', name: 'Português', englishName: 'Portuguese', country: 'PT', dir: 'ltr' },
  { code: 'ru', name: 'Русский', englishName: 'Russian', country: 'RU', dir: 'ltr' },
  { code: 'zh', name: '中文', englishName: 'Chinese', country: 'CN', dir: 'ltr' },
  { code: 'ja', name: '日本語', englishName: 'Japanese', country: 'JP', dir: 'ltr' },
  { code: 'ko', name: '한국어', englishName: 'Korean', country: 'KR', dir: 'ltr' },
  { code: 'ar', name: 'العربية', englishName: 'Arabic', country: 'SA', dir: 'rtl' },
  { code: 'hi', name: 'हिन्दी', englishName: 'Hindi', country: 'IN', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', englishName: 'Turkish', country: 'TR', dir: 'ltr' },
  { code: 'pl', name: 'Polski', englishName: 'Polish', country: 'PL', dir: 'ltr' },
  { code: 'nl', name: 'Nederlands', englishName: 'Dutch', country: 'NL', dir: 'ltr' },
  { code: 'sv', name: 'Svenska', englishName: 'Swedish', country: 'SE', dir: 'ltr' },
  { code: 'no', name: 'Norsk', englishName: 'Norwegian', country: 'NO', dir: 'ltr' },
  { code: 'fi', name: 'Suomi', englishName: 'Finnish', country: 'FI', dir: 'ltr' },
  { code: 'cs', name: 'Čeština', englishName: 'Czech', country: 'CZ', dir: 'ltr' },
  { code: 'hu', name: 'Magyar', englishName: 'Hungarian', country: 'HU', dir: 'ltr' },
  { code: 'ro', name: 'Română', englishName: 'Romanian', country: 'RO', dir: 'ltr' },
];

export function isLanguageCode(value: unknown): value is LanguageCode {
  return languageCodeSchema.safeParse(value).success;
}

export function languageByCode(code: LanguageCode): Language {
  const found = languages.find((language) => language.code === code);
  if (!found) throw new Error(`Language ${code} is missing from the list`);
  return found;
}

/**
 * Maps a browser or page language tag (`de-AT`, `nb-NO`, `zh-Hans-CN`) to one of ours, or null.
 * Norwegian Bokmål and Nynorsk browsers report nb or nn; both mean our `no`.
 */
export function matchLanguageTag(tag: string | null | undefined): LanguageCode | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const normalised = primary === 'nb' || primary === 'nn' ? 'no' : primary;
  return isLanguageCode(normalised) ? normalised : null;
}
