import { WATCHLIST_MAX_PAIRS } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { addPair, movePair, movePairTo, removePair, togglePair } from './watchlist-model.ts';

describe('watchlist edits', () => {
  it('adds at the end, once', () => {
    expect(addPair(['BTC_USD'], 'ETH_USD')).toEqual(['BTC_USD', 'ETH_USD']);
    expect(addPair(['BTC_USD'], 'BTC_USD')).toEqual(['BTC_USD']);
  });

  it('stops at the server limit', () => {
    const full = Array.from({ length: WATCHLIST_MAX_PAIRS }, (_, index) => `C${index}_USD`);
    expect(addPair(full, 'BTC_USD')).toHaveLength(WATCHLIST_MAX_PAIRS);
  });

  it('removes and toggles', () => {
    expect(removePair(['BTC_USD', 'ETH_USD'], 'BTC_USD')).toEqual(['ETH_USD']);
    expect(togglePair(['BTC_USD'], 'BTC_USD')).toEqual([]);
    expect(togglePair([], 'BTC_USD')).toEqual(['BTC_USD']);
  });

  it('moves one place up or down, and not past the ends', () => {
    const list = ['A_USD', 'B_USD', 'C_USD'];
    expect(movePair(list, 'B_USD', -1)).toEqual(['B_USD', 'A_USD', 'C_USD']);
    expect(movePair(list, 'B_USD', 1)).toEqual(['A_USD', 'C_USD', 'B_USD']);
    expect(movePair(list, 'A_USD', -1)).toEqual(list);
    expect(movePair(list, 'C_USD', 1)).toEqual(list);
    expect(movePair(list, 'X_USD', 1)).toEqual(list);
  });

  it('moves by index for drag and drop', () => {
    expect(movePairTo(['A', 'B', 'C', 'D'], 0, 2)).toEqual(['B', 'C', 'A', 'D']);
    expect(movePairTo(['A', 'B', 'C', 'D'], 3, 0)).toEqual(['D', 'A', 'B', 'C']);
    expect(movePairTo(['A', 'B'], 0, 5)).toEqual(['A', 'B']);
  });
});
