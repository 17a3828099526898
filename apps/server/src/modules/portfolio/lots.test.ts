import type { PortfolioLots, PortfolioRealised } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };
type Trader = { id: string; token: string };

async function user(server: TestServer): Promise<Trader> {
  const signed = await signUp(server);
  return { id: signed.session.account_id, token: signed.session.token };
}

async function spot(server: TestServer, trader: Trader, body: Record<string, unknown>, status: string) {
  const placed = await placeOrder(server, trader.token, { trading_pair: 'BTC_USD', type: 'limit', ...body });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(placed.body.status).toBe(status);
}

/**
 * Alice deposits 100,000 USD (the numeraire: no lot), buys 0.1 BTC at 50,000 and 0.1 at 54,000
 * (taker, 0.1 % fee in USD: costs 5,005 and 5,405.4), then sells 0.05 at 52,000 (taker: receives
 * 2,600 - 2.6 = 2,597.4). Bob sold her the BTC, Carol bought from her.
 */
async function drive(server: TestServer) {
  setReferencePrice(server, 'BTC_USD', '50000.00');
  const [alice, bob, carol] = [await user(server), await user(server), await user(server)];
  await fund(server, alice.id, 'USD', '100000');
  await fund(server, bob.id, 'BTC', '1');
  await fund(server, carol.id, 'USD', '10000');
  await spot(server, bob, { side: 'sell', price: '50000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '50000.00', quantity: '0.1' }, 'filled');
  await spot(server, bob, { side: 'sell', price: '54000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '54000.00', quantity: '0.1' }, 'filled');
  await spot(server, carol, { side: 'buy', price: '52000.00', quantity: '0.05' }, 'pending');
  await spot(server, alice, { side: 'sell', price: '52000.00', quantity: '0.05' }, 'filled');
  return { alice, bob, carol };
}

const year = (server: TestServer) => server.clock.now.getUTCFullYear();

describeEachDatabase(
  'portfolio lots from the ledger',
  (server) => {
    let people: Awaited<ReturnType<typeof drive>>;
    beforeAll(async () => {
      people = await drive(server());
    });

    const get = (trader: Trader, path: string) => server().request('GET', path, { token: trader.token });

    it('FIFO: the sale consumes the first lot; open lots and unrealised P&L at the live price', async () => {
      const response = await get(people.alice, '/v1/portfolio/lots?asset=BTC');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const body = response.body as PortfolioLots;
      expect(body.method).toBe('fifo');
      expect(body.price).toBe('50000');
      // Lot 1: half left, half its cost (5,005 / 2); lot 2 whole. Values at 50,000: 2,500 and 5,000.
      expect(body.lots.map((lot) => [lot.kind, lot.amount, lot.original_amount, lot.cost, lot.cost_per_unit])).toEqual([
        ['buy', '0.05', '0.1', '2502.5', '50050'],
        ['buy', '0.1', '0.1', '5405.4', '54054'],
      ]);
      expect(body.lots.map((lot) => [lot.value, lot.unrealised_pnl])).toEqual([
        ['2500', '-2.5'],
        ['5000', '-405.4'],
      ]);
      // Average (2,502.5 + 5,405.4) / 0.15 = 52,719.333... rounded down to 10^-8.
      expect(body.totals).toEqual({
        amount: '0.15',
        cost: '7907.9',
        average_cost: '52719.33333333',
        value: '7500',
        unrealised_pnl: '-407.9',
        realised_pnl: '94.9',
        uncovered_amount: '0',
      });
    });

    it('HIFO: the sale consumes the dearest lot', async () => {
      const body = (await get(people.alice, '/v1/portfolio/lots?asset=BTC&method=hifo')).body as PortfolioLots;
      expect(body.lots.map((lot) => [lot.amount, lot.cost])).toEqual([
        ['0.1', '5005'],
        ['0.05', '2702.7'],
      ]);
      // 2,597.4 - 2,702.7; open 7,500 - (5,005 + 2,702.7).
      expect(body.totals.realised_pnl).toBe('-105.3');
      expect(body.totals.unrealised_pnl).toBe('-207.7');
    });

    it('realised rows of the tax year, FIFO and HIFO, and nothing in another year', async () => {
      const fifo = (await get(people.alice, `/v1/portfolio/realised?year=${year(server())}`)).body as PortfolioRealised;
      expect(fifo.rows.map((row) => [row.asset, row.disposal_kind, row.acquisition_kind, row.amount])).toEqual([
        ['BTC', 'sell', 'buy', '0.05'],
      ]);
      expect(fifo.rows.map((row) => [row.proceeds, row.cost, row.fee, row.gain])).toEqual([
        ['2597.4', '2502.5', '0', '94.9'],
      ]);
      expect(fifo.totals).toEqual({ rows: 1, proceeds: '2597.4', cost: '2502.5', fee: '0', gain: '94.9' });
      const hifo = (await get(people.alice, `/v1/portfolio/realised?year=${year(server())}&method=hifo`))
        .body as PortfolioRealised;
      expect(hifo.totals).toEqual({ rows: 1, proceeds: '2597.4', cost: '2702.7', fee: '0', gain: '-105.3' });
      const before = (await get(people.alice, `/v1/portfolio/realised?year=${year(server()) - 1}`))
        .body as PortfolioRealised;
      expect(before.rows).toEqual([]);
      expect(before.totals.gain).toBe('0');
    });

    it('the tax report CSV, streamed as an attachment', async () => {
      const response = await get(people.alice, `/v1/portfolio/tax-report.csv?year=${year(server())}&method=hifo`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="realised-gains-${year(server())}-hifo.csv"`,
      );
      const lines = (response.body as string).split('\r\n');
      expect(lines[0]).toBe('Date Acquired,Date Sold,Asset,Amount,Proceeds,Cost Basis,Gain');
      expect(lines[1]).toMatch(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,BTC,0\.05,2597\.4,2702\.7,-105\.3$/,
      );
      expect(lines.slice(2)).toEqual(['']);
    });

    it("another account's data never appears", async () => {
      const dave = await user(server());
      const lots = (await get(dave, '/v1/portfolio/lots?asset=BTC')).body as PortfolioLots;
      expect(lots.lots).toEqual([]);
      expect(lots.totals.amount).toBe('0');
      const realised = (await get(dave, `/v1/portfolio/realised?year=${year(server())}`)).body as PortfolioRealised;
      expect(realised.rows).toEqual([]);
      // Carol's only BTC is what she bought from Alice.
      const carol = (await get(people.carol, '/v1/portfolio/lots?asset=BTC')).body as PortfolioLots;
      expect(carol.lots.map((lot) => lot.amount)).toEqual(['0.05']);
      const bob = (await get(people.bob, `/v1/portfolio/realised?year=${year(server())}`)).body as PortfolioRealised;
      // Bob's sales: his deposit lot (at its recorded price), never Alice's lots.
      expect(bob.rows.map((row) => row.acquisition_kind)).toEqual(['deposit', 'deposit']);
    });

    it('bad year, method or asset: VALIDATION_ERROR; no token: 401', async () => {
      for (const path of [
        '/v1/portfolio/realised?year=abc',
        '/v1/portfolio/realised?year=1969',
        '/v1/portfolio/realised?year=2026&method=average',
        '/v1/portfolio/tax-report.csv?year=10000',
        '/v1/portfolio/lots?asset=BTC&method=fifo2',
        '/v1/portfolio/lots?asset=btc;drop',
        '/v1/portfolio/lots',
      ]) {
        const response = await get(people.alice, path);
        expect(response.status, path).toBe(400);
        expect((response.body as { error: { code: string } }).error.code, path).toBe('VALIDATION_ERROR');
      }
      const anonymous = await server().request('GET', '/v1/portfolio/lots?asset=BTC');
      expect(anonymous.status).toBe(401);
    });
  },
  ENVIRONMENT,
);
