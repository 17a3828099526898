import { describe, expect, it } from 'vitest';
import { type ClosedTrade, signedAmount, tradeFigures } from './figures.ts';
import { type Snapshot, timeWeightedReturn } from './twr.ts';

const trade = (pnl: string, timeMs = 0, asset = 'BTC'): ClosedTrade => ({
  product: 'spot',
  asset,
  timeMs,
  pnl: signedAmount(pnl),
});

describe('trade figures', () => {
  const cases: {
    name: string;
    pnls: string[];
    winRate: string | null;
    averageWin: string | null;
    averageLoss: string | null;
    profitFactor: string | null;
  }[] = [
    { name: 'no trades', pnls: [], winRate: null, averageWin: null, averageLoss: null, profitFactor: null },
    {
      name: 'wins only: no loss, no profit factor',
      pnls: ['10', '5'],
      winRate: '100',
      averageWin: '7.5',
      averageLoss: null,
      profitFactor: null,
    },
    { name: 'losses only', pnls: ['-4', '-2'], winRate: '0', averageWin: null, averageLoss: '-3', profitFactor: '0' },
    {
      name: 'two wins, one loss',
      pnls: ['30', '-20', '10'],
      winRate: '66.67',
      averageWin: '20',
      averageLoss: '-20',
      profitFactor: '2',
    },
    {
      name: 'a zero trade is closed but neither',
      pnls: ['5', '0', '-5', '0'],
      winRate: '25',
      averageWin: '5',
      averageLoss: '-5',
      profitFactor: '1',
    },
    {
      name: 'profit factor rounds half to even',
      pnls: ['1.005', '-1'],
      winRate: '50',
      averageWin: '1.005',
      averageLoss: '-1',
      profitFactor: '1',
    },
    {
      name: 'averages to 10^-8, half to even',
      pnls: ['1', '0.00000001', '0.00000001'],
      winRate: '100',
      averageWin: '0.33333334',
      averageLoss: null,
      profitFactor: null,
    },
    {
      name: 'one third of the trades won',
      pnls: ['1', '-1', '-1'],
      winRate: '33.33',
      averageWin: '1',
      averageLoss: '-1',
      profitFactor: '0.5',
    },
  ];
  it.each(cases)('$name', ({ pnls, winRate, averageWin, averageLoss, profitFactor }) => {
    const figures = tradeFigures(pnls.map((pnl, index) => trade(pnl, index)));
    expect(figures.closed_trades).toBe(pnls.length);
    expect(figures.win_rate_percent).toBe(winRate);
    expect(figures.average_win).toBe(averageWin);
    expect(figures.average_loss).toBe(averageLoss);
    expect(figures.profit_factor).toBe(profitFactor);
  });

  it('best and worst: the highest and lowest, the earliest of equals', () => {
    const figures = tradeFigures([trade('3', 1, 'A'), trade('-7', 2, 'B'), trade('3', 3, 'C'), trade('-7', 4, 'D')]);
    expect(figures.best_trade).toEqual({ product: 'spot', asset: 'A', time: new Date(1).toISOString(), pnl: '3' });
    expect(figures.worst_trade?.asset).toBe('B');
    expect([figures.gross_wins, figures.gross_losses]).toEqual(['6', '14']);
  });
});

const DAY = 86_400_000;
const snapshot = (day: number, value: string, flow = '0'): Snapshot => ({
  atMs: day * DAY,
  totalValue: signedAmount(value),
  netFlow: signedAmount(flow),
});

describe('time-weighted return and drawdown', () => {
  const cases: {
    name: string;
    base: Snapshot | null;
    rows: Snapshot[];
    twr: string | null;
    drawdown: string | null;
    twrs?: string[];
    drawdowns?: string[];
  }[] = [
    { name: 'no snapshots: null', base: null, rows: [], twr: null, drawdown: null },
    { name: 'one snapshot, nothing before: 0', base: null, rows: [snapshot(1, '100')], twr: '0', drawdown: '0' },
    {
      name: 'a deposit in the middle is not a gain',
      base: snapshot(0, '100'),
      // +10 %, then 1,000 deposited and the account flat, then +10 % on 1,110.
      rows: [snapshot(1, '110'), snapshot(2, '1110', '1000'), snapshot(3, '1221')],
      twr: '21',
      drawdown: '0',
      twrs: ['10', '10', '21'],
    },
    {
      name: 'a withdrawal is not a loss',
      base: snapshot(0, '1000'),
      rows: [snapshot(1, '500', '-500'), snapshot(2, '550')],
      twr: '10',
      drawdown: '0',
    },
    {
      name: 'drawdown on the index, not the value: 100 → 50 (−50 %), deposit 950, then +10 %',
      base: snapshot(0, '100'),
      rows: [snapshot(1, '50'), snapshot(2, '1000', '950'), snapshot(3, '1100')],
      twr: '-45',
      drawdown: '50',
      twrs: ['-50', '-50', '-45'],
      drawdowns: ['50', '50', '45'],
    },
    {
      name: 'peak then trough then new peak: the deepest fall counts',
      base: snapshot(0, '100'),
      rows: [snapshot(1, '120'), snapshot(2, '90'), snapshot(3, '130'), snapshot(4, '117')],
      twr: '17',
      drawdown: '25',
      drawdowns: ['0', '25', '0', '10'],
    },
    {
      name: 'a day after a zero value is skipped',
      base: snapshot(0, '0'),
      rows: [snapshot(1, '100', '100'), snapshot(2, '0', '-100'), snapshot(3, '50', '50'), snapshot(4, '55')],
      twr: '10',
      drawdown: '0',
    },
    {
      name: 'thirds round half to even at the end, not on the way',
      base: snapshot(0, '3'),
      rows: [snapshot(1, '4'), snapshot(2, '5')],
      twr: '66.67',
      drawdown: '0',
      twrs: ['33.33', '66.67'],
    },
  ];
  it.each(cases)('$name', ({ base, rows, twr, drawdown, twrs, drawdowns }) => {
    const result = timeWeightedReturn(base, rows);
    expect(result.twrPercent).toBe(twr);
    expect(result.maxDrawdownPercent).toBe(drawdown);
    if (twrs) expect(result.points.map((point) => point.twr_percent)).toEqual(twrs);
    if (drawdowns) expect(result.points.map((point) => point.drawdown_percent)).toEqual(drawdowns);
  });

  it('a year of daily snapshots chains exactly and quickly', () => {
    const values = ['1000', '1003.37', '1006.74', '1010.11', '1013.48', '1016.85', '1020.22'];
    const rows = Array.from({ length: 366 }, (_, day) => snapshot(day + 1, values[day % 7] ?? '0'));
    const started = performance.now();
    const result = timeWeightedReturn(snapshot(0, '1000'), rows);
    expect(performance.now() - started).toBeLessThan(1000);
    // Without flows the chain telescopes: the last value (day 365: 1,003.37) over the first, 0.337 %.
    expect(result.twrPercent).toBe('0.34');
    // The deepest fall: 1,020.22 down to 1,000.
    expect(result.maxDrawdownPercent).toBe('1.98');
  });
});
