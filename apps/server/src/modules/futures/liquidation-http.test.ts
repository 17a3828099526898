import { perp } from '@platform/engine';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { account, futuresTrader, order, positions, setIndex, type Trader } from './test-support.ts';

/** The price feed off: the index (and so the mark, without a mark source) is what the test publishes. */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

/** Waits (the watch polls the marks every second) until `check` holds, or fails after `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 6_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The funding timer pays the latest round as soon as a market has a mark (the one at or before now,
 * with nobody in it on a fresh database): waited for before opening, so that no round moves the
 * margins these tests compute (the next one is hours away, unless a run straddles a funding time).
 */
async function fundingCaughtUp(server: TestServer, market: string): Promise<void> {
  const rows = await eventually(
    () => server.db.query('SELECT 1 FROM futures_funding_rounds WHERE market_id = $1', [market]),
    (result) => result.rows.length > 0,
  );
  expect(rows.rows.length).toBeGreaterThan(0);
}

const notifications = async (server: TestServer, trader: Trader) =>
  (
    (await server.request('GET', '/v1/notifications?limit=50', { token: trader.token })).body as {
      notifications: { title: string; message: string; severity: string }[];
    }
  ).notifications;

describeEachDatabase(
  'futures liquidation through HTTP',
  (server) => {
    it('margin call at 0.8, then liquidation at exactly the maintenance line; fee to the fund; audit rows', async () => {
      setIndex(server(), 'BTC', '50000');
      await fundingCaughtUp(server(), 'BTC_USD_PERP');
      const a = await futuresTrader(server(), '1000');
      const b = await futuresTrader(server(), '100000');
      const c = await futuresTrader(server(), '100000');
      const mode = await server().request('PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', {
        token: a.token,
        body: { margin_mode: 'isolated' },
      });
      expect(mode.status).toBe(200);
      expect((await order(server(), b, { side: 'sell', type: 'limit', price: '50000', quantity: '0.1' })).status).toBe(
        201,
      );
      expect((await order(server(), a, { side: 'buy', type: 'market', quantity: '0.1' })).body.status).toBe('filled');
      const [long] = await positions(server(), a);
      expect(long).toMatchObject({ size: '0.1', margin: '250', liquidation_price: '47738.6', adl_rank: 5 });
      expect((await positions(server(), b))[0]).toMatchObject({ side: 'short', adl_rank: 5 });
      expect((await order(server(), c, { side: 'buy', type: 'limit', price: '47700', quantity: '0.1' })).status).toBe(
        201,
      );
      // MM / MB >= 0.8: 0.0005 P >= 0.8 x (0.1 P - 4,750)  <=>  P <= 47,798.74: a margin call, no liquidation.
      setIndex(server(), 'BTC', '47790');
      const called = await eventually(
        () => notifications(server(), a),
        (list) => list.some((n) => n.title === 'Margin call'),
      );
      expect(called.filter((n) => n.title === 'Margin call')).toHaveLength(1);
      // One tick above the line: still open.
      setIndex(server(), 'BTC', '47738.7');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await positions(server(), a)).toHaveLength(1);
      expect((await notifications(server(), a)).filter((n) => n.title === 'Margin call')).toHaveLength(1);
      setIndex(server(), 'BTC', '47738.6');
      const gone = await eventually(
        () => positions(server(), a),
        (list) => list.length === 0,
      );
      expect(gone).toEqual([]);
      // Closed at C's bid of 47,700: 250 - 230 = 20 left, all of it the fee (0.5 % of 4,773.86 is more).
      expect(await account(server(), a)).toMatchObject({ wallet_balance: '748', isolated_margin: '0' });
      const fund = await server().request('GET', '/v1/futures/insurance-fund');
      expect(fund.body.balance).toBe('20');
      const income = await server().request('GET', '/v1/futures/income?type=liquidation_fee', { token: a.token });
      expect(income.body.income.map((row: { amount: string }) => row.amount)).toEqual(['-20']);
      const liquidated = await eventually(
        () => notifications(server(), a),
        (list) => list.some((n) => n.title === 'Position liquidated'),
      );
      expect(liquidated.find((n) => n.title === 'Position liquidated')).toMatchObject({ severity: 'error' });
      const steps = await server().db.query<{ step: string; price: string | null; quantity: string | null }>(
        `SELECT step, price::text AS price, quantity::text AS quantity FROM futures_liquidations
         WHERE account_id = $1 ORDER BY id`,
        [a.id],
      );
      expect(steps.rows.map((r) => r.step)).toEqual(['close', 'liquidation_fee']);
      const journal = await server().db.query<{ payload: { marks: Record<string, number> } }>(
        `SELECT payload FROM futures_journal WHERE kind = 'liquidate' AND payload->>'accountId' = $1`,
        [a.id],
      );
      expect(journal.rows.map((r) => r.payload.marks)).toEqual([{ BTC_USD_PERP: 477_386 }]);
    });

    it('ADL when the book and the fund cannot take it: the counterparty is closed at the bankruptcy price', async () => {
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
      // 20x isolated: margin 100, BP = 2,000 - 100 = 1,900. The mark gaps to 1,800 with no bids at all.
      setIndex(server(), 'ETH', '1800');
      await eventually(
        () => positions(server(), a),
        (list) => list.length === 0,
      );
      expect(await positions(server(), d)).toEqual([]);
      // d shorted 1 at 2,000 and was closed at 1,900: +100 less its maker fee of 0.4 when it opened.
      expect((await account(server(), d)).wallet_balance).toBe('5099.6');
      const deleveraged = await eventually(
        () => notifications(server(), d),
        (list) => list.some((n) => n.title === 'Position deleveraged'),
      );
      expect(deleveraged.find((n) => n.title === 'Position deleveraged')?.message).toContain('1900');
      const adl = await server().request('GET', '/v1/futures/income?type=adl', { token: d.token });
      expect(adl.body.income.map((row: { amount: string }) => row.amount)).toEqual(['100']);
    });

    it('a crash liquidates exactly the positions under maintenance; sizes sum to zero, nothing negative', async () => {
      const market = 'SOL_USD_PERP';
      setIndex(server(), 'SOL', '100');
      await fundingCaughtUp(server(), market);
      const mm = await futuresTrader(server(), '1000000');
      const traders: { trader: Trader; isolated: boolean }[] = [];
      for (let i = 0; i < 8; i++) {
        const trader = await futuresTrader(server(), String(150 + 20 * i));
        const isolated = i % 2 === 0;
        if (isolated) {
          await server().request('PUT', `/v1/futures/markets/${market}/margin-mode`, {
            token: trader.token,
            body: { margin_mode: 'isolated' },
          });
        }
        await server().request('PUT', `/v1/futures/markets/${market}/leverage`, {
          token: trader.token,
          body: { leverage: 10 + 5 * i },
        });
        traders.push({ trader, isolated });
      }
      expect(
        (await order(server(), mm, { market, side: 'sell', type: 'limit', price: '100', quantity: '80' })).status,
      ).toBe(201);
      for (const { trader } of traders) {
        const opened = await order(server(), trader, { market, side: 'buy', type: 'market', quantity: '10' });
        expect(opened.body.status, JSON.stringify(opened.body)).toBe('filled');
      }
      expect(
        (await order(server(), mm, { market, side: 'buy', type: 'limit', price: '94', quantity: '40' })).status,
      ).toBe(201);
      // The reference rule at 90 (tier 1 of SOL: MM = 0.65 % of the notional, rounded up), from the API's figures.
      const money = (text: string) => perp.decimalToMoney(text)!;
      const expected = new Set<string>();
      for (const { trader, isolated } of traders) {
        const [position] = (await positions(server(), trader)).filter((p) => p.market === market);
        const collateral = isolated
          ? money(position!.margin!)
          : money((await account(server(), trader)).wallet_balance!);
        const loss =
          (money(position!.size!) * (money(position!.entry_price!) - 90n * perp.MONEY_SCALE)) / perp.MONEY_SCALE;
        const notional = money(position!.size!) * 90n;
        const maintenance = (notional * 65n + 9_999n) / 10_000n;
        if (collateral - loss <= maintenance) expected.add(trader.id);
      }
      expect(expected.size).toBeGreaterThan(2);
      expect(expected.size).toBeLessThan(traders.length);
      setIndex(server(), 'SOL', '90');
      for (const { trader } of traders) {
        const open = await eventually(
          () => positions(server(), trader),
          (list) => list.some((p) => p.market === market) !== expected.has(trader.id),
        );
        expect(
          open.some((p) => p.market === market),
          trader.id,
        ).toBe(!expected.has(trader.id));
      }
      // Once every expected liquidation is done, the others are still open.
      for (const { trader } of traders) {
        const open = (await positions(server(), trader)).some((p) => p.market === market);
        expect(open, trader.id).toBe(!expected.has(trader.id));
      }
      const sizes = await server().db.query<{ total: string }>(
        'SELECT coalesce(sum(size_lots), 0)::text AS total FROM futures_positions WHERE market_id = $1',
        [market],
      );
      expect(sizes.rows[0]!.total).toBe('0');
      const negative = await server().db.query(
        `SELECT 1 FROM ledger_accounts WHERE (owner_kind = 'futures' AND (available < 0 OR locked < 0))
           OR (owner_kind = 'system' AND system_name = 'insurance_fund' AND available < 0)`,
      );
      expect(negative.rows).toEqual([]);
    });
  },
  ENVIRONMENT,
);
