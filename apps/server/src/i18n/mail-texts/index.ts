import type { LanguageCode } from '@platform/contracts';
import type { Mail } from '../../adapters/mailer/mailer.ts';
import { ar } from './ar.ts';
import { cs } from './cs.ts';
import { da } from './da.ts';
import { de } from './de.ts';
import { en, type MailTextKey, type MailTexts } from './en.ts';
import { es } from './es.ts';
import { fi } from './fi.ts';
import { fr } from './fr.ts';
import { hi } from './hi.ts';
import { hu } from './hu.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';
import { nl } from './nl.ts';
import { no } from './no.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';
import { ro } from './ro.ts';
import { ru } from './ru.ts';
import { sv } from './sv.ts';
import { tr } from './tr.ts';
import { zh } from './zh.ts';

export type { MailTextKey, MailTexts };

/** Every mail text in all 22 languages (docs/i18n.md "Server texts"); English is the source. */
export const mailTextsByLanguage: Record<LanguageCode, MailTexts> = {
  en,
  da,
  de,
  es,
  fr,
  it,
  pt,
  ru,
  zh,
  ja,
  ko,
  ar,
  hi,
  tr,
  pl,
  nl,
  sv,
  no,
  fi,
  cs,
  hu,
  ro,
};

/** The texts of the account's language; English when it chose none. */
export function mailTexts(language: LanguageCode | null | undefined): MailTexts {
  return language && Object.hasOwn(mailTextsByLanguage, language) ? mailTextsByLanguage[language] : en;
}

export type MailValues = Record<string, string | number>;

/** Fills each {{name}} with its value; a name without a value stays as it is. */
export function fillText(template: string, values: MailValues): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A paragraph of the mail, or the link it asks to open (under the paragraph before it in the text version). */
export type MailBlock = MailTextKey | { link: string; label: MailTextKey };

/**
 * Writes a mail from text keys in the account's language: the text version with the link's address
 * on the line under the paragraph that asks to open it, the HTML version with every text and value
 * escaped and the link as an anchor. `htmlValues` replace values in the HTML version (already HTML).
 */
export function composeMail(
  to: string,
  texts: MailTexts,
  subject: MailTextKey,
  blocks: readonly MailBlock[],
  values: MailValues,
  htmlValues: Record<string, string> = {},
): Mail {
  const escaped: MailValues = {};
  for (const [name, value] of Object.entries(values)) escaped[name] = escapeHtml(String(value));
  Object.assign(escaped, htmlValues);
  let text = '';
  let html = '';
  for (const block of blocks) {
    if (typeof block === 'string') {
      text += `${text === '' ? '' : '\n\n'}${fillText(texts[block], values)}`;
      html += `<p>${fillText(escapeHtml(texts[block]), escaped)}</p>`;
    } else {
      text += `\n${block.link}`;
      html += `<p><a href="${escapeHtml(block.link)}">${escapeHtml(texts[block.label])}</a></p>`;
    }
  }
  return { to, subject: fillText(texts[subject], values), text: `${text}\n`, html };
}
