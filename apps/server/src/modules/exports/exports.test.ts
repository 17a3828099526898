import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { DepositHistoryResponse } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import type { KeysetCursor, KeysetPage, KeysetRow, TimeWindow } from '../../lib/keyset.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { eventually } from '../payments/test-support.ts';
import { fund, placeOrder, setReferencePrice } from '../trading/test-support.ts';
import { type Member, sendTransfer, settled, signUpMember } from '../wallet/test-support.ts';
import { ADDRESSES, deliverWebhook, installFake, sent, setKycTier, withdraw } from '../withdrawals/test-support.ts';

const ENVIRONMENT = {
  PRICE_FEED_ENABLED: 'false',
  RATE_LIMIT_ENABLED: 'false',
  PAYMENT_PROVIDER: 'sandbox',
  SANDBOX_CONFIRM_DELAY_MS: '100',
};

const TRADES_HEADER =
  'Date,Product,Market,Side,Role,Price,Amount,Total,Fee,Fee Currency,Realised P&L,Order ID,Trade ID';
const TRANSFERS_HEADER = 'Date,From,To,Currency,Amount,Status,ID';
const DEPOSITS_HEADER = 'Date,Currency,Amount,Method/Network,Status,Transaction/Reference,ID';
const WITHDRAWALS_HEADER = 'Date,Currency,Amount,Fee,Network,Address,Status,Transaction hash,ID';

/** A time (epoch ms or ISO) as the exports write it: ISO 8601 UTC to the second. */
const second = (time: number | string) => `${new Date(time).toISOString().slice(0, 19)}Z`;

/** What a provider could send as a transaction hash: a spreadsheet formula. */
const EVIL_HASH = '=HYPERLINK("http://evil.example","x")';

type Fill = { id: string; order_id: string; side: string; role: string; price: string; quantity: string };
type SpotFillView = Fill & { total: string; fee: string; fee_currency: string; timestamp: number };
type FuturesFillView = Fill & { fee: string; realised_pnl: string; market: string; timestamp: number };
type FuturesTransferView = { id: string; direction: string; amount: string; created_at: string };

/** Each step a second apart: the export's order by time is the order of the steps. */
const tick = (server: TestServer) => server.clock.advance(1_000);

async function spotTrade(
  server: TestServer,
  maker: Member,
  taker: Member,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
) {
  const resting = await placeOrder(server, maker.token, {
    trading_pair: 'BTC_USD',
    type: 'limit',
    side: side === 'buy' ? 'sell' : 'buy',
    price,
    quantity,
  });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await placeOrder(server, taker.token, {
    trading_pair: 'BTC_USD',
    type: 'limit',
    side,
    price,
    quantity,
  });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
  tick(server);
}

async function futuresTrade(
  server: TestServer,
  maker: Member,
  taker: Member,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
) {
  const order = (member: Member, body: Record<string, unknown>) =>
    server.request('POST', '/v1/futures/orders', { token: member.token, body: { market: 'BTC_USD_PERP', ...body } });
  const resting = await order(maker, { side: side === 'buy' ? 'sell' : 'buy', type: 'limit', price, quantity });
  expect(resting.status, JSON.stringify(resting.body)).toBe(201);
  const taken = await order(taker, { side, type: 'market', quantity });
  expect(taken.body.status, JSON.stringify(taken.body)).toBe('filled');
  tick(server);
}

