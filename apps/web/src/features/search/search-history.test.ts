import { POPULAR_SEARCH_SEEDS, SEARCH_HISTORY_STORAGE_KEY, SEARCH_LIMITS } from '@platform/contracts';
import { describe, expect, it, vi } from 'vitest';
import {
  addToSearchHistory,
  querySuggestions,
  readSearchHistory,
  searchPanelMode,
  writeSearchHistory,
} from './search-history.ts';

const tenQueries = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8', 'q9', 'q10'];

describe('search history rules (spec §4, §9)', () => {
  it('puts the newest query first', () => {
    let history: string[] = [];
    history = addToSearchHistory(history, 'btc');
    history = addToSearchHistory(history, 'wallet');
    history = addToSearchHistory(history, 'deposit');
    expect(history).toEqual(['deposit', 'wallet', 'btc']);
  });

  it('moves a repeated query to the front instead of listing it twice', () => {
    expect(addToSearchHistory(['deposit', 'wallet', 'btc'], 'btc')).toEqual(['btc', 'deposit', 'wallet']);
  });

  it('treats case and extra spaces as the same query, keeping the newest spelling', () => {
    expect(addToSearchHistory(['btc usd', 'eth'], '  BTC   usd ')).toEqual(['BTC usd', 'eth']);
  });

  it('ignores blank queries', () => {
    expect(addToSearchHistory(['btc'], '   ')).toEqual(['btc']);
  });

  it('keeps the 10 most recent queries', () => {
    const history = addToSearchHistory(tenQueries, 'q11');
    expect(history).toHaveLength(SEARCH_LIMITS.historyKept);
    expect(history[0]).toBe('q11');
    expect(history).not.toContain('q10');
  });
});

describe('search history storage', () => {
  it('saves under its own key and reads it back', () => {
    writeSearchHistory(['eth', 'btc']);
    expect(JSON.parse(localStorage.getItem(SEARCH_HISTORY_STORAGE_KEY) ?? 'null')).toEqual(['eth', 'btc']);
    expect(readSearchHistory()).toEqual(['eth', 'btc']);
  });

  it('starts empty when nothing is stored', () => {
    expect(readSearchHistory()).toEqual([]);
  });

  it('ignores damaged stored data and logs it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(SEARCH_HISTORY_STORAGE_KEY, '{not json');
    expect(readSearchHistory()).toEqual([]);
    expect(warn).toHaveBeenCalled();
    localStorage.setItem(SEARCH_HISTORY_STORAGE_KEY, JSON.stringify({ queries: ['btc'] }));
    expect(readSearchHistory()).toEqual([]);
  });

  it('brings a stored list back to the rules: strings only, unique, at most 10', () => {
    localStorage.setItem(
      SEARCH_HISTORY_STORAGE_KEY,
      JSON.stringify(['btc', 42, 'ETH', 'eth', null, ' btc ', ...tenQueries]),
    );
    const history = readSearchHistory();
    expect(history.slice(0, 2)).toEqual(['btc', 'ETH']);
    expect(history).toHaveLength(SEARCH_LIMITS.historyKept);
    expect(new Set(history.map((query) => query.toLowerCase())).size).toBe(history.length);
  });

  it('logs and ignores a local storage that cannot be read', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    expect(readSearchHistory()).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(SEARCH_HISTORY_STORAGE_KEY), expect.any(DOMException));
  });

  it('logs and ignores a local storage that cannot be written', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Quota exceeded', 'QuotaExceededError');
    });
    expect(() => writeSearchHistory(['btc'])).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(SEARCH_HISTORY_STORAGE_KEY), expect.any(DOMException));
  });
});

describe('what the search box offers before searching (spec §5)', () => {
  it('offers the popular searches for blank text', () => {
    expect(searchPanelMode('')).toBe('popular');
    expect(searchPanelMode('   ')).toBe('popular');
    expect(querySuggestions('', ['eth'])).toEqual(POPULAR_SEARCH_SEEDS);
    expect(POPULAR_SEARCH_SEEDS).toEqual(['btc', 'eth', 'trade', 'wallet', 'withdraw', 'deposit', 'portfolio']);
  });

  it('offers the 5 most recent searches for text shorter than 2 characters', () => {
    expect(searchPanelMode('b')).toBe('recent');
    expect(searchPanelMode(' b ')).toBe('recent');
    expect(querySuggestions('b', tenQueries)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(querySuggestions('b', [])).toEqual([]);
  });

  it('searches from 2 characters on', () => {
    expect(searchPanelMode('bt')).toBe('results');
    expect(querySuggestions('bt', tenQueries)).toEqual([]);
  });
});
