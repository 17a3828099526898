import { type Amount, abs, add, decimal, eq, formatDecimal, mul, sub, toScale } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, registerByApi } from '../support/api.ts';
import { baseUrl } from '../support/browser.ts';
import {
  ASSET_SCALE,
  averageCost,
  exactUnits,
  fifo,
  type LotEvent,
  USD_SCALE,
  units,
  usd,
  valueAt,
} from '../support/lot-check.ts';

/**
 * Issue 17 "How we will check": an account is driven through a deposit, spot trades, conversions,
 * spot <-> futures transfers and a futures round trip by this script, which keeps its own books
 * from what each call answered (fills, conversions, transfers, futures income) and compares every
 * figure the platform reports with them. It shares no code with the server.
 */

type Session = { token: string; account_id: string };
type Fill = {
  id: string;
  side: 'buy' | 'sell';
  price: string;
  quantity: string;
  total: string;
  fee: string;
  fee_currency: string;
  timestamp: number;
};
type Conversion = {
  from_currency: string;
  to_currency: string;
  from_amount: string;
  to_amount: string;
  quote_id: string;
};
type Holding = { asset: string; amount: string; price: string | null; value: string | null };
type Summary = {
  total_value: string;
  holdings: Holding[];
  futures: { wallet_balance: string; equity: string; positions: unknown[] };
};

const PAIR = 'BTC_USD';
const PERP = 'BTC_USD_PERP';
const DEPOSIT = '3000';
const usdUnits = (text: string) => exactUnits(text, USD_SCALE);
const assetUnits = (text: string) => exactUnits(text, ASSET_SCALE);
const same = (a: string | null | undefined, b: string) => a !== null && a !== undefined && eq(decimal(a), decimal(b));

async function fills(session: Session): Promise<Fill[]> {
  const answer = await call<{ trades: Fill[] }>(
    'GET',
    `/v1/accounts/${session.account_id}/trades?trading_pair=${PAIR}&limit=500`,
    undefined,
    session.token,
  );
  // Newest first (time, then id): oldest first is the ledger's order of the fills.
  return [...answer.trades].reverse();
}

async function marketOrder(session: Session, body: Record<string, string>) {
  const order = await call<{ status: string }>(
    'POST',
    '/v1/orders',
    { trading_pair: PAIR, type: 'market', ...body },
    session.token,
  );
  expect(['completed', 'filled']).toContain(order.status);
}

async function convert(session: Session, from: string, to: string, amount: string): Promise<Conversion> {
  const query = new URLSearchParams({ from_currency: from, to_currency: to, from_amount: amount });
  const quote = await call<{ quote_id: string }>(
    'GET',
    `/api/v1/conversions/estimate?${query}`,
    undefined,
    session.token,
  );
  return call<Conversion>(
    'POST',
    '/api/v1/conversions',
    { from_currency: from, to_currency: to, from_amount: amount, quote_id: quote.quote_id },
    session.token,
  );
}

async function futuresRoundTrip(session: Session) {
  await call('POST', '/v1/futures/transfers', { direction: 'to_futures', amount: '300' }, session.token);
  await call(
    'POST',
    '/v1/futures/orders',
    { market: PERP, side: 'buy', type: 'market', quantity: '0.01' },
    session.token,
  );
  await call(
    'POST',
    '/v1/futures/orders',
    { market: PERP, side: 'sell', type: 'market', quantity: '0.01', reduce_only: true },
    session.token,
  );
  await call('POST', '/v1/futures/transfers', { direction: 'to_spot', amount: '100' }, session.token);
  const { income } = await call<{ income: { type: string; amount: string }[] }>(
    'GET',
    '/v1/futures/income?limit=500',
    undefined,
    session.token,
  );
  return income.reduce((sum, entry) => add(sum, decimal(entry.amount)), decimal('0'));
}

/** Drives the account; returns what the script itself recorded. */
async function drive(session: Session) {
  await fundByCheckout(session, 'usd', DEPOSIT);
  await marketOrder(session, { side: 'buy', quote_amount: '600' });
  await marketOrder(session, { side: 'buy', quote_amount: '400' });
  const bought = await fills(session);
  const first = bought[0];
  if (!first) throw new Error('no fill');
  // Half the first fill, at 5 decimals (the pair's step), so the sale's lots do not depend on ties.
  const sellQuantity = formatDecimal({ units: units(first.quantity, 5) / 2n, scale: 5 });
  await marketOrder(session, { side: 'sell', quantity: sellQuantity });
  const toUsd = await convert(session, 'BTC', 'USD', '0.001');
  const toEth = await convert(session, 'USD', 'ETH', '100');
  const futuresWallet = await futuresRoundTrip(session);
  return { fills: await fills(session), toUsd, toEth, futuresWallet };
}

type Recorded = Awaited<ReturnType<typeof drive>>;

/** USD in the lots' unit (10^-8), rounded down: the ledger keeps a fill's USD at more decimals. */
const lotUsd = (value: Amount) => toScale(abs(value), USD_SCALE, 'down').units;

