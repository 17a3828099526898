import { describe, expect, it } from 'vitest';
import { dayBoundary, emptyHistoryFilter, historyQuery, isFiltered } from './legacy-history-filter.ts';

describe('full history filters', () => {
  it('turns days into the first and last instants of the local day', () => {
    const start = dayBoundary('2026-02-03', 'start');
    const end = dayBoundary('2026-02-03', 'end');
    expect(start).not.toBeNull();
    expect(new Date(start as string).getHours()).toBe(0);
    expect(new Date(start as string).getDate()).toBe(3);
    expect(new Date(end as string).getHours()).toBe(23);
    expect(new Date(end as string).getMilliseconds()).toBe(999);
    expect(dayBoundary('2026-02-30', 'start')).toBeNull();
    expect(dayBoundary('yesterday', 'start')).toBeNull();
  });

  it('builds the transaction query, leaving unset filters out', () => {
    expect(historyQuery(emptyHistoryFilter, 1, 20)).toEqual({
      filter: { type: undefined, currency: undefined, from: undefined, to: undefined, page: 1, limit: 20 },
      problem: null,
    });
    const { filter, problem } = historyQuery(
      { type: 'conversion', currency: 'BTC', fromDate: '2026-01-01', toDate: '2026-01-31' },
      2,
      20,
    );
    expect(problem).toBeNull();
    expect(filter).toMatchObject({ type: 'conversion', currency: 'BTC', page: 2 });
    expect(filter.from).toMatch(/Z$/);
    expect(filter.to).toMatch(/Z$/);
  });

  it('refuses a range that ends before it starts', () => {
    const result = historyQuery({ ...emptyHistoryFilter, fromDate: '2026-02-01', toDate: '2026-01-01' }, 1, 20);
    expect(result.problem).toBe('rangeReversed');
    expect(result.filter.from).toBeUndefined();
    expect(isFiltered({ ...emptyHistoryFilter, toDate: '2026-01-01' })).toBe(true);
    expect(isFiltered(emptyHistoryFilter)).toBe(false);
  });
});