async function futuresTransfer(
  server: TestServer,
  member: Member,
  direction: 'to_futures' | 'to_spot',
  amount: string,
) {
  const moved = await server.request('POST', '/v1/futures/transfers', {
    token: member.token,
    body: { direction, amount },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(201);
  tick(server);
}

async function userTransfer(server: TestServer, from: Member, to: Member, amount: string): Promise<string> {
  const answer = await sendTransfer(server, from, { to_username: to.username, currency: 'usd', amount });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await settled(server, from, answer.body.id);
  tick(server);
  return answer.body.id;
}

async function chainDeposit(server: TestServer, member: Member, amount: string) {
  const address = await server.request('GET', '/api/v1/wallet/deposit-address/btc', { token: member.token });
  const sentDeposit = await server.request('POST', '/sandbox/chain/deposits', {
    body: { currency: 'btc', address: address.body.address, amount },
  });
  expect(sentDeposit.status, JSON.stringify(sentDeposit.body)).toBe(201);
  await eventually(
    async () => (await server.request('GET', `/sandbox/chain/deposits/${sentDeposit.body.id}`)).body,
    (deposit: { status: string }) => deposit.status === 'completed',
  );
  tick(server);
}

/**
 * Alice: a BTC deposit on the chain; three spot fills (taker buy, taker sell, maker sell) against Bob
 * and Carol; USD to her futures wallet, a futures round trip against Bob (taker buy, maker sell at
 * a profit), USD back; a transfer to Bob and one from him; a BTC withdrawal whose provider reports
 * a formula as its hash.
 */
async function drive(server: TestServer) {
  server.services.futures.workers.funding.stop();
  setReferencePrice(server, 'BTC_USD', '50000.00');
  const [alice, bob, carol] = [await signUpMember(server), await signUpMember(server), await signUpMember(server)];
  await setKycTier(server, alice, 'verified');
  await fund(server, alice.id, 'USD', '10000');
  await fund(server, bob.id, 'BTC', '1');
  await fund(server, bob.id, 'USD', '20000');
  await fund(server, carol.id, 'USD', '10000');
  await chainDeposit(server, alice, '0.125');
  await spotTrade(server, bob, alice, 'buy', '50000.00', '0.1');
  await spotTrade(server, carol, alice, 'sell', '52000.00', '0.05');
  await spotTrade(server, alice, bob, 'buy', '53000.00', '0.01');
  await futuresTransfer(server, alice, 'to_futures', '1000');
  await futuresTransfer(server, bob, 'to_futures', '10000');
  await futuresTrade(server, bob, alice, 'buy', '50000', '0.01');
  await futuresTrade(server, alice, bob, 'buy', '51000', '0.01');
  await futuresTransfer(server, alice, 'to_spot', '50');
  const toBob = await userTransfer(server, alice, bob, '10');
  const fromBob = await userTransfer(server, bob, alice, '5');
  const fake = installFake(server);
  const withdrawal = await withdraw(server, alice, { currency: 'btc', amount: '0.02', address: ADDRESSES.BTC });
  expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(201);
  await sent(server, alice, withdrawal.body.id);
  await deliverWebhook(server, fake.move(withdrawal.body.id, 'finished', { hash: EVIL_HASH }));
  return { alice, bob, carol, toBob, fromBob, withdrawal: withdrawal.body };
}

const lines = (body: string) => {
  expect(body.endsWith('\r\n')).toBe(true);
  return body.slice(0, -2).split('\r\n');
};

describeEachDatabase(
  'exports: CSV of trades, transfers, deposits and withdrawals',
  (server) => {
    let people: Awaited<ReturnType<typeof drive>>;
    beforeAll(async () => {
      people = await drive(server());
    }, 60_000);

    const csv = async (member: Member, kind: string, query = '') => {
      const response = await server().request<string>('GET', `/v1/exports/${kind}.csv${query}`, {
        token: member.token,
      });
      expect(response.status, String(response.body)).toBe(200);
      return response;
    };
    const spotFills = async (member: Member) =>
      (await server().request('GET', `/v1/accounts/${member.id}/trades?limit=100`, { token: member.token })).body
        .trades as SpotFillView[];
    const futuresFills = async (member: Member) =>
      (await server().request('GET', '/v1/futures/fills?limit=100', { token: member.token })).body
        .fills as FuturesFillView[];
    const futuresTransfers = async (member: Member) =>
      (await server().request('GET', '/v1/futures/transfers?limit=100', { token: member.token })).body
        .transfers as FuturesTransferView[];
    const byTime = <T extends { timestamp: number }>(rows: T[]) => [...rows].sort((a, b) => a.timestamp - b.timestamp);

    it('trades: spot and futures fills, oldest first, exact, as an attachment', async () => {
      const { alice } = people;
      const response = await csv(alice, 'trades');
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const today = server().clock.now.toISOString().slice(0, 10);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="meridian-trades-start-to-${today}.csv"`,
      );
      const [s1, s2, s3] = byTime(await spotFills(alice));
      const [f1, f2] = byTime(await futuresFills(alice));
      expect([s1, s2, s3, f1, f2].every(Boolean)).toBe(true);
      expect(lines(response.body)).toEqual([
        TRADES_HEADER,
        `${second(s1!.timestamp)},spot,BTC/USD,buy,taker,50000,0.1,5000,5,USD,,${s1!.order_id},${s1!.id}`,
        `${second(s2!.timestamp)},spot,BTC/USD,sell,taker,52000,0.05,2600,2.6,USD,,${s2!.order_id},${s2!.id}`,
        `${second(s3!.timestamp)},spot,BTC/USD,sell,maker,53000,0.01,530,0.53,USD,,${s3!.order_id},${s3!.id}`,
        // Taker 0.04 % of 500; maker 0.02 % of 510, and 0.01 x (51,000 - 50,000) realised.
        `${second(f1!.timestamp)},futures,BTC_USD_PERP,buy,taker,50000,0.01,500,0.2,USD,0,${f1!.order_id},${f1!.id}`,
        `${second(f2!.timestamp)},futures,BTC_USD_PERP,sell,maker,51000,0.01,510,0.102,USD,10,${f2!.order_id},${f2!.id}`,
      ]);
    });

    it("another account's rows never appear; a loss stays a bare negative number", async () => {
      const { bob, carol } = people;
      const bobLines = lines((await csv(bob, 'trades')).body);
      const [b1, b2] = byTime(await futuresFills(bob));
      expect(bobLines).toHaveLength(1 + 2 + 2);
      expect(bobLines.slice(3)).toEqual([
        `${second(b1!.timestamp)},futures,BTC_USD_PERP,sell,maker,50000,0.01,500,0.1,USD,0,${b1!.order_id},${b1!.id}`,
        `${second(b2!.timestamp)},futures,BTC_USD_PERP,buy,taker,51000,0.01,510,0.204,USD,-10,${b2!.order_id},${b2!.id}`,
      ]);
      const [c1] = await spotFills(carol);
      expect(lines((await csv(carol, 'trades')).body)).toEqual([
        TRADES_HEADER,
        `${second(c1!.timestamp)},spot,BTC/USD,buy,maker,52000,0.05,2600,2.6,USD,,${c1!.order_id},${c1!.id}`,
      ]);
      for (const kind of ['transfers', 'deposits', 'withdrawals']) {
        expect(lines((await csv(carol, kind)).body), kind).toHaveLength(1);
      }
    });

    it('transfers: between the own wallets and with other users', async () => {
      const { alice, bob, toBob, fromBob } = people;
      const [in1, out1] = await futuresTransfers(alice).then((rows) =>
        [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at)),
      );
      const sentTransfer = (
        await server().request('GET', `/api/v1/wallet/transfer/${toBob}/status`, { token: alice.token })
      ).body.result;
      const received = (
        await server().request('GET', `/api/v1/wallet/transfer/${fromBob}/status`, { token: alice.token })
      ).body.result;
      expect(lines((await csv(alice, 'transfers')).body)).toEqual([
        TRANSFERS_HEADER,
        `${second(in1!.created_at)},Spot wallet,Futures wallet,USD,1000,completed,${in1!.id}`,
        `${second(out1!.created_at)},Futures wallet,Spot wallet,USD,50,completed,${out1!.id}`,
        `${second(sentTransfer.created_at)},Spot wallet,User ${bob.username},USD,10,completed,${toBob}`,
        `${second(received.created_at)},User ${bob.username},Spot wallet,USD,5,completed,${fromBob}`,
      ]);
    });

    it('deposits and withdrawals; a formula from the provider is neutralised', async () => {
      const { alice, withdrawal } = people;
      const history = (
        await server().request<DepositHistoryResponse>('GET', '/api/v1/wallet/deposits', { token: alice.token })
      ).body.deposits;
      expect(history).toHaveLength(1);
      const deposit = history[0]!;
      expect(lines((await csv(alice, 'deposits')).body)).toEqual([
        DEPOSITS_HEADER,
        `${second(deposit.created_at)},BTC,0.125,BTC,completed,${deposit.txid},${deposit.id}`,
      ]);
      expect(lines((await csv(alice, 'withdrawals')).body)).toEqual([
        WITHDRAWALS_HEADER,
        `${second(withdrawal.created_at)},BTC,0.02,0.0001,,${ADDRESSES.BTC},completed,"'=HYPERLINK(""http://evil.example"",""x"")",${withdrawal.id}`,
      ]);
    });

    it('a period of whole UTC days: included at both ends, named in the file', async () => {
      const { alice } = people;
      const now = server().clock.now;
      const day = (offsetDays: number) => new Date(now.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
      const today = await csv(alice, 'trades', `?from=${day(0)}&to=${day(0)}`);
      expect(lines(today.body)).toHaveLength(6);
      expect(today.headers.get('content-disposition')).toBe(
        `attachment; filename="meridian-trades-${day(0)}-to-${day(0)}.csv"`,
      );
      expect(lines((await csv(alice, 'trades', `?from=${day(1)}`)).body)).toEqual([TRADES_HEADER]);
      expect(lines((await csv(alice, 'trades', `?to=${day(-1)}`)).body)).toEqual([TRADES_HEADER]);
      expect(lines((await csv(alice, 'withdrawals', '?from=1970-01-01&to=9999-12-31')).body)).toHaveLength(2);
    });

    it('each owning module pages its history by keyset: pages of 1 and 2 rows read what one page does', async () => {
      const { alice, bob } = people;
      const services = server().services;
      const sources: [string, KeysetPage<KeysetRow>][] = [
        ['spot fills', services.trading.spotFillsPage],
        ['futures fills', services.futures.history.fillsPage],
        ['futures transfers', services.futures.history.transfersPage],
        ['user transfers', services.wallet.userTransfersPage],
        ['deposits', services.payments.depositsPage],
        ['withdrawals', services.withdrawals.withdrawalsPage],
      ];
      const everything: TimeWindow = { from: null, until: null };
      for (const [name, page] of sources) {
        for (const member of [alice, bob]) {
          const whole = await page(member.id, everything, null, 1_000);
          for (const size of [1, 2]) {
            const read: KeysetRow[] = [];
            let after: KeysetCursor | null = null;
            for (;;) {
              const rows = await page(member.id, everything, after, size);
              read.push(...rows);
              if (rows.length < size) break;
              after = rows.at(-1)!.cursor;
            }
            expect(read, `${name}, pages of ${size}`).toEqual(whole);
          }
        }
        await expect(page(alice.id, everything, null, 0)).rejects.toThrow(RangeError);
        await expect(page(alice.id, everything, null, 10_001)).rejects.toThrow(RangeError);
      }
      expect((await services.trading.spotFillsPage(alice.id, everything, null, 1_000)).length).toBe(3);
    });

    it('is documented at /docs as text/csv with its period parameters', async () => {
      const document = (await server().request('GET', '/docs/json')).body;
      for (const kind of ['trades', 'transfers', 'deposits', 'withdrawals']) {
        const operation = document.paths[`/v1/exports/${kind}.csv`].get;
        expect(Object.keys(operation.responses['200'].content)).toEqual(['text/csv']);
        expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
          'from',
          'to',
        ]);
      }
    });

    it('401 without a valid token', async () => {
      for (const kind of ['trades', 'transfers', 'deposits', 'withdrawals']) {
        expect((await server().request('GET', `/v1/exports/${kind}.csv`)).status).toBe(401);
        expect((await server().request('GET', `/v1/exports/${kind}.csv`, { token: 'not-a-token' })).status).toBe(401);
      }
    });

    it('400 VALIDATION_ERROR on a bad period', async () => {
      const bad = [
        'from=2026-13-01',
        'from=2026-02-30',
        'to=2025-02-29',
        'from=20260101',
        'from=2026-1-1',
        'to=yesterday',
        'from=2026-01-01T00:00:00Z',
        'from=2026-03-02&to=2026-03-01',
        'from=2026-01-01%00',
        'to=%002026-01-01',
        'from=0000-01-01',
        'from=1969-12-31',
        'to=10000-01-01',
        'to=99999-01-01',
        'from=-2026-01-01',
        'from=',
        'from=2026-01-01&from=2026-01-02',
      ];
      for (const query of bad) {
        const response = await server().request('GET', `/v1/exports/trades.csv?${query}`, {
          token: people.alice.token,
        });
        expect(response.status, query).toBe(400);
        expect(response.body.error.code, query).toBe('VALIDATION_ERROR');
      }
    });

    it('streams a large history completely: 5,000 fills, 2,500 in one microsecond across page boundaries', async () => {
      const [dave, erin] = [await signUpMember(server()), await signUpMember(server())];
      const [daveOrder, erinOrder] = [randomUUID(), randomUUID()];
      const now = server().clock.now.toISOString();
      for (const [id, account, side] of [
        [daveOrder, dave.id, 'buy'],
        [erinOrder, erin.id, 'sell'],
      ] as const) {
        await server().db.query(
          `INSERT INTO orders (id, account_id, pair_id, side, type, time_in_force, price, quantity, filled_quantity,
             status, reserve_currency, reserved, created_at, updated_at)
           VALUES ($1, $2, 'BTC_USD', $3, 'limit', 'GTC', 50000, 5000, 5000, 'filled', 'USD', 0, $4, $4)`,
          [id, account, side, now],
        );
      }
      // Fills 1..2,500 at one instant (ties broken by the key across pages), 2,501..5,000 a millisecond apart.
      await server().db.query(
        `INSERT INTO trades (id, pair_id, sequence, price, quantity, total, taker_side, maker_order_id, taker_order_id,
           maker_account_id, taker_account_id, maker_fee, taker_fee, fee_currency, executed_at)
         SELECT 'bulk-' || lpad(n::text, 5, '0'), 'BTC_USD', 1000000 + n, 50000, 0.001, 50, 'buy', $1, $2, $3, $4,
           0.05, 0.05, 'USD', $5::timestamptz + CASE WHEN n <= 2500 THEN interval '0' ELSE (n - 2500) * interval '1 millisecond' END
         FROM generate_series(1, 5000) AS n`,
        [erinOrder, daveOrder, erin.id, dave.id, now],
      );
      const response = await csv(dave, 'trades');
      expect(response.headers.get('content-length')).toBeNull();
      const rows = lines(response.body);
      expect(rows).toHaveLength(5001);
      expect(rows[0]).toBe(TRADES_HEADER);
      const ids = rows.slice(1).map((line) => line.split(',').at(-1));
      expect(ids).toEqual(Array.from({ length: 5000 }, (_, index) => `bulk-${String(index + 1).padStart(5, '0')}`));
      expect(rows[1]).toBe(`${second(now)},spot,BTC/USD,buy,taker,50000,0.001,50,0.05,USD,,${daveOrder},bulk-00001`);
      // Erin, the maker of every one of them, sees each once, as the seller.
      const erinRows = lines((await csv(erin, 'trades')).body);
      expect(erinRows).toHaveLength(5001);
      expect(erinRows.slice(1).every((line) => line.includes(',spot,BTC/USD,sell,maker,'))).toBe(true);
      // 20 at once (each holds a database connection only while it reads a page): all complete and alike.
      const bodies = await Promise.all(Array.from({ length: 20 }, async () => (await csv(dave, 'trades')).body));
      expect(bodies.every((body) => body === response.body)).toBe(true);
      // A client that goes away after the first chunk: the server drops that stream, the next export is whole.
      const stopped = await new Promise<number>((resolve, reject) => {
        const request = http.get(`${server().url}/v1/exports/trades.csv`, {
          headers: { authorization: `Bearer ${dave.token}` },
        });
        request.on('response', (answer) => {
          answer.once('data', (chunk: Buffer) => {
            request.destroy();
            resolve(chunk.length);
          });
        });
        request.on('error', reject);
      });
      expect(stopped).toBeGreaterThan(0);
      expect(lines((await csv(dave, 'trades')).body)).toHaveLength(5001);
    }, 60_000);
  },
  ENVIRONMENT,
);
