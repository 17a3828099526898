import {
  commandIndex,
  SEARCH_LIMITS,
  SEARCH_RELEVANCE,
  type SearchableEntry,
  scoreEntry,
  searchCommands,
} from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.ts';
import { translateMessage } from '../../lib/translate.ts';

const entry = (overrides: Partial<SearchableEntry>): SearchableEntry => ({
  id: 'x',
  category: 'features',
  title: 'Wallet',
  description: 'Balances, deposits and withdrawals',
  keywords: ['funds', 'balance'],
  tags: ['account'],
  icon: 'wallet',
  ...overrides,
});

/** The command index with English titles, as the top bar searches it. */
const englishIndex: SearchableEntry[] = commandIndex.map(
  ({ titleKey, title, descriptionKey, descriptionValues, ...rest }) => ({
    ...rest,
    title: title ?? translateMessage(i18n.t, titleKey ?? rest.id),
    description: translateMessage(i18n.t, descriptionKey, descriptionValues),
  }),
);

describe('search relevance (spec §9)', () => {
  it('adds each rule once per query word', () => {
    expect(scoreEntry(entry({}), ['wallet'])).toBe(SEARCH_RELEVANCE.exactTitle);
    expect(scoreEntry(entry({}), ['wall'])).toBe(SEARCH_RELEVANCE.titleContains);
    expect(scoreEntry(entry({ title: 'Funds', description: '' }), ['balance'])).toBe(SEARCH_RELEVANCE.exactKeyword);
    expect(scoreEntry(entry({ title: 'Funds', keywords: ['balances'] }), ['balance'])).toBe(
      SEARCH_RELEVANCE.keywordContains + SEARCH_RELEVANCE.descriptionContains,
    );
    expect(scoreEntry(entry({ title: 'X', keywords: [] }), ['deposits'])).toBe(SEARCH_RELEVANCE.descriptionContains);
    expect(scoreEntry(entry({ title: 'X', keywords: [], description: '' }), ['acc'])).toBe(
      SEARCH_RELEVANCE.tagContains,
    );
  });

  it('gives navigation and trading-pair entries a 10 point bonus', () => {
    expect(scoreEntry(entry({ category: 'navigation' }), ['wallet'])).toBe(110);
    expect(scoreEntry(entry({ category: 'trading_pairs' }), ['wallet'])).toBe(110);
    expect(scoreEntry(entry({ category: 'navigation' }), ['nothing'])).toBe(0);
  });

  it('sums the points of several words', () => {
    const score = scoreEntry(entry({}), ['wallet', 'funds']);
    expect(score).toBe(SEARCH_RELEVANCE.exactTitle + SEARCH_RELEVANCE.exactKeyword);
  });

  it('returns nothing for a blank or unknown query', () => {
    expect(searchCommands(englishIndex, '   ')).toEqual([]);
    expect(searchCommands(englishIndex, 'qqqzzz')).toEqual([]);
  });

  it('caps the top bar at 8 results, best first', () => {
    const results = searchCommands(englishIndex, 'a', { limit: SEARCH_LIMITS.topBar });
    expect(results).toHaveLength(8);
    const scores = results.map((result) => result.relevance);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('finds the BTC pair first for btc and links it to the trade page', () => {
    const [first] = searchCommands(englishIndex, 'btc');
    expect(first?.title).toBe('BTC/USD');
    expect(first?.path).toBe('/trade?pair=BTC/USD');
    expect(first?.baseAsset).toBe('BTC');
  });

  it('generates a pair for a known coin that has no entry, scoring 70', () => {
    const results = searchCommands(englishIndex, 'doge');
    const doge = results.find((result) => result.baseAsset === 'DOGE');
    expect(doge).toMatchObject({
      title: 'DOGE/USD',
      path: '/trade?pair=DOGE/USD',
      relevance: SEARCH_RELEVANCE.generatedCryptoPair,
      generated: true,
    });
  });

  it('does not generate a pair the index already has', () => {
    const results = searchCommands(englishIndex, 'eth');
    expect(results.filter((result) => result.baseAsset === 'ETH')).toHaveLength(1);
  });

  it('sends deposit and withdraw to the wallet, buy and sell to trade, carrying the action', () => {
    const path = (query: string) => searchCommands(englishIndex, query)[0]?.path;
    expect(path('deposit')).toBe('/wallet?action=deposit');
    expect(path('withdraw')).toBe('/wallet?action=withdraw');
    expect(path('buy')).toBe('/trade?action=buy');
    expect(path('sell')).toBe('/trade?action=sell');
  });
});