/** The script's own ledger: balances (exact) and BTC lot events, from the fills and conversions it saw. */
function ownBooks(recorded: Recorded) {
  let usdBalance = decimal(DEPOSIT);
  let btc = 0n;
  const events: LotEvent[] = [];
  for (const fill of recorded.fills) {
    expect(fill.fee_currency).toBe('USD');
    const amount = assetUnits(fill.quantity);
    const paid = add(decimal(fill.total), decimal(fill.fee));
    const received = sub(decimal(fill.total), decimal(fill.fee));
    if (fill.side === 'buy') {
      usdBalance = sub(usdBalance, paid);
      btc += amount;
      events.push({ kind: 'acquisition', id: fill.id, amount, costUsd: lotUsd(paid) });
    } else {
      usdBalance = add(usdBalance, received);
      btc -= amount;
      events.push({ kind: 'disposal', id: fill.id, amount, proceedsUsd: lotUsd(received) });
    }
  }
  const converted = assetUnits(recorded.toUsd.from_amount);
  btc -= converted;
  usdBalance = add(usdBalance, decimal(recorded.toUsd.to_amount));
  events.push({
    kind: 'disposal',
    id: 'conversion',
    amount: converted,
    proceedsUsd: lotUsd(decimal(recorded.toUsd.to_amount)),
  });
  usdBalance = sub(sub(usdBalance, decimal(recorded.toEth.from_amount)), decimal('200'));
  return { usdBalance, btc, eth: recorded.toEth.to_amount, lots: fifo(events), futuresWallet: recorded.futuresWallet };
}

describe('portfolio: an independent script checks every figure against its own books', () => {
  it('balances, values, lots, average cost, realised gains and the tax report', async () => {
    const { session } = await registerByApi();
    const recorded = await drive(session);
    const books = ownBooks(recorded);
    const summary = await call<Summary>('GET', '/v1/portfolio', undefined, session.token);
    const holding = (asset: string) => summary.holdings.find((entry) => entry.asset === asset);

    // Balances, and every value = amount x price, the total = their sum + the futures equity.
    expect(same(holding('USD')?.amount, formatDecimal(books.usdBalance))).toBe(true);
    expect(same(holding('BTC')?.amount, formatDecimal({ units: books.btc, scale: ASSET_SCALE }))).toBe(true);
    expect(same(holding('ETH')?.amount, books.eth)).toBe(true);
    expect(summary.futures.positions).toEqual([]);
    expect(same(summary.futures.wallet_balance, formatDecimal(books.futuresWallet))).toBe(true);
    let total = decimal(summary.futures.equity);
    for (const entry of summary.holdings) {
      expect(eq(decimal(entry.value ?? '0'), mul(decimal(entry.amount), decimal(entry.price ?? '0')))).toBe(true);
      total = add(total, decimal(entry.value ?? '0'));
    }
    expect(eq(decimal(summary.total_value), total)).toBe(true);

    // Lots of BTC under FIFO: open amounts and costs, the average cost, realised of all time.
    const lots = await call<{
      price: string | null;
      lots: { amount: string; cost: string }[];
      totals: Record<string, string | null>;
    }>('GET', '/v1/portfolio/lots?asset=BTC&method=fifo', undefined, session.token);
    expect(lots.lots.map((lot) => [assetUnits(lot.amount), usdUnits(lot.cost)])).toEqual(
      books.lots.lots.map((lot) => [lot.amount, lot.cost]),
    );
    expect(same(lots.totals.average_cost, usd(averageCost(books.lots.cost, books.lots.amount)))).toBe(true);
    // Unrealised at the price the answer used (the live price moves between two reads).
    const price = usdUnits(lots.price ?? '0');
    const value = valueAt(books.lots.amount, price);
    expect(same(lots.totals.value, usd(value))).toBe(true);
    expect(same(lots.totals.unrealised_pnl, usd(value - books.lots.cost))).toBe(true);
    const realised = books.lots.rows.reduce((sum, row) => sum + row.gain, 0n);
    expect(same(lots.totals.realised_pnl, usd(realised))).toBe(true);

    // The tax year's realised rows and its CSV.
    const year = new Date().getUTCFullYear();
    const report = await call<{ rows: { gain: string; amount: string }[]; totals: { gain: string; rows: number } }>(
      'GET',
      `/v1/portfolio/realised?year=${year}&method=fifo`,
      undefined,
      session.token,
    );
    expect(report.totals.rows).toBe(books.lots.rows.length);
    expect(same(report.totals.gain, usd(realised))).toBe(true);
    const csv = await (
      await fetch(`${baseUrl()}/v1/portfolio/tax-report.csv?year=${year}&method=fifo`, {
        headers: { authorization: `Bearer ${session.token}` },
      })
    ).text();
    const lines = csv.trim().split('\r\n');
    expect(lines.length).toBe(books.lots.rows.length + 1);
    const gains = lines.slice(1).map((line) => usdUnits(line.split(',').at(-1) ?? ''));
    expect(gains.reduce((sum, gain) => sum + gain, 0n)).toBe(realised);
  });
});
