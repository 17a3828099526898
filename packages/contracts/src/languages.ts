import { z } from 'zod';

/** Spec §3.1: the 22 interface languages, in the spec's order. */
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
  flag: string;
  dir: 'ltr' | 'rtl';
  /**
   * Spec §3.1: only some languages have the full text; the others cover a few core words and fall
   * back to English for everything else.
   */
  fullText: boolean;
}

export const languages: readonly Language[] = [
  { code: 'en', name: 'English', englishName: 'English', flag: '🇬🇧', dir: 'ltr', fullText: true },
  { code: 'da', name: 'Dansk', englishName: 'Danish', flag: '🇩🇰', dir: 'ltr', fullText: true },
  { code: 'de', name: 'Deutsch', englishName: 'German', flag: '🇩🇪', dir: 'ltr', fullText: true },
  { code: 'es', name: 'Español', englishName: 'Spanish', flag: '🇪🇸', dir: 'ltr', fullText: true },
  { code: 'fr', name: 'Français', englishName: 'French', flag: '🇫🇷', dir: 'ltr', fullText: true },
  { code: 'it', name: 'Italiano', englishName: 'Italian', flag: '🇮🇹', dir: 'ltr', fullText: false },
  { code: 'pt', name: 'Português', englishName: 'Portuguese', flag: '🇵🇹', dir: 'ltr', fullText: false },
  { code: 'ru', name: 'Русский', englishName: 'Russian', flag: '🇷🇺', dir: 'ltr', fullText: true },
  { code: 'zh', name: '中文', englishName: 'Chinese', flag: '🇨🇳', dir: 'ltr', fullText: true },
  { code: 'ja', name: '日本語', englishName: 'Japanese', flag: '🇯🇵', dir: 'ltr', fullText: false },
  { code: 'ko', name: '한국어', englishName: 'Korean', flag: '🇰🇷', dir: 'ltr', fullText: false },
  { code: 'ar', name: 'العربية', englishName: 'Arabic', flag: '🇸🇦', dir: 'rtl', fullText: false },
  { code: 'hi', name: 'हिन्दी', englishName: 'Hindi', flag: '🇮🇳', dir: 'ltr', fullText: false },
  { code: 'tr', name: 'Türkçe', englishName: 'Turkish', flag: '🇹🇷', dir: 'ltr', fullText: false },
  { code: 'pl', name: 'Polski', englishName: 'Polish', flag: '🇵🇱', dir: 'ltr', fullText: false },
  { code: 'nl', name: 'Nederlands', englishName: 'Dutch', flag: '🇳🇱', dir: 'ltr', fullText: false },
  { code: 'sv', name: 'Svenska', englishName: 'Swedish', flag: '🇸🇪', dir: 'ltr', fullText: false },
  { code: 'no', name: 'Norsk', englishName: 'Norwegian', flag: '🇳🇴', dir: 'ltr', fullText: false },
  { code: 'fi', name: 'Suomi', englishName: 'Finnish', flag: '🇫🇮', dir: 'ltr', fullText: false },
  { code: 'cs', name: 'Čeština', englishName: 'Czech', flag: '🇨🇿', dir: 'ltr', fullText: false },
  { code: 'hu', name: 'Magyar', englishName: 'Hungarian', flag: '🇭🇺', dir: 'ltr', fullText: false },
  { code: 'ro', name: 'Română', englishName: 'Romanian', flag: '🇷🇴', dir: 'ltr', fullText: false },
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
