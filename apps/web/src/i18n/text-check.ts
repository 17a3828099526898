/**
 * The rules every language's texts keep (the completeness test, i18n.test and scripts/i18n-status.ts):
 * the same keys as English (with the language's own plural forms), nothing empty, the same
 * interpolation variables, and no text left in English unless listed as the same on purpose.
 */

export type FlatTexts = Map<string, string>;

export function flatten(tree: unknown, prefix = '', into: FlatTexts = new Map()): FlatTexts {
  if (typeof tree === 'string') {
    into.set(prefix, tree);
    return into;
  }
  if (tree && typeof tree === 'object') {
    for (const [key, value] of Object.entries(tree)) flatten(value, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix, String(tree));
  }
  return into;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** `orders_one` → `orders`; a key without a plural suffix is its own base. */
export function pluralBase(key: string): { base: string; form: string | null } {
  const match = PLURAL_SUFFIX.exec(key);
  return match ? { base: key.slice(0, match.index), form: match[1] ?? null } : { base: key, form: null };
}

export function pluralForms(code: string): string[] {
  return new Intl.PluralRules(code).resolvedOptions().pluralCategories as string[];
}

/** The keys a language must have: English's, with each plural key in the language's own forms. */
export function expectedKeys(english: FlatTexts, code: string): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [key, text] of english) {
    const { base, form } = pluralBase(key);
    if (!form) {
      expected.set(key, text);
      continue;
    }
    const other = english.get(`${base}_other`) ?? text;
    // A form that stands for one number (English "one order") follows English's; a form that also
    // covers 21 or 101 (Russian `one`) follows English's `other`, count and all.
    for (const target of pluralForms(code)) {
      const own = singleNumberForm(code, target) ? english.get(`${base}_${target}`) : undefined;
      expected.set(`${base}_${target}`, own ?? other);
    }
  }
  return expected;
}

export function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((match) => match[1] ?? '').sort();
}

/** Text with no words to translate: placeholders, tickers, numbers, symbols. */
export function isLanguageNeutral(text: string): boolean {
  const words = text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b[A-Z0-9]{2,6}\b/g, ' ')
    .replace(/Meridian/g, ' ');
  return !/\p{L}{2,}/u.test(words);
}

export interface LanguageProblems {
  missing: string[];
  extra: string[];
  empty: string[];
  sameAsEnglish: string[];
  variables: string[];
}

export function checkLanguage(
  english: FlatTexts,
  translated: FlatTexts,
  code: string,
  sameOnPurpose: ReadonlySet<string>,
): LanguageProblems {
  const expected = expectedKeys(english, code);
  const problems: LanguageProblems = { missing: [], extra: [], empty: [], sameAsEnglish: [], variables: [] };
  for (const [key, source] of expected) {
    const text = translated.get(key);
    if (text === undefined) problems.missing.push(key);
    else if (text.trim() === '') problems.empty.push(key);
    else {
      if (text === source && !isLanguageNeutral(source) && !sameOnPurpose.has(key)) problems.sameAsEnglish.push(key);
      if (!sameVariables(key, source, text)) problems.variables.push(key);
    }
  }
  for (const key of translated.keys()) if (!expected.has(key)) problems.extra.push(key);
  return problems;
}

/**
 * The same variables as English. A plural form other than `other` may leave `{{count}}` out (a
 * sentence that needs no number: "one order", or Russian "all your open orders", whose `one` form
 * also covers 21) and may use it where English's form does not; every other variable stays.
 */
function sameVariables(key: string, source: string, text: string): boolean {
  const wanted = variables(source);
  const found = variables(text);
  const { form } = pluralBase(key);
  const countOptional = form !== null && form !== 'other';
  const required = countOptional ? wanted.filter((name) => name !== 'count') : wanted;
  const allowed = countOptional ? [...wanted, 'count'] : wanted;
  const foundSet = new Set(found);
  return required.every((name) => foundSet.has(name)) && found.every((name) => allowed.includes(name));
}

function singleNumberForm(code: string, form: string): boolean {
  if (form === 'other' || form === 'few' || form === 'many') return false;
  const rules = new Intl.PluralRules(code);
  return [21, 31, 101, 102].every((count) => rules.select(count) !== form);
}
