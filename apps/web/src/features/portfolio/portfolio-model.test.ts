import { describe, expect, it } from 'vitest';
import {
  DONUT_MAX_SLICES,
  donutSlices,
  formatCostPerUnit,
  formatShare,
  formatUsdValue,
  hideSmallHoldings,
  isEmptyPortfolio,
  nextSort,
  OTHER_SLICE_KEY,
  sortHoldings,
  tradeHref,
} from './portfolio-model.ts';
import { emptySummary, makeHolding, makeSummary } from './portfolio-test-fixtures.ts';

const assets = (list: { asset: string }[]) => list.map((holding) => holding.asset);

describe('sortHoldings', () => {
  const holdings = makeSummary().holdings;

  it('sorts every column exactly, both ways', () => {
    expect(assets(sortHoldings(holdings, { key: 'value', direction: 'descending' }))).toEqual([
      'BTC',
      'ETH',
      'USD',
      'DOGE',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'value', direction: 'ascending' }))).toEqual([
      'DOGE',
      'USD',
      'ETH',
      'BTC',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'asset', direction: 'ascending' }))).toEqual([
      'BTC',
      'DOGE',
      'ETH',
      'USD',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'change', direction: 'descending' }))).toEqual([
      'BTC',
      'USD',
      'DOGE',
      'ETH',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'price', direction: 'ascending' }))).toEqual([
      'DOGE',
      'USD',
      'ETH',
      'BTC',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'amount', direction: 'descending' }))).toEqual([
      'USD',
      'DOGE',
      'ETH',
      'BTC',
    ]);
  });

  it('sorts by average cost and unrealised P&L, a holding without a cost basis (USD) last either way', () => {
    expect(assets(sortHoldings(holdings, { key: 'avgCost', direction: 'descending' }))).toEqual([
      'BTC',
      'ETH',
      'DOGE',
      'USD',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'avgCost', direction: 'ascending' }))).toEqual([
      'DOGE',
      'ETH',
      'BTC',
      'USD',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'pnl', direction: 'descending' }))).toEqual([
      'BTC',
      'DOGE',
      'ETH',
      'USD',
    ]);
    expect(assets(sortHoldings(holdings, { key: 'pnl', direction: 'ascending' }))).toEqual([
      'ETH',
      'DOGE',
      'BTC',
      'USD',
    ]);
    const close = [
      makeHolding({ asset: 'A', unrealised_pnl: '-0.00000001' }),
      makeHolding({ asset: 'B', unrealised_pnl: '0' }),
      makeHolding({ asset: 'C', unrealised_pnl: '-10.5' }),
    ];
    expect(assets(sortHoldings(close, { key: 'pnl', direction: 'descending' }))).toEqual(['B', 'A', 'C']);
  });

  it('compares decimals as decimals, not as text or floats', () => {
    const close = [
      makeHolding({ asset: 'A', value: '9.99999999999999999' }),
      makeHolding({ asset: 'B', value: '10' }),
      makeHolding({ asset: 'C', value: '100' }),
    ];
    expect(assets(sortHoldings(close, { key: 'value', direction: 'descending' }))).toEqual(['C', 'B', 'A']);
  });

  it('puts a holding without a price last in either direction', () => {
    const list = [makeHolding({ asset: 'X', price: null, value: null, change_24h_percent: null }), ...holdings];
    expect(assets(sortHoldings(list, { key: 'value', direction: 'descending' })).at(-1)).toBe('X');
    expect(assets(sortHoldings(list, { key: 'value', direction: 'ascending' })).at(-1)).toBe('X');
  });

  it('flips the direction on a second click, and starts a number column from the largest', () => {
    expect(nextSort({ key: 'value', direction: 'descending' }, 'value')).toEqual({
      key: 'value',
      direction: 'ascending',
    });
    expect(nextSort({ key: 'value', direction: 'descending' }, 'share')).toEqual({
      key: 'share',
      direction: 'descending',
    });
    expect(nextSort({ key: 'value', direction: 'descending' }, 'asset')).toEqual({
      key: 'asset',
      direction: 'ascending',
    });
  });
});

describe('hideSmallHoldings', () => {
  it('hides what is worth less than the threshold, keeps exactly the threshold and unpriced holdings', () => {
    const list = [
      makeHolding({ asset: 'A', value: '0.99999999' }),
      makeHolding({ asset: 'B', value: '1' }),
      makeHolding({ asset: 'C', price: null, value: null }),
    ];
    expect(assets(hideSmallHoldings(list, '1'))).toEqual(['B', 'C']);
    expect(assets(hideSmallHoldings(list, '10'))).toEqual(['C']);
  });
});

describe('donutSlices', () => {
  it('places each slice after the previous one, from the exact shares', () => {
    const slices = donutSlices(makeSummary().allocation.by_asset);
    expect(slices.map((slice) => [slice.key, slice.startPercent, slice.lengthPercent])).toEqual([
      ['BTC', 0, 70.12],
      ['USD', 70.12, 19.84],
      ['ETH', 89.96, 10.03],
      ['DOGE', 99.99, 0.01],
    ]);
  });

  it('merges the tail into "other" by exact addition', () => {
    const items = Array.from({ length: 10 }, (_, index) => ({
      key: `C${index}`,
      value: '0.1',
      share_percent: '10',
    }));
    const slices = donutSlices(items);
    expect(slices).toHaveLength(DONUT_MAX_SLICES);
    expect(slices.at(-1)).toMatchObject({ key: OTHER_SLICE_KEY, value: '0.4', sharePercent: '40' });
  });
});

describe('figures', () => {
  it('formats USD at cents and shares at 2 decimals, from the strings', () => {
    expect(formatUsdValue('7422.4103927910')).toBe('$7,422.41');
    expect(formatUsdValue('185.310392791', { signed: true })).toBe('+$185.31');
    expect(formatUsdValue('-12.005', { signed: true })).toBe('-$12.01');
    expect(formatUsdValue('0', { signed: true })).toBe('$0.00');
    expect(formatShare('70.1')).toBe('70.10%');
  });

  it('links a coin to its USD pair, and the dollar to nothing', () => {
    expect(tradeHref('BTC')).toBe('/trade?pair=BTC%2FUSD');
    expect(tradeHref('USD')).toBeNull();
  });

  it('knows an empty account', () => {
    expect(isEmptyPortfolio(emptySummary())).toBe(true);
    expect(isEmptyPortfolio(makeSummary())).toBe(false);
  });
});

describe('formatCostPerUnit', () => {
  it('shows a cost from a dollar up to the cent, below a dollar as a price, and a dash without one', () => {
    expect(formatCostPerUnit('67297.05983')).toBe('$67,297.06');
    expect(formatCostPerUnit('1')).toBe('$1.00');
    expect(formatCostPerUnit('0.11904761')).toBe('$0.11904761');
    expect(formatCostPerUnit(null)).toBe('—');
  });
});
