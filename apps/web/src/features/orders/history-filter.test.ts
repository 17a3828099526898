import { describe, expect, it } from 'vitest';
import {
  emptyHistoryFilter,
  type HistoryFilterValues,
  parseHistorySearch,
  timeRangeOf,
  toHistorySearch,
  toOrdersFilter,
  toTradesFilter,
  withFilter,
} from './history-filter.ts';

const parse = (query: string) => parseHistorySearch(new URLSearchParams(query));

describe('filters in the URL', () => {
  it('reads every filter of a link', () => {
    expect(parse('pair=BTC_USD&side=sell&type=stop_limit&status=open&from=2026-11-01&to=2026-11-24&page=3')).toEqual({
      pair: 'BTC_USD',
      side: 'sell',
      type: 'stop_limit',
      status: 'open',
      from: '2026-11-01',
      to: '2026-11-24',
      page: 3,
    });
  });

  it('accepts the pair as a symbol, any case', () => {
    expect(parse('pair=eth%2Fusd').pair).toBe('ETH_USD');
  });

  it('drops what it cannot read instead of sending it', () => {
    expect(parse('pair=nonsense&side=long&type=twap&status=done&from=2026-02-30&to=yesterday&page=-2')).toEqual(
      emptyHistoryFilter,
    );
    expect(parse('page=0').page).toBe(1);
    expect(parse('page=1.5').page).toBe(1);
    expect(parse('page=9999999').page).toBe(1);
  });

  it('writes only what is set, and no page 1, so a plain page has no query', () => {
    expect(toHistorySearch(emptyHistoryFilter).toString()).toBe('');
    expect(toHistorySearch({ ...emptyHistoryFilter, side: 'buy', page: 1 }).toString()).toBe('side=buy');
  });

  it('reads back what it wrote', () => {
    const values: HistoryFilterValues = {
      pair: 'SOL_USD',
      side: 'buy',
      type: 'limit',
      status: 'cancelled',
      from: '2026-01-31',
      to: '2026-02-01',
      page: 7,
    };
    expect(parseHistorySearch(toHistorySearch(values))).toEqual(values);
  });

  it('goes back to the first page when a filter changes, not when the page does', () => {
    const onPage4 = { ...emptyHistoryFilter, page: 4 };
    expect(withFilter(onPage4, 'side', 'sell')).toEqual({ ...emptyHistoryFilter, side: 'sell', page: 1 });
    expect(withFilter(onPage4, 'page', 5).page).toBe(5);
  });
});

describe('days to unix milliseconds', () => {
  it('starts at the first local millisecond of `from` and ends before the day after `to`', () => {
    const range = timeRangeOf({ from: '2026-11-01', to: '2026-11-24' });
    expect(range).toEqual({
      from: new Date(2026, 10, 1).getTime(),
      to: new Date(2026, 10, 25).getTime(),
      reversed: false,
    });
  });

  it('covers a single day when from and to are the same', () => {
    const range = timeRangeOf({ from: '2026-12-31', to: '2026-12-31' });
    expect(range.from).toBe(new Date(2026, 11, 31).getTime());
    expect(range.to).toBe(new Date(2027, 0, 1).getTime());
  });

  it('sends no dates while the range is reversed', () => {
    expect(timeRangeOf({ from: '2026-11-24', to: '2026-11-01' })).toEqual({
      from: undefined,
      to: undefined,
      reversed: true,
    });
  });
});

describe('API filters', () => {
  it('maps the order filters and leaves empty ones out', () => {
    expect(toOrdersFilter({ ...emptyHistoryFilter, pair: 'BTC_USD', status: 'open', type: 'limit' })).toEqual({
      tradingPair: 'BTC_USD',
      side: undefined,
      type: 'limit',
      status: 'open',
      from: undefined,
      to: undefined,
    });
  });

  it('gives trades neither a type nor a status', () => {
    const filter = toTradesFilter({
      ...emptyHistoryFilter,
      side: 'sell',
      type: 'limit',
      status: 'filled',
      to: '2026-11-24',
    });
    expect(filter).toEqual({
      tradingPair: undefined,
      side: 'sell',
      from: undefined,
      to: new Date(2026, 10, 25).getTime(),
    });
  });
});
