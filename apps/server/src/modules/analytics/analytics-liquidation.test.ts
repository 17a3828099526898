import type { Analytics } from '@platform/contracts';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { account, futuresTrader, order, positions, setIndex, type Trader } from '../futures/test-support.ts';

/** The price feed off: the index (and so the mark) is what the test publishes (as liquidation-http.test.ts). */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

/** Waits (the liquidation watch polls the marks every second) until `check` holds, or gives up after `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 6_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The funding timer pays the round at or before now as soon as a market has a mark: waited for first. */
async function fundingCaughtUp(server: TestServer, market: string): Promise<void> {
  await eventually(
    () => server.db.query('SELECT 1 FROM futures_funding_rounds WHERE market_id = $1', [market]),
    (result) => result.rows.length > 0,
  );
}

const analytics = async (server: TestServer, trader: Trader) => {
  const response = await server.request('GET', '/v1/analytics', { token: trader.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Analytics;
};

describeEachDatabase(
  'analytics of liquidations and ADL',
  (server) => {
    it('a liquidation fee is in the realised P&L (market and day) and shown apart from the trading fees', async () => {
      setIndex(server(), 'BTC', '50000');
      await fundingCaughtUp(server(), 'BTC_USD_PERP');
      const a = await futuresTrader(server(), '1000');
      const b = await futuresTrader(server(), '100000');
      const c = await futuresTrader(server(), '100000');
      await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', {
        token: a.token,
        body: { margin_mode: 'isolated' },
      });
      expect((await order(server(), b, { side: 'sell', type: 'limit', price: '50000', quantity: '0.1' })).status).toBe(
        201,
      );
      expect((await order(server(), a, { side: 'buy', type: 'market', quantity: '0.1' })).body.status).toBe('filled');
      expect((await order(server(), c, { side: 'buy', type: 'limit', price: '47700', quantity: '0.1' })).status).toBe(
        201,
      );
      setIndex(server(), 'BTC', '47738.6');
      expect(
        await eventually(
          () => positions(server(), a),
          (list) => list.length === 0,
        ),
      ).toEqual([]);
      // Opened 0.1 at 50,000 (taker fee 2), closed by the liquidation at 47,700 (no fee, realised −230),
      // then the liquidation fee of 20 (all that was left): 1,000 − 2 − 230 − 20 = 748.
      expect((await account(server(), a)).wallet_balance).toBe('748');
      const body = await analytics(server(), a);
      expect([body.fees_paid, body.liquidation_fees, body.insurance_cleared]).toEqual(['2', '20', '0']);
      expect(body.realised_pnl).toBe('-252');
      expect(body.pnl_by_asset).toEqual([{ product: 'futures', asset: 'BTC_USD_PERP', pnl: '-252' }]);
      expect(body.pnl_by_day.map((day) => [day.pnl, day.closed_trades])).toEqual([['-252', 1]]);
      // The closed trade is the liquidation's fill; the fee is a cost of the day, not a trade.
      expect([body.trades, body.closed_trades, body.losing_trades]).toEqual([2, 1, 1]);
      expect(body.worst_trade).toMatchObject({ product: 'futures', asset: 'BTC_USD_PERP', pnl: '-230' });
      // The fee went to the fund, not to the counterparty: c shows only its own maker fee (0.02 % of 4,770).
      const buyer = await analytics(server(), c);
      expect([buyer.liquidation_fees, buyer.realised_pnl]).toEqual(['0', '-0.954']);
    });

    it('an ADL close counts once: its P&L is the fill, the income row `adl` is not added again', async () => {
      setIndex(server(), 'ETH', '2000');
      const market = 'ETH_USD_PERP';
      await fundingCaughtUp(server(), market);
      const a = await futuresTrader(server(), '1000');
      const d = await futuresTrader(server(), '5000');
      await server().request('PUT', `/v1/futures/markets/${market}/margin-mode`, {
        token: a.token,
        body: { margin_mode: 'isolated' },
      });
      expect(
        (await order(server(), d, { market, side: 'sell', type: 'limit', price: '2000', quantity: '1' })).status,
      ).toBe(201);
      expect((await order(server(), a, { market, side: 'buy', type: 'market', quantity: '1' })).body.status).toBe(
        'filled',
      );
      // No bids and an empty fund: the position is closed against d at the bankruptcy price 1,900.
      setIndex(server(), 'ETH', '1800');
      await eventually(
        () => positions(server(), d),
        (list) => list.length === 0,
      );
      expect((await account(server(), d)).wallet_balance).toBe('5099.6');
      const adl = await server().request('GET', '/v1/futures/income?type=adl', { token: d.token });
      expect(adl.body.income.map((row: { amount: string }) => row.amount)).toEqual(['100']);
      // d: +100 realised by the ADL fill − 0.4 maker fee when it opened (not 199.6).
      const winner = await analytics(server(), d);
      expect([winner.realised_pnl, winner.closed_trades, winner.winning_trades]).toEqual(['99.6', 1, 1]);
      expect(winner.best_trade).toMatchObject({ asset: market, pnl: '100' });
      // a: −100 at the bankruptcy price − 0.8 taker fee; its margin was all lost, no fee was left to take.
      expect((await account(server(), a)).wallet_balance).toBe('899.2');
      const loser = await analytics(server(), a);
      expect([loser.realised_pnl, loser.liquidation_fees, loser.insurance_cleared]).toEqual(['-100.8', '0', '0']);
    });
  },
  ENVIRONMENT,
);
