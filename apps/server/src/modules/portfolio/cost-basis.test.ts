import {
  type PortfolioHolding,
  type PortfolioLots,
  type PortfolioSummary,
  REFERENCE_PRICES_USD,
} from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { convert, quote, setReferencePrices } from '../conversions/test-support.ts';
import { storedUnits } from '../futures/units.ts';
import { fund, placeOrder } from '../trading/test-support.ts';
import { type Member, sendTransfer, settled, signUpMember } from '../wallet/test-support.ts';

const ENVIRONMENT = { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' };

/** The test's own arithmetic: USD in 10^-8 units, amounts in 10^-18 units, percents half up to 10^-2. */
const USD = 10n ** 8n;
const UNIT = 10n ** 18n;
const usd = (text: string) => storedUnits(text, 8);
const units = (text: string) => storedUnits(text, 18);
function fixed(value: bigint, one: bigint, digits: number): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % one).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${sign}${magnitude / one}${fraction ? `.${fraction}` : ''}`;
}
const money = (value: bigint) => fixed(value, USD, 8);
/** part / whole x 100 to 2 decimals, half away from zero (no figure here falls on a tie). */
function percent(part: bigint, whole: bigint): string {
  const scaled = (part * 10_000n * 2n + (part < 0n ? -whole : whole)) / (whole * 2n);
  return fixed(scaled, 100n, 2);
}
/** A lot's cost: amount (10^-18) x price (USD 10^-8 per unit), rounded down. */
const worth = (amount: bigint, price: bigint) => (amount * price) / UNIT;

function expected(amount: bigint, cost: bigint, livePrice: bigint) {
  const unrealised = worth(amount, livePrice) - cost;
  return {
    average_cost: money((cost * UNIT) / amount),
    cost_basis: money(cost),
    unrealised_pnl: money(unrealised),
    unrealised_pnl_percent: percent(unrealised, cost),
  };
}

async function spot(server: TestServer, trader: Member, body: Record<string, unknown>, status: string) {
  const placed = await placeOrder(server, trader.token, { trading_pair: 'BTC_USD', type: 'limit', ...body });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(placed.body.status).toBe(status);
}

/** The recorded USD price of a moment (a candle, else the catalogue's), as the lots value a conversion or transfer. */
async function recorded(server: TestServer, currency: string): Promise<bigint> {
  const price = await server.services.markets.usdPriceAt(currency, server.clock.now.getTime());
  return usd(price ?? REFERENCE_PRICES_USD[currency]!);
}

/**
 * Alice deposits 100,000 USD, buys 0.1 BTC at 50,000 and 0.1 at 54,000 (taker, 0.1 % fee in USD:
 * lots of 5,005 and 5,405.4), sells 0.05 at 52,000, converts 0.05 BTC to ETH, and receives 0.02 BTC
 * from Dave. Live prices: BTC 50,000, ETH 2,500 (the conversions' reference prices).
 */
async function drive(server: TestServer) {
  setReferencePrices(server);
  const [alice, bob, carol, dave] = [
    await signUpMember(server),
    await signUpMember(server),
    await signUpMember(server),
    await signUpMember(server),
  ];
  await fund(server, alice.id, 'USD', '100000');
  await fund(server, bob.id, 'BTC', '1');
  await fund(server, carol.id, 'USD', '10000');
  await fund(server, dave.id, 'BTC', '1');
  await spot(server, bob, { side: 'sell', price: '50000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '50000.00', quantity: '0.1' }, 'filled');
  await spot(server, bob, { side: 'sell', price: '54000.00', quantity: '0.1' }, 'pending');
  await spot(server, alice, { side: 'buy', price: '54000.00', quantity: '0.1' }, 'filled');
  await spot(server, carol, { side: 'buy', price: '52000.00', quantity: '0.05' }, 'pending');
  await spot(server, alice, { side: 'sell', price: '52000.00', quantity: '0.05' }, 'filled');
  const offer = await quote(server, alice, 'BTC', 'ETH', '0.05');
  const ethPrice = await recorded(server, 'ETH');
  const converted = await convert(server, alice, {
    from_currency: 'BTC',
    to_currency: 'ETH',
    from_amount: '0.05',
    quote_id: offer.quote_id,
  });
  expect(converted.status, JSON.stringify(converted.body)).toBe(201);
  const btcPrice = await recorded(server, 'BTC');
  const sent = await sendTransfer(server, dave, { to_username: alice.username, currency: 'BTC', amount: '0.02' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  expect((await settled(server, dave, sent.body.id)).status).toBe('FINISHED');
  return { alice, eth: units(converted.body.to_amount), ethPrice, btcPrice };
}

describeEachDatabase(
  'portfolio summary: average cost and unrealised P&L per holding',
  (server) => {
    let run: Awaited<ReturnType<typeof drive>>;
    beforeAll(async () => {
      run = await drive(server());
    });

    const summary = async () => {
      const response = await server().request('GET', '/v1/portfolio', { token: run.alice.token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as PortfolioSummary;
    };
    const holding = (body: PortfolioSummary, asset: string) =>
      body.holdings.find((row) => row.asset === asset) as PortfolioHolding;
    const costs = (row: PortfolioHolding) => ({
      average_cost: row.average_cost,
      cost_basis: row.cost_basis,
      unrealised_pnl: row.unrealised_pnl,
      unrealised_pnl_percent: row.unrealised_pnl_percent,
    });
    const putMethod = (lot_method: string) =>
      server().request('PUT', '/v1/portfolio/settings', { token: run.alice.token, body: { lot_method } });

    describe('FIFO (the default)', () => {
      it('BTC: the sale and the conversion consumed the first lot; the second and the transfer are open', async () => {
        const body = await summary();
        expect(body.method).toBe('fifo');
        const btc = holding(body, 'BTC');
        expect(btc.amount).toBe('0.12');
        const transferCost = worth(units('0.02'), run.btcPrice);
        expect(costs(btc)).toEqual(expected(units('0.12'), usd('5405.4') + transferCost, usd('50000')));
      });

      it('ETH: one lot at the recorded price of the conversion; USD has no cost basis', async () => {
        const body = await summary();
        const eth = holding(body, 'ETH');
        expect(eth.amount).toBe(fixed(run.eth, UNIT, 18));
        expect(costs(eth)).toEqual(expected(run.eth, worth(run.eth, run.ethPrice), usd('2500')));
        expect(costs(holding(body, 'USD'))).toEqual({
          average_cost: null,
          cost_basis: null,
          unrealised_pnl: null,
          unrealised_pnl_percent: null,
        });
      });

      it('the same figures as GET /v1/portfolio/lots', async () => {
        const body = await summary();
        for (const asset of ['BTC', 'ETH']) {
          const lots = (await server().request('GET', `/v1/portfolio/lots?asset=${asset}`, { token: run.alice.token }))
            .body as PortfolioLots;
          const row = holding(body, asset);
          expect([row.average_cost, row.cost_basis, row.unrealised_pnl]).toEqual([
            lots.totals.average_cost,
            lots.totals.cost,
            lots.totals.unrealised_pnl,
          ]);
        }
      });
    });

    describe('after switching the preference to HIFO', () => {
      it('BTC: the dearest lot was consumed by the sale and the conversion; the first lot is open', async () => {
        const put = await putMethod('hifo');
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        expect(put.body).toEqual({ lot_method: 'hifo' });
        const body = await summary();
        expect(body.method).toBe('hifo');
        const transferCost = worth(units('0.02'), run.btcPrice);
        expect(costs(holding(body, 'BTC'))).toEqual(expected(units('0.12'), usd('5005') + transferCost, usd('50000')));
        // The lots route follows the stored method when none is asked.
        const lots = (await server().request('GET', '/v1/portfolio/lots?asset=BTC', { token: run.alice.token }))
          .body as PortfolioLots;
        expect(lots.method).toBe('hifo');
        expect(lots.totals.cost).toBe(money(usd('5005') + transferCost));
        const fifo = (
          await server().request('GET', '/v1/portfolio/lots?asset=BTC&method=fifo', { token: run.alice.token })
        ).body as PortfolioLots;
        expect(fifo.method).toBe('fifo');
      });

      it('a new fill after the cache was built is counted (the incremental path)', async () => {
        const seller = await signUpMember(server());
        await fund(server(), seller.id, 'BTC', '1');
        await spot(server(), seller, { side: 'sell', price: '54000.00', quantity: '0.01' }, 'pending');
        await spot(server(), run.alice, { side: 'buy', price: '54000.00', quantity: '0.01' }, 'filled');
        const body = await summary();
        const btc = holding(body, 'BTC');
        expect(btc.amount).toBe('0.13');
        // 0.01 at 54,000 + 0.1 % fee = 540.54.
        const cost = usd('5005') + worth(units('0.02'), run.btcPrice) + usd('540.54');
        expect(costs(btc)).toEqual(expected(units('0.13'), cost, usd('50000')));
        await putMethod('fifo');
      });
    });
  },
  ENVIRONMENT,
);
