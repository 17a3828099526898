import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageCodes } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { englishParts } from './english-parts.ts';
import { checkLanguage, flatten, pluralBase } from './text-check.ts';
import { isRootPart, textParts } from './text-parts.ts';

const LOCALES = join(import.meta.dirname, 'locales');
const SOURCE = join(import.meta.dirname, '..');
// The spec's texts are keyed in contracts (validation keys the server sends back, the search index).
const CONTRACTS = join(import.meta.dirname, '../../../../packages/contracts/src');
const others = languageCodes.filter((code) => code !== 'en');

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function sameOnPurpose(code: string): Set<string> {
  try {
    return new Set(readJson(join(LOCALES, code, '_same.json')) as string[]);
  } catch {
    return new Set();
  }
}

describe.each(others)('the %s texts are complete', (code) => {
  it('has one file per part and no other', () => {
    const files = readdirSync(join(LOCALES, code)).filter((name) => !name.startsWith('_'));
    expect(files.sort()).toEqual(textParts.map((part) => `${part}.json`).sort());
  });

  it.each(textParts)('%s: every key, nothing empty, the same variables, nothing left in English', (part) => {
    const english = flatten(englishParts[part]);
    const translated = flatten(readJson(join(LOCALES, code, `${part}.json`)));
    const problems = checkLanguage(english, translated, code, sameOnPurpose(code));
    expect(problems).toEqual({ missing: [], extra: [], empty: [], sameAsEnglish: [], variables: [] });
  });
});

/** Every string literal and template-literal head (`futures.tabs.${name}` → `futures.tabs.`) in the client's code. */
function sourceLiterals(): { literals: Set<string>; prefixes: string[] } {
  const literals = new Set<string>();
  const prefixes = new Set<string>();
  const sourceFiles = (root: string) =>
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
      .filter((name) => !name.startsWith('i18n/') && !name.startsWith('test/'))
      .map((name) => join(root, name));
  for (const file of [...sourceFiles(SOURCE), ...sourceFiles(CONTRACTS)]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bv\('([a-zA-Z]+)'\)/g)) literals.add(`validation.${match[1]}`);
    for (const match of text.matchAll(/'([a-zA-Z0-9_.]+)'|"([a-zA-Z0-9_.]+)"|`([a-zA-Z0-9_.]+)(\$\{|`)/g)) {
      const value = match[1] ?? match[2] ?? match[3] ?? '';
      if (match[4] === '${') prefixes.add(value);
      else literals.add(value);
    }
  }
  return { literals, prefixes: [...prefixes].filter((prefix) => prefix.includes('.') || prefix.length > 2) };
}

describe('every English key is used', () => {
  it('appears in the code, whole or under a key built from a template', () => {
    const { literals, prefixes } = sourceLiterals();
    const unused: string[] = [];
    for (const part of textParts) {
      const root = isRootPart(part) ? '' : `${part}.`;
      for (const key of flatten(englishParts[part]).keys()) {
        const full = root + pluralBase(key).base;
        const used = literals.has(full) || prefixes.some((prefix) => full.startsWith(prefix));
        if (!used) unused.push(full);
      }
    }
    expect(unused).toEqual([]);
  });
});
