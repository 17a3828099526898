import fs from 'node:fs';
import path from 'node:path';
import { englishParts } from '../../apps/web/src/i18n/english-parts.ts';
import { flatten, isLanguageNeutral } from '../../apps/web/src/i18n/text-check.ts';
import { isRootPart, type TextPart, textParts } from '../../apps/web/src/i18n/text-parts.ts';

const LOCALES = path.resolve(import.meta.dirname, '../../apps/web/src/i18n/locales');

/** Every text of a language, flattened with its part's root ('trade.form.submitBuy'). */
export function languageTexts(code: string): Map<string, string> {
  const all = new Map<string, string>();
  for (const part of textParts) {
    const root = isRootPart(part) ? '' : `${part}.`;
    const tree = code === 'en' ? englishParts[part as TextPart] : readPart(code, part);
    for (const [key, text] of flatten(tree)) all.set(root + key, text);
  }
  return all;
}

function readPart(code: string, part: string): unknown {
  const file = path.join(LOCALES, code, `${part}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/** A language's text for a key, with its variables filled in ('Buy {{currency}}' → 'BTC kaufen'). */
export function text(code: string, key: string, variables: Record<string, string | number> = {}): string {
  const found = languageTexts(code).get(key);
  if (found === undefined) throw new Error(`no ${code} text for ${key}`);
  return found.replace(/\{\{\s*([^},\s]+)[^}]*\}\}/g, (_, name: string) => String(variables[name] ?? ''));
}

/**
 * The English texts that must not show in a language: those with words, without variables (a
 * page shows them filled in), that the language translates, and that are not also one of its own
 * texts ("Status" is German too).
 */
export function forbiddenEnglish(code: string): Set<string> {
  const english = languageTexts('en');
  const translated = languageTexts(code);
  const own = new Set(translated.values());
  const forbidden = new Set<string>();
  for (const [key, source] of english) {
    if (source.includes('{{') || isLanguageNeutral(source) || own.has(source)) continue;
    if (translated.get(key) !== source) forbidden.add(source.trim());
  }
  return forbidden;
}
