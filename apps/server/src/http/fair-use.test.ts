import net from 'node:net';
import { errorCatalogue } from '@platform/contracts';
import { SignJWT } from 'jose';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SignedUp, signUp } from '../modules/auth/test-support.ts';
import { fund, setReferencePrice } from '../modules/trading/test-support.ts';
import { describeEachDatabase, type TestServer } from '../test/harness.ts';
import { ROUTE_COSTS } from './fair-use-weights.ts';

type Injected = { statusCode: number; headers: Record<string, unknown>; json(): any };

const BUDGETS = {
  FAIR_USE_PUBLIC_WEIGHT_PER_MINUTE: '30',
  FAIR_USE_ACCOUNT_WEIGHT_PER_MINUTE: '40',
  FAIR_USE_ORDERS_PER_10S: '5',
  PRICE_FEED_ENABLED: 'false',
};

describeEachDatabase(
  'fair use: weights, budgets and the 429 path through HTTP',
  (server) => {
    let alice: SignedUp;
    let bob: SignedUp;

    /** A call from a given client address (inject's remoteAddress), with an optional bearer token. */
    const call = (method: 'GET' | 'POST', url: string, address: string, token?: string, body?: unknown) =>
      server().app.inject({
        method,
        url,
        remoteAddress: address,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      }) as Promise<Injected>;
    const order = (user: SignedUp, address: string, price = '40000.00') =>
      call('POST', '/v1/orders', address, user.session.token, {
        trading_pair: 'BTC_USD',
        side: 'buy',
        type: 'limit',
        price,
        quantity: '0.001',
      });
    const openOrders = async (user: SignedUp) => {
      const listed = await call(
        'GET',
        `/v1/accounts/${user.session.account_id}/orders?status=open`,
        '10.1.1.1',
        user.session.token,
      );
      return (listed.json() as { orders: unknown[] }).orders.length;
    };

    beforeAll(async () => {
      alice = await signUp(server());
      bob = await signUp(server());
      await fund(server(), alice.session.account_id, 'USD', '10000');
      await fund(server(), bob.session.account_id, 'USD', '10000');
    });

    // Windows are fixed minutes of the server clock: each test starts at the top of a fresh one,
    // so no window ends in the middle of a test.
    beforeEach(() => {
      setReferencePrice(server(), 'BTC_USD', '40000.00');
      startOfNextMinute(server());
    });

    it('every route in the weight table exists (a renamed route would silently weigh 1)', () => {
      for (const key of Object.keys(ROUTE_COSTS)) {
        const [method, url] = key.split(' ') as [string, string];
        expect(server().app.hasRoute({ method: method as 'GET', url }), key).toBe(true);
      }
    });

    it('adds up the weights of the calls in the X-Used-Weight-1m header', async () => {
      const deepBook = await call('GET', '/v1/orderbook/BTC_USD/depth?depth=200', '10.0.0.1');
      expect(deepBook.headers['x-used-weight-1m']).toBe('25');
      const ping = await call('GET', '/v1/ping', '10.0.0.1');
      expect(ping.headers['x-used-weight-1m']).toBe('26');
      const candles = await call('GET', '/v1/market/BTC_USD/candles?interval=1h', '10.0.0.1');
      expect(candles.headers['x-used-weight-1m']).toBe('28');
      const pairs = await call('GET', '/v1/trading-pairs', '10.0.0.1');
      expect(pairs.statusCode).toBe(429);
      expect(pairs.headers['x-used-weight-1m']).toBe('28');
    });

    it('refuses a call over the budget with 429, Retry-After and the error envelope, until the window ends', async () => {
      for (let index = 1; index <= 3; index += 1) {
        expect((await call('GET', '/v1/trading-pairs', '10.0.0.2')).statusCode).toBe(200);
      }
      const refused = await call('GET', '/v1/trading-pairs', '10.0.0.2');
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers['x-used-weight-1m']).toBe('30');
      expect(refused.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: errorCatalogue.RATE_LIMITED.message,
          details: { budget: 'public', retry_after_seconds: retryAfter },
        },
      });
      // A lighter call still fits nothing: the budget is spent.
      expect((await call('GET', '/v1/ping', '10.0.0.2')).statusCode).toBe(429);
      // Another address is a client of its own.
      expect((await call('GET', '/v1/trading-pairs', '10.0.0.3')).statusCode).toBe(200);
      // The next window starts from zero.
      server().clock.advance(retryAfter * 1000);
      const next = await call('GET', '/v1/trading-pairs', '10.0.0.2');
      expect(next.statusCode).toBe(200);
      expect(next.headers['x-used-weight-1m']).toBe('10');
    });

    it('meters a signed-in client by its account, apart from its address', async () => {
      await spendPublicBudget('10.0.0.4');
      const signedIn = await call('GET', '/v1/trading-pairs', '10.0.0.4', alice.session.token);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.headers['x-used-weight-1m']).toBe('10');
      // The account's budget follows it to another address.
      const elsewhere = await call('GET', '/v1/trading-pairs', '10.0.0.5', alice.session.token);
      expect(elsewhere.headers['x-used-weight-1m']).toBe('20');
    });

    it('a forged token spends its address’s budget, never the account it names', async () => {
      const forged = await new SignJWT({ role: 'user', sv: 0 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(bob.session.account_id)
        .setIssuer('meridian')
        .setAudience('meridian-api')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('not-the-server-secret-not-the-server-secret'));
      await spendPublicBudget('10.0.0.6', forged);
      const refused = await call('GET', '/v1/ping', '10.0.0.6', forged);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.details.budget).toBe('public');
      const bobsOwn = await call('GET', '/v1/ping', '10.0.0.7', bob.session.token);
      expect(bobsOwn.statusCode).toBe(200);
      expect(bobsOwn.headers['x-used-weight-1m']).toBe('1');
    });

    it('orders have their own budget: spent reads refuse no order, and a refused order is not placed', async () => {
      const before = await openOrders(alice);
      startOfNextMinute(server());
      await spendPublicBudget('10.0.0.8');
      await spendAccountBudget(alice, '10.0.0.8');
      for (let index = 1; index <= 5; index += 1) {
        const placed = await order(alice, '10.0.0.8');
        expect(placed.statusCode, JSON.stringify(placed.json())).toBe(201);
        expect(placed.headers['x-order-count-10s']).toBe(String(index));
        expect(placed.headers['x-order-count-1m']).toBe(String(index));
      }
      const refused = await order(alice, '10.0.0.8');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { budget: 'orders' } });
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10);
      startOfNextMinute(server());
      expect(await openOrders(alice)).toBe(before + 5);
    });

    it('a flood of public reads from one client refuses no order of another account', async () => {
      const flood = Array.from({ length: 300 }, () => call('GET', '/v1/trading-pairs', '10.0.0.9'));
      const orders = Array.from({ length: 5 }, () => order(bob, '10.0.0.10', '39000.00'));
      const [floodAnswers, orderAnswers] = await Promise.all([Promise.all(flood), Promise.all(orders)]);
      expect(orderAnswers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
      expect(floodAnswers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
      expect(floodAnswers.filter((answer) => answer.statusCode === 429)).toHaveLength(297);
      expect(await openOrders(bob)).toBe(5);
    });

    it('after a refusal the client’s connection is not read for a moment, then is again', async () => {
      const serverSockets: net.Socket[] = [];
      const onConnection = (socket: net.Socket) => serverSockets.push(socket);
      server().app.server.on('connection', onConnection);
      const client = await connect(server());
      try {
        let status = 0;
        while (status !== 429) status = await requestOn(client, '/v1/trading-pairs');
        await nextTurns(5);
        const serverSide = serverSockets.at(-1);
        expect(serverSide?.isPaused()).toBe(true);
        await until(() => serverSide?.isPaused() === false);
        // Read again: the next request is answered (still refused: the window has not ended).
        expect(await requestOn(client, '/v1/ping')).toBe(429);
      } finally {
        client.destroy();
        server().app.server.off('connection', onConnection);
      }
    });

    async function spendPublicBudget(address: string, token?: string): Promise<void> {
      for (let index = 0; index < 3; index += 1) await call('GET', '/v1/trading-pairs', address, token);
      expect((await call('GET', '/v1/trading-pairs', address, token)).statusCode).toBe(429);
    }

    async function spendAccountBudget(user: SignedUp, address: string): Promise<void> {
      for (let index = 0; index < 4; index += 1) await call('GET', '/v1/trading-pairs', address, user.session.token);
      const refused = await call('GET', '/v1/trading-pairs', address, user.session.token);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.details.budget).toBe('account');
    }
  },
  BUDGETS,
);

describe('fair use off', () => {
  it('is off with RATE_LIMIT_ENABLED=false: no header, no refusal', async () => {
    const { startTestServer } = await import('../test/harness.ts');
    const server = await startTestServer('pglite', { ...BUDGETS, RATE_LIMIT_ENABLED: 'false' });
    try {
      for (let index = 0; index < 5; index += 1) {
        const answer = await server.request('GET', '/v1/trading-pairs');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-used-weight-1m')).toBeNull();
      }
    } finally {
      await server.close();
    }
  });
});

function startOfNextMinute(server: TestServer): void {
  server.clock.advance(60_000 - (server.clock.now.getTime() % 60_000));
}

function connect(server: TestServer): Promise<net.Socket> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One keep-alive request on a raw socket; resolves with the status of its answer. */
function requestOn(socket: net.Socket, path: string): Promise<number> {
  return new Promise((resolve) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? 0);
      if (received.length < headerEnd + 4 + length) return;
      socket.off('data', onData);
      resolve(Number(received.slice(9, 12)));
    };
    socket.on('data', onData);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

async function nextTurns(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
