import { type Amount, abs, add, decimal, eq, formatDecimal, mul, sub, toScale } from '@platform/money';
import { describe, expect, it } from 'vitest';
import { call, fundByCheckout, registerByApi } from '../support/api.ts';
import { baseUrl, useBrowser } from '../support/browser.ts';
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
type Holding = {
  asset: string;
  amount: string;
  price: string | null;
  value: string | null;
  average_cost: string | null;
  unrealised_pnl: string | null;
};
type FuturesFill = { id: string; price: string; quantity: string; fee: string; realised_pnl: string };
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
  const { fills } = await call<{ fills: FuturesFill[] }>(
    'GET',
    '/v1/futures/fills?limit=500',
    undefined,
    session.token,
  );
  const sum = (rows: { amount: string }[]) =>
    rows.reduce((total, row) => add(total, decimal(row.amount)), decimal('0'));
  return { wallet: sum(income), funding: sum(income.filter((entry) => entry.type === 'funding')), fills };
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
  const futures = await futuresRoundTrip(session);
  return { fills: await fills(session), toUsd, toEth, futures };
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
  return { usdBalance, btc, eth: recorded.toEth.to_amount, lots: fifo(events), futuresWallet: recorded.futures.wallet };
}

type Driven = { identity: Identity; session: Session; recorded: Recorded; books: ReturnType<typeof ownBooks> };
type Identity = Awaited<ReturnType<typeof registerByApi>>['identity'];

const get = <T>(driven: Driven, path: string) => call<T>('GET', path, undefined, driven.session.token);
async function csvLines(driven: Driven, path: string): Promise<string[][]> {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { authorization: `Bearer ${driven.session.token}` } });
  expect(response.status).toBe(200);
  // No field of these files holds a comma or a quote (ids, decimals, codes, words).
  return (await response.text())
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
}
const total = (values: readonly Amount[]) => values.reduce((sum, value) => add(sum, value), decimal('0'));

/** The spot realised gain of the script's own books, in USD. */
const realisedOf = (books: Driven['books']) => books.lots.rows.reduce((sum, row) => sum + row.gain, 0n);

