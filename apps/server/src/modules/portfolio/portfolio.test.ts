import type { PortfolioSummary, PriceUpdate } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { futuresTrader, order, positions, type Trader } from '../futures/test-support.ts';
import { storedUnits } from '../futures/units.ts';
import { fund, placeOrder } from '../trading/test-support.ts';

/** The feed is off: every price is the one the test publishes. No rate limit on the requests. */
const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

/** The test's own arithmetic, independent of the module's: USD in units of 10^-8, percents in 10^-2. */
const USD = 10n ** 8n;
const usd = (text: string) => storedUnits(text, 8);
function fixed(units: bigint, one: bigint, digits: number): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  const fraction = (magnitude % one).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${sign}${magnitude / one}${fraction ? `.${fraction}` : ''}`;
}
const money = (units: bigint) => fixed(units, USD, 8);
const percent = (hundredths: bigint) => fixed(hundredths, 100n, 2);
/** part / whole in hundredths of a percent, half up (no test figure falls on a tie). */
const halfUp = (part: bigint, whole: bigint) => (part * 10_000n * 2n + whole) / (whole * 2n);
/** Shares rounded down, the remainder to 100 % on the largest value. */
function sharesOf(values: bigint[]): string[] {
  const total = values.reduce((a, b) => a + b, 0n);
  const result = values.map((value) => (value * 10_000n) / total);
  const largest = values.indexOf(values.reduce((a, b) => (b > a ? b : a)));
  result[largest]! += 10_000n - result.reduce((a, b) => a + b, 0n);
  return result.map(percent);
}

/** A BTC_USD reference price with its price 24 h ago, as the feed publishes them (change = price - open). */
function publishBtc(server: TestServer, price: string, open: string): void {
  const update: PriceUpdate = {
    symbol: 'BTC/USD',
    price,
    change24h: money(usd(price) - usd(open)),
    changePercent24h: '0',
    volume24h: '0',
    high24h: price,
    low24h: open,
    timestamp: server.clock.now.getTime(),
  };
  server.pubsub.publish('price.BTC_USD', update, { retain: true });
  // The marks follow the index at once (their timer is stopped).
  server.services.futures.workers.marks.sampleAll();
}

async function user(server: TestServer): Promise<Trader> {
  const signed = await signUp(server);
  return { id: signed.session.account_id, token: signed.session.token };
}

async function portfolio(server: TestServer, trader: Trader): Promise<PortfolioSummary> {
  const response = await server.request('GET', '/v1/portfolio', { token: trader.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as PortfolioSummary;
}

async function spotOrder(server: TestServer, trader: Trader, body: Record<string, unknown>, status: string) {
  const placed = await placeOrder(server, trader.token, { trading_pair: 'BTC_USD', type: 'limit', ...body });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(placed.body.status).toBe(status);
}

/**
 * Alice: 20,000 USD in; buys 0.1 BTC at 50,000 (pays 5,000 + the 0.1 % taker fee of 5); offers
 * 0.04 BTC for sale (held); moves 1,000 USD to futures; goes long 0.01 BTC_USD_PERP at 50,000,
 * isolated at 20x (25 of margin posted; taker fee 0.04 % of 500 = 0.2). Bob sold her the BTC; Carol took the other side of the perp.
 */
async function drive(server: TestServer) {
  publishBtc(server, '50000.00', '48000.00');
  const [alice, bob] = [await user(server), await user(server)];
  const carol = await futuresTrader(server, '1000');
  await fund(server, alice.id, 'USD', '20000');
  await fund(server, bob.id, 'BTC', '1');
  await spotOrder(server, bob, { side: 'sell', price: '50000.00', quantity: '0.1' }, 'pending');
  await spotOrder(server, alice, { side: 'buy', price: '50000.00', quantity: '0.1' }, 'filled');
  await spotOrder(server, alice, { side: 'sell', price: '54000.00', quantity: '0.04' }, 'pending');
  const moved = await server.request('POST', '/v1/futures/transfers', {
    token: alice.token,
    body: { direction: 'to_futures', amount: '1000' },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(201);
  // Isolated, so that the margin posted (500 / 20 = 25) shows apart and the long has a liquidation price.
  const mode = await server.request('PUT', '/v1/futures/markets/BTC_USD_PERP/margin-mode', {
    token: alice.token,
    body: { margin_mode: 'isolated' },
  });
  expect(mode.status, JSON.stringify(mode.body)).toBe(200);
  const resting = await order(server, carol, { side: 'sell', type: 'limit', price: '50000', quantity: '0.01' });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await order(server, alice, { side: 'buy', type: 'market', quantity: '0.01' });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
  // BTC is now 51,000 (it was 48,000 24 h ago): the mark follows the index.
  publishBtc(server, '51000.00', '48000.00');
  return { alice, bob, carol };
}

describeEachDatabase(
  'portfolio summary',
  (server) => {
    let people: Awaited<ReturnType<typeof drive>>;
    beforeAll(async () => {
      // The test moves the marks itself and pays no funding rounds.
      server().services.futures.workers.marks.stop();
      await server().services.futures.workers.funding.stop();
      people = await drive(server());
    });

    it('values spot holdings, open-order holds and futures equity exactly at the prices set', async () => {
      const { alice } = people;
      const summary = await portfolio(server(), alice);
      const [position] = await positions(server(), alice);
      expect(position).toMatchObject({ side: 'long', size: '0.01', entry_price: '50000', mark_price: '51000' });

      const spotUsd = usd('20000') - usd('5005') - usd('1000'); // 13,995
      const btcNow = (usd('0.1') * 51_000n) / 1n; // 5,100
      const btc24h = usd('0.1') * 48_000n; // 4,800
      const walletFutures = usd('1000') - usd('0.2'); // 999.8
      const unrealised = usd('0.01') * (51_000n - 50_000n); // 10
      const equity = walletFutures + unrealised; // 1,009.8
      // Holdings now at yesterday's prices: the long's move is its size times the index's 24 h change.
      const equity24h = equity - usd('0.01') * (51_000n - 48_000n); // 979.8
      const total = spotUsd + btcNow + equity;
      const total24h = spotUsd + btc24h + equity24h;
      const holdingShares = sharesOf([spotUsd, btcNow, equity]);

      expect(summary).toMatchObject({
        currency: 'USD',
        total_value: money(total), // 20,104.8
        total_value_24h_ago: money(total24h), // 19,774.8
        change_24h: money(total - total24h), // 330
        change_24h_percent: percent(halfUp(total - total24h, total24h)), // 1.67
        locked_value: money(usd('0.04') * 51_000n), // 2,040
        method: 'fifo',
      });
      expect(summary.holdings).toEqual([
        {
          asset: 'USD',
          amount: money(spotUsd),
          available: money(spotUsd),
          locked: '0',
          price: '1',
          price_source: 'unit',
          value: money(spotUsd),
          price_24h_ago: '1',
          change_24h_percent: '0',
          share_percent: holdingShares[0],
          // USD is the numeraire: no lots, no cost basis.
          average_cost: null,
          cost_basis: null,
          unrealised_pnl: null,
          unrealised_pnl_percent: null,
        },
        {
          asset: 'BTC',
          amount: '0.1',
          available: '0.06',
          locked: '0.04',
          price: '51000',
          price_source: 'reference',
          value: money(btcNow),
          price_24h_ago: '48000',
          change_24h_percent: percent(halfUp(3_000n, 48_000n)), // 6.25
          share_percent: holdingShares[1],
          // One lot: 0.1 bought at 50,000 plus the 0.1 % fee (5,005), held or on order alike.
          average_cost: money(usd('5005') * 10n),
          cost_basis: money(usd('5005')),
          unrealised_pnl: money(btcNow - usd('5005')), // 95
          unrealised_pnl_percent: percent(halfUp(btcNow - usd('5005'), usd('5005'))), // 1.9
        },
      ]);
      const liquidation = position!.liquidation_price as string;
      expect(usd(liquidation) > 0n && usd(liquidation) < usd('50000')).toBe(true);
      expect(summary.futures).toEqual({
        available: money(walletFutures - usd('25')),
        isolated_margin: '25',
        wallet_balance: money(walletFutures),
        unrealised_pnl: money(unrealised),
        equity: money(equity),
        share_percent: holdingShares[2],
        positions: [
          {
            market: 'BTC_USD_PERP',
            side: 'long',
            size: '0.01',
            entry_price: '50000',
            mark_price: '51000',
            liquidation_price: liquidation,
            margin_ratio: position!.margin_ratio,
            // (mark - liquidation) / mark, rounded down.
            distance_to_liquidation_percent: percent(((51_000n * USD - usd(liquidation)) * 10_000n) / (51_000n * USD)),
            unrealised_pnl: money(unrealised),
          },
        ],
      });
      expect(holdingShares.reduce((a, b) => a + usd(b), 0n)).toBe(usd('100'));
      const byAsset = sharesOf([spotUsd + equity, btcNow]);
      expect(summary.allocation.by_asset).toEqual([
        { key: 'USD', value: money(spotUsd + equity), share_percent: byAsset[0] },
        { key: 'BTC', value: money(btcNow), share_percent: byAsset[1] },
      ]);
      const byProduct = sharesOf([spotUsd + btcNow, equity]);
      expect(summary.allocation.by_product).toEqual([
        { key: 'spot', value: money(spotUsd + btcNow), share_percent: byProduct[0] },
        { key: 'futures', value: money(equity), share_percent: byProduct[1] },
      ]);
    });

    it('shows each account only its own, and another id answers 404 as an unknown one', async () => {
      const { alice, bob, carol } = people;
      const bobs = await portfolio(server(), bob);
      // Bob sold 0.1 BTC for 5,000 less his 0.1 % maker fee.
      expect(bobs.holdings.map((h) => [h.asset, h.amount, h.value])).toEqual([
        ['BTC', '0.9', money(usd('0.9') * 51_000n)],
        ['USD', '4995', '4995'],
      ]);
      expect(bobs.futures).toMatchObject({ equity: '0', positions: [] });
      expect(bobs.total_value).toBe(money(usd('0.9') * 51_000n + usd('4995')));
      const carols = await portfolio(server(), carol);
      // Carol's cross short: its liquidation price is far above the mark; its distance is measured upward.
      const [short] = await positions(server(), carol);
      const carolLiquidation = usd(short!.liquidation_price as string);
      expect(carols.futures.positions).toMatchObject([
        {
          side: 'short',
          size: '0.01',
          liquidation_price: short!.liquidation_price,
          distance_to_liquidation_percent: percent(((carolLiquidation - 51_000n * USD) * 10_000n) / (51_000n * USD)),
        },
      ]);
      expect(carols.holdings).toEqual([]);

      const own = await server().request('GET', `/v1/accounts/${alice.id}/portfolio`, { token: alice.token });
      expect(own.status).toBe(200);
      expect({ ...own.body, timestamp: 0 }).toEqual({ ...(await portfolio(server(), alice)), timestamp: 0 });
      const other = await server().request('GET', `/v1/accounts/${alice.id}/portfolio`, { token: bob.token });
      const unknown = await server().request('GET', `/v1/accounts/${crypto.randomUUID()}/portfolio`, {
        token: bob.token,
      });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(unknown.body);
      expect(JSON.stringify(other.body)).not.toContain(alice.id);
      const malformed = await server().request('GET', '/v1/accounts/not-an-id/portfolio', { token: bob.token });
      expect(malformed.status).toBe(400);
    });

    it('answers 401 without a token and zeros for an empty account', async () => {
      for (const path of ['/v1/portfolio', `/v1/accounts/${people.alice.id}/portfolio`]) {
        const anonymous = await server().request('GET', path);
        expect(anonymous.status).toBe(401);
        expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
      }
      const empty = await portfolio(server(), await user(server()));
      expect(empty).toMatchObject({
        total_value: '0',
        total_value_24h_ago: '0',
        change_24h: '0',
        change_24h_percent: null,
        locked_value: '0',
        holdings: [],
        allocation: {
          by_asset: [],
          by_product: [
            { key: 'spot', value: '0', share_percent: '0' },
            { key: 'futures', value: '0', share_percent: '0' },
          ],
        },
        futures: {
          available: '0',
          isolated_margin: '0',
          wallet_balance: '0',
          unrealised_pnl: '0',
          equity: '0',
          share_percent: '0',
          positions: [],
        },
      });
    });

    it('never counts a transfer between spot and futures twice or not at all while it moves', async () => {
      const dana = await user(server());
      await fund(server(), dana.id, 'USD', '1000');
      const transfer = (direction: string) =>
        server().request('POST', '/v1/futures/transfers', { token: dana.token, body: { direction, amount: '10' } });
      const moves: Promise<unknown>[] = [];
      const reads: Promise<PortfolioSummary>[] = [];
      for (let round = 0; round < 40; round++) {
        moves.push(transfer('to_futures'), transfer('to_spot'));
        reads.push(portfolio(server(), dana));
      }
      const [, totals] = await Promise.all([Promise.all(moves), Promise.all(reads)]);
      expect(new Set(totals.map((summary) => summary.total_value))).toEqual(new Set(['1000']));
      // (Read side by side, the two products showed 990 and 1,010 here: a transfer seen on one side only.)
      const after = await portfolio(server(), dana);
      expect([after.total_value, after.futures.equity]).toEqual(['1000', '0']);
    });

    it('is documented at /docs with its response schema', async () => {
      const docs = await server().request('GET', '/docs/json');
      const paths = docs.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
      const ok = JSON.stringify(paths['/v1/portfolio']?.get?.responses['200']);
      for (const field of ['total_value', 'change_24h_percent', 'distance_to_liquidation_percent', 'by_product']) {
        expect(ok).toContain(field);
      }
      expect(paths['/v1/accounts/{id}/portfolio']?.get?.responses).toHaveProperty('404');
    });

    it('follows the prices: a new reference price revalues the same holdings at once', async () => {
      const { bob } = people;
      publishBtc(server(), '45000.00', '48000.00');
      const bobs = await portfolio(server(), bob);
      expect(bobs.total_value).toBe(money(usd('0.9') * 45_000n + usd('4995')));
      expect(bobs.change_24h).toBe(money(usd('0.9') * (45_000n - 48_000n)));
      expect(bobs.holdings[0]).toMatchObject({ asset: 'BTC', change_24h_percent: '-6.25' });
      publishBtc(server(), '51000.00', '48000.00');
    });
  },
  ENVIRONMENT,
);
