import { describe, expect, it } from 'vitest';
import { checkLanguage, expectedKeys, flatten, isLanguageNeutral } from './text-check.ts';

const english = flatten({
  form: { submit: 'Buy {{currency}}', price: 'Price' },
  open: { count_one: 'One open order', count_other: '{{count}} open orders' },
  ticker: 'BTC/USD',
});

const german = {
  form: { submit: '{{currency}} kaufen', price: 'Preis' },
  open: { count_one: 'Eine offene Order', count_other: '{{count}} offene Orders' },
  ticker: 'BTC/USD',
};

const clean = { missing: [], extra: [], empty: [], sameAsEnglish: [], variables: [] };

describe('the completeness rules', () => {
  it('passes a complete language', () => {
    expect(checkLanguage(english, flatten(german), 'de', new Set())).toEqual(clean);
  });

  it('fails when a key is removed, added, emptied, left in English or loses a variable', () => {
    const broken = flatten({
      form: { submit: 'Kaufen', price: 'Price' },
      open: { count_one: '', count_other: '{{count}} offene Orders' },
      ticker: 'BTC/USD',
      extra: 'Zusätzlich',
    });
    broken.delete('ticker');
    expect(checkLanguage(english, broken, 'de', new Set())).toEqual({
      missing: ['ticker'],
      extra: ['extra'],
      empty: ['open.count_one'],
      sameAsEnglish: ['form.price'],
      variables: ['form.submit'],
    });
  });

  it('accepts a text kept in English on purpose, and texts with no words', () => {
    const same = flatten({ ...german, form: { ...german.form, price: 'Price' } });
    expect(checkLanguage(english, same, 'de', new Set(['form.price']))).toEqual(clean);
    expect(isLanguageNeutral('BTC/USD')).toBe(true);
    expect(isLanguageNeutral('{{amount}} {{currency}}')).toBe(true);
    expect(isLanguageNeutral('Price')).toBe(false);
  });

  it("asks for each language's plural forms", () => {
    expect([...expectedKeys(english, 'ru').keys()].filter((key) => key.startsWith('open.')).sort()).toEqual([
      'open.count_few',
      'open.count_many',
      'open.count_one',
      'open.count_other',
    ]);
    expect([...expectedKeys(english, 'ar').keys()].filter((key) => key.startsWith('open.'))).toHaveLength(6);
    expect([...expectedKeys(english, 'ja').keys()].filter((key) => key.startsWith('open.'))).toEqual([
      'open.count_other',
    ]);
  });

  it('lets a plural form leave the count out or use it, and no other variable', () => {
    const russian = flatten({
      ...german,
      open: {
        count_one: 'Все ваши открытые ордера',
        count_few: '{{count}} открытых ордера',
        count_many: '{{count}} открытых ордеров',
        count_other: '{{count}} открытого ордера',
      },
      form: { submit: 'Купить {{currency}}', price: 'Цена' },
    });
    expect(checkLanguage(english, russian, 'ru', new Set())).toEqual(clean);
    russian.set('open.count_other', 'открытые ордера');
    expect(checkLanguage(english, russian, 'ru', new Set()).variables).toEqual(['open.count_other']);
  });
});