describe('portfolio: an independent script checks every figure against its own books', () => {
  const browser = useBrowser();
  let driven: Driven;

  // The tests below read this one account, in order (a file's tests run one after another).
  it('drives an account through deposit, trades, conversions, transfers and a futures round trip', async () => {
    const { identity, session } = await registerByApi();
    const recorded = await drive(session);
    driven = { identity, session, recorded, books: ownBooks(recorded) };
    expect(recorded.fills.length).toBeGreaterThanOrEqual(3);
    expect(recorded.futures.fills.length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('summary: balances, each value, the total, average cost and unrealised P&L per holding', async () => {
    const { books } = driven;
    const summary = await get<Summary>(driven, '/v1/portfolio?method=fifo');
    const holding = (asset: string) => summary.holdings.find((entry) => entry.asset === asset);
    expect(same(holding('USD')?.amount, formatDecimal(books.usdBalance))).toBe(true);
    expect(same(holding('BTC')?.amount, formatDecimal({ units: books.btc, scale: ASSET_SCALE }))).toBe(true);
    expect(same(holding('ETH')?.amount, books.eth)).toBe(true);
    expect(summary.futures.positions).toEqual([]);
    expect(same(summary.futures.wallet_balance, formatDecimal(books.futuresWallet))).toBe(true);
    let sum = decimal(summary.futures.equity);
    for (const entry of summary.holdings) {
      expect(eq(decimal(entry.value ?? '0'), mul(decimal(entry.amount), decimal(entry.price ?? '0')))).toBe(true);
      sum = add(sum, decimal(entry.value ?? '0'));
    }
    expect(eq(decimal(summary.total_value), sum)).toBe(true);
    // Cost basis of BTC (FIFO, the default method) at the summary's own price.
    const btc = holding('BTC');
    expect(same(btc?.average_cost, usd(averageCost(books.lots.cost, books.lots.amount)))).toBe(true);
    const value = valueAt(
      books.lots.amount,
      usdUnits(formatDecimal(toScale(decimal(btc?.price ?? '0'), USD_SCALE, 'down'))),
    );
    expect(same(btc?.unrealised_pnl, usd(value - books.lots.cost))).toBe(true);
    expect(holding('USD')?.average_cost).toBeNull();
  });

  it('lots, realised gains of the tax year and its CSV', async () => {
    const { books } = driven;
    const lots = await get<{
      price: string | null;
      lots: { amount: string; cost: string }[];
      totals: Record<string, string | null>;
    }>(driven, '/v1/portfolio/lots?asset=BTC&method=fifo');
    expect(lots.lots.map((lot) => [assetUnits(lot.amount), usdUnits(lot.cost)])).toEqual(
      books.lots.lots.map((lot) => [lot.amount, lot.cost]),
    );
    expect(same(lots.totals.average_cost, usd(averageCost(books.lots.cost, books.lots.amount)))).toBe(true);
    // Unrealised at the price the answer used (the live price moves between two reads).
    const value = valueAt(books.lots.amount, usdUnits(lots.price ?? '0'));
    expect(same(lots.totals.value, usd(value))).toBe(true);
    expect(same(lots.totals.unrealised_pnl, usd(value - books.lots.cost))).toBe(true);
    const realised = realisedOf(books);
    expect(same(lots.totals.realised_pnl, usd(realised))).toBe(true);

    const year = new Date().getUTCFullYear();
    const report = await get<{ totals: { gain: string; rows: number } }>(
      driven,
      `/v1/portfolio/realised?year=${year}&method=fifo`,
    );
    expect(report.totals.rows).toBe(books.lots.rows.length);
    expect(same(report.totals.gain, usd(realised))).toBe(true);
    const lines = await csvLines(driven, `/v1/portfolio/tax-report.csv?year=${year}&method=fifo`);
    expect(lines.length).toBe(books.lots.rows.length + 1);
    expect(lines.slice(1).reduce((sum, line) => sum + usdUnits(line.at(-1) ?? ''), 0n)).toBe(realised);
  });

  it('analytics: trades, volume, fees, funding and realised P&L of the period', async () => {
    const { recorded, books } = driven;
    const analytics = await get<Record<string, unknown>>(driven, '/v1/analytics');
    const futuresFills = recorded.futures.fills;
    expect(analytics.trades).toBe(recorded.fills.length + futuresFills.length);
    const spotSales = recorded.fills.filter((fill) => fill.side === 'sell').length + 1; // + the conversion out
    const futuresCloses = futuresFills.filter((fill) => !eq(decimal(fill.realised_pnl), decimal('0'))).length;
    expect(analytics.closed_trades).toBe(spotSales + futuresCloses);
    const volume = total([
      ...recorded.fills.map((fill) => decimal(fill.total)),
      ...futuresFills.map((fill) => mul(decimal(fill.price), decimal(fill.quantity))),
    ]);
    expect(same(analytics.volume as string, formatDecimal(volume))).toBe(true);
    const fees = total([...recorded.fills, ...futuresFills].map((fill) => decimal(fill.fee)));
    expect(same(analytics.fees_paid as string, formatDecimal(fees))).toBe(true);
    // Realised P&L: the spot gains of the lots, futures realised P&L net of every futures fee, funding.
    const futuresNet = sub(
      total(futuresFills.map((fill) => decimal(fill.realised_pnl))),
      total(futuresFills.map((fill) => decimal(fill.fee))),
    );
    const realised = add(add(decimal(usd(realisedOf(books))), futuresNet), recorded.futures.funding);
    expect(same(analytics.realised_pnl as string, formatDecimal(realised))).toBe(true);
  });

  it('exports: every fill, transfer and deposit, and nothing else', async () => {
    const { recorded } = driven;
    const trades = await csvLines(driven, '/v1/exports/trades.csv');
    expect(trades[0]?.[0]).toBe('Date');
    const rows = trades.slice(1);
    const spot = rows.filter((row) => row[1] === 'spot');
    expect(spot.map((row) => row.at(-1)).sort()).toEqual(recorded.fills.map((fill) => fill.id).sort());
    for (const fill of recorded.fills) {
      const row = spot.find((line) => line.at(-1) === fill.id) ?? [];
      expect([row[3], same(row[5], fill.price), same(row[6], fill.quantity), same(row[8], fill.fee)]).toEqual([
        fill.side,
        true,
        true,
        true,
      ]);
    }
    expect(rows.filter((row) => row[1] === 'futures').length).toBe(recorded.futures.fills.length);
    // Conversions are swaps: in the trades file, amount = what was given, total = what was received.
    const conversions = rows.filter((row) => row[1] === 'conversion');
    expect(conversions.map((row) => [row[2], same(row[6], '0.001') || same(row[6], '100')])).toEqual([
      ['BTC/USD', true],
      ['USD/ETH', true],
    ]);
    expect(same(conversions[0]?.[7], recorded.toUsd.to_amount)).toBe(true);
    expect(same(conversions[1]?.[7], recorded.toEth.to_amount)).toBe(true);
    expect(rows.length).toBe(recorded.fills.length + recorded.futures.fills.length + 2);
    const transfers = (await csvLines(driven, '/v1/exports/transfers.csv')).slice(1);
    expect(transfers.map((row) => decimal(row[4] ?? '0'))).toEqual([decimal('300'), decimal('100')]);
    const deposits = (await csvLines(driven, '/v1/exports/deposits.csv')).slice(1);
    expect(deposits.length).toBe(1);
    expect(deposits[0]?.some((field) => /^\d+(\.\d+)?$/.test(field) && same(field, DEPOSIT))).toBe(true);
    expect((await csvLines(driven, '/v1/exports/withdrawals.csv')).length).toBe(1);
  });

  it('the screens show the same figures: /, /portfolio and /analytics', async () => {
    const page = await browser.newContext();
    await page.goto('/');
    await page.getByTestId('login-button').click();
    await page.getByTestId('login-email').fill(driven.identity.email);
    await page.getByTestId('login-password').fill(driven.identity.password);
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('home-portfolio-total').isVisible(), { timeout: 15_000 }).toBe(true);

    await page.getByTestId('sidebar').getByRole('link', { name: 'Portfolio' }).click();
    const average = usd(averageCost(driven.books.lots.cost, driven.books.lots.amount));
    await expect
      .poll(async () => same(await page.getByTestId('portfolio-holding-BTC-avg-cost').getAttribute('title'), average))
      .toBe(true);
    const amount = (await page.getByTestId('portfolio-holding-BTC-amount').getAttribute('title')) ?? '';
    expect(same(amount.replace(' BTC', ''), formatDecimal({ units: driven.books.btc, scale: ASSET_SCALE }))).toBe(true);

    await page.getByTestId('sidebar').getByRole('link', { name: 'Analytics' }).click();
    const fees = total([...driven.recorded.fills, ...driven.recorded.futures.fills].map((fill) => decimal(fill.fee)));
    await expect
      .poll(() => page.getByTestId('analytics-tile-fees').textContent(), { timeout: 15_000 })
      .toBe(dollars(fees));
    expect(await page.getByTestId('analytics-tile-trades').textContent()).toBe(
      String(driven.recorded.fills.length + driven.recorded.futures.fills.length),
    );
  });
});

/** USD as the screens show it: '$1,234.50' (to the cent, half up). */
function dollars(value: Amount): string {
  const text = formatDecimal(toScale(value, 2, 'half_up'));
  const negative = text.startsWith('-');
  const [whole = '', cents = ''] = (negative ? text.slice(1) : text).split('.');
  return `${negative ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
