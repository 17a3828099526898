/**
 * Where each language stands against English, and the English texts to translate.
 *   npx tsx apps/web/scripts/i18n-status.ts                 a table: missing, extra, empty, same as English, variables
 *   npx tsx apps/web/scripts/i18n-status.ts --todo de DIR   writes DIR/<part>.json: the English of every key German still
 *                                                            needs, in German's plural forms (merge the translations into
 *                                                            src/i18n/locales/de/<part>.json)
 * The same rules fail `npm test` (src/i18n/completeness.test.ts); docs/i18n.md is the guide.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageCodes } from '@platform/contracts';
import { englishParts } from '../src/i18n/english-parts.ts';
import { checkLanguage, expectedKeys, type FlatTexts, flatten } from '../src/i18n/text-check.ts';
import { type TextPart, textParts } from '../src/i18n/text-parts.ts';

const LOCALES = join(import.meta.dirname, '../src/i18n/locales');

function readFlat(code: string, part: TextPart): FlatTexts {
  const path = join(LOCALES, code, `${part}.json`);
  return existsSync(path) ? flatten(JSON.parse(readFileSync(path, 'utf8'))) : new Map();
}

function sameOnPurpose(code: string): Set<string> {
  const path = join(LOCALES, code, '_same.json');
  return new Set(existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as string[]) : []);
}

function unflatten(entries: Iterable<[string, string]>): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [key, text] of entries) {
    const path = key.split('.');
    let node = tree;
    for (const step of path.slice(0, -1)) {
      node[step] ??= {};
      node = node[step] as Record<string, unknown>;
    }
    node[path[path.length - 1] ?? key] = text;
  }
  return tree;
}

function table(): void {
  console.log('lang part          missing extra empty same vars');
  for (const code of languageCodes.filter((c) => c !== 'en')) {
    for (const part of textParts) {
      const p = checkLanguage(flatten(englishParts[part]), readFlat(code, part), code, sameOnPurpose(code));
      const counts = [p.missing, p.extra, p.empty, p.sameAsEnglish, p.variables].map((list) => list.length);
      if (counts.some((n) => n > 0))
        console.log(`${code.padEnd(4)} ${part.padEnd(13)} ${counts.map((n) => String(n).padStart(5)).join(' ')}`);
    }
  }
}

function todo(code: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const part of textParts) {
    const english = flatten(englishParts[part]);
    const p = checkLanguage(english, readFlat(code, part), code, sameOnPurpose(code));
    const wanted = new Set([...p.missing, ...p.empty, ...p.sameAsEnglish, ...p.variables]);
    const expected = expectedKeys(english, code);
    const entries = [...expected].filter(([key]) => wanted.has(key));
    if (entries.length > 0)
      writeFileSync(join(dir, `${part}.json`), `${JSON.stringify(unflatten(entries), null, 2)}\n`);
    console.log(
      `${part}: ${entries.length} to translate${p.extra.length ? `, ${p.extra.length} extra keys to remove` : ''}`,
    );
  }
}

const [flag, code, dir] = process.argv.slice(2);
if (flag === '--todo' && code && dir) todo(code, dir);
else table();
