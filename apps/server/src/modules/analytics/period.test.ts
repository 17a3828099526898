import { analyticsQuerySchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { resolvePeriod } from './period.ts';

const NOW = new Date('2026-03-15T18:30:00Z');

describe('analytics period', () => {
  it.each([
    [{}, { from: '2026-02-14', to: '2026-03-15', days: 30 }],
    [{ from: '2026-03-01' }, { from: '2026-03-01', to: '2026-03-15', days: 15 }],
    [{ to: '2026-01-31' }, { from: '2026-01-02', to: '2026-01-31', days: 30 }],
    [
      { from: '2026-03-15', to: '2026-03-15' },
      { from: '2026-03-15', to: '2026-03-15', days: 1 },
    ],
    [
      { from: '2024-01-01', to: '2024-12-31' },
      { from: '2024-01-01', to: '2024-12-31', days: 366 },
    ],
  ])('%j resolves to %j', (query, expected) => {
    const period = resolvePeriod(query, NOW);
    expect(period).toMatchObject(expected);
    expect(period.toMs - period.fromMs).toBe(expected.days * 86_400_000);
    expect(new Date(period.fromMs).toISOString()).toBe(`${expected.from}T00:00:00.000Z`);
  });

  it.each([
    [{ from: '2026-03-02', to: '2026-03-01' }, 'from must not be after to'],
    [{ from: '2026-03-16' }, 'from must not be after to'],
    [{ from: '2024-01-01', to: '2025-01-01' }, 'a period may cover at most 366 days'],
    [{ from: '1970-01-01' }, 'a period may cover at most 366 days'],
  ])('%j is refused: %s', (query, message) => {
    expect(() => resolvePeriod(query, NOW)).toThrow(AppError);
    expect(() => resolvePeriod(query, NOW)).toThrow(message);
  });

  it.each([
    '2026-02-30',
    '2026-13-01',
    '1969-12-31',
    '10000-01-01',
    '+275760-09-13',
    '2026-1-1',
    '2026-01-01T00:00:00Z',
    '2026-01-01\u0000',
    '',
    'yesterday',
  ])('the schema refuses %j', (text) => {
    expect(analyticsQuerySchema.safeParse({ from: text }).success).toBe(false);
    expect(analyticsQuerySchema.safeParse({ to: text }).success).toBe(false);
  });

  it('method and source: their names only, defaults fifo and all', () => {
    expect(analyticsQuerySchema.parse({})).toEqual({ method: 'fifo', source: 'all' });
    expect(analyticsQuerySchema.safeParse({ source: 'strategy' }).success).toBe(false);
    expect(analyticsQuerySchema.safeParse({ method: 'avg' }).success).toBe(false);
  });
});
