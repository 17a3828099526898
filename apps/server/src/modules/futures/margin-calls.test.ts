import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { BTC, Desk } from './liquidation.test-support.ts';
import { MarginCalls, marginCallNotice, marginCallRatio } from './margin-calls.ts';

describe('margin calls', () => {
  it('FUTURES_MARGIN_CALL_RATIO: 0.8 by default, a decimal strictly between 0 and 1', () => {
    expect(marginCallRatio(loadConfig({}).futuresMarginCallRatio)).toBe(80_000_000n);
    expect(marginCallRatio(loadConfig({ FUTURES_MARGIN_CALL_RATIO: '0.9' }).futuresMarginCallRatio)).toBe(90_000_000n);
    for (const bad of ['1', '1.2', '0', '0.0', 'abc', '-0.5']) {
      expect(() => loadConfig({ FUTURES_MARGIN_CALL_RATIO: bad }), bad).toThrow(ConfigError);
    }
  });

  it('calls once when the ratio rises to the threshold, again only after it fell back below', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 1_000n, 'isolated', 20);
    desk.trader('b', 100_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    const calls = new MarginCalls(80_000_000n);
    const at = (ticks: number) => calls.check(desk.state, () => ticks).map((call) => call.accountId);
    // a: MM / MB = 0.0005 P / (0.1 P - 4,750) >= 0.8  <=>  P <= 47,798.74 (477,987 ticks).
    expect(at(480_000)).toEqual([]);
    expect(at(477_987)).toEqual(['a']);
    expect(at(477_900)).toEqual([]);
    expect(at(477_988)).toEqual([]); // back below the threshold
    const again = calls.check(desk.state, () => 477_000);
    expect(again.map((call) => call.accountId)).toEqual(['a']);
    const notice = marginCallNotice(desk.state, again[0]!, new Date(0));
    expect(notice).toMatchObject({ accountId: 'a', title: 'Margin call', severity: 'warning' });
    expect(notice.message).toContain('Your isolated BTC_USD_PERP position is at a margin ratio of');
    // The client's text (docs/i18n.md "Server texts"): the key and raw values, the ratio as in the English.
    expect(notice.textKey).toBe('marginCall');
    expect(notice.params).toEqual({ pair: 'BTC_USD_PERP', ratio: expect.stringMatching(/^\d+$/) });
    expect(notice.message).toContain(`ratio of ${notice.params?.ratio}%`);
  });

  it('a cross account is called as a whole (Σ maintenance / margin balance)', () => {
    const desk = new Desk();
    desk.marks[BTC] = 500_000;
    desk.trader('a', 300n, 'cross', 20);
    desk.trader('b', 1_000_000n);
    desk.order('b', 'sell', 500_000, 100);
    desk.order('a', 'buy', 500_000, 100);
    const calls = new MarginCalls(80_000_000n);
    // Wallet 298: MB = 0.1 P - 4,702; MM = 0.0005 P; 0.8 when 0.0795 P <= 3,761.6, P <= 47,315.72.
    expect(calls.check(desk.state, () => 473_158)).toEqual([]);
    const due = calls.check(desk.state, () => 473_157);
    expect(due).toEqual([expect.objectContaining({ accountId: 'a', marketId: null })]);
    const cross = marginCallNotice(desk.state, due[0]!, new Date(0));
    expect(cross.message).toContain('Your cross margin account');
    expect(cross).toMatchObject({ textKey: 'marginCallCross', params: { ratio: expect.stringMatching(/^\d+$/) } });
    expect(cross.params).not.toHaveProperty('pair');
  });
});
