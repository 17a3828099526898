import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { type FairUseLimits, REFUSED_PAUSE_MS } from './fair-use-limits.ts';
import { type Budget, DEFAULT_WEIGHT, type RawQuery, routeCost } from './fair-use-weights.ts';
import { FixedWindowCounter } from './fair-use-windows.ts';

const MINUTE_MS = 60_000;
const TEN_SECONDS_MS = 10_000;

/** Who a call is metered as: its address always, and its account when a valid token proves one. */
export type Client = { address: string; accountId: string | undefined };

/** One count a call adds to: the counter, the key in it, its limit, and the header that reports it. */
type Charge = { counter: FixedWindowCounter; key: string; limit: number; name: string; header?: string };

export type MeterOutcome =
  | { accepted: true; headers: Record<string, string> }
  | { accepted: false; headers: Record<string, string>; budget: string; retryAfterSeconds: number };

/**
 * The counters of every budget, in this process's memory (fair-use-windows.ts says why, and how
 * it scales out). A call is checked against all its charges first and counted in all or none, so a
 * refused order leaves no count behind.
 */
export class FairUseMeter {
  private readonly weights = new FixedWindowCounter(MINUTE_MS);
  private readonly tenSecondCounts = new FixedWindowCounter(TEN_SECONDS_MS);
  private readonly minuteCounts = new FixedWindowCounter(MINUTE_MS);

  constructor(private readonly limits: FairUseLimits) {}

  meter(budget: Budget, client: Client, weight: number, nowMs: number): MeterOutcome {
    const charges = this.charges(budget, client);
    const headers: Record<string, string> = {};
    let refusal: { name: string; msUntilReset: number } | undefined;
    for (const charge of charges) {
      const state = charge.counter.check(charge.key, weight, charge.limit, nowMs);
      if (!state.accepted && (refusal === undefined || state.msUntilReset > refusal.msUntilReset)) {
        refusal = { name: charge.name, msUntilReset: state.msUntilReset };
      }
      if (charge.header) headers[charge.header] = String(state.used);
    }
    if (budget !== 'request') headers['x-used-weight-1m'] = String(this.usedWeight(client, nowMs));
    if (refusal !== undefined) {
      const retryAfterSeconds = Math.max(1, Math.ceil(refusal.msUntilReset / 1000));
      return { accepted: false, headers, budget: refusal.name, retryAfterSeconds };
    }
    for (const charge of charges) {
      const used = charge.counter.add(charge.key, weight, nowMs);
      if (charge.header) headers[charge.header] = String(used);
    }
    return { accepted: true, headers };
  }

  private charges(budget: Budget, client: Client): Charge[] {
    const address = `address:${client.address}`;
    const account = client.accountId === undefined ? undefined : `account:${client.accountId}`;
    if (budget === 'trading') return this.orderCharges(address, account);
    if (budget === 'withdrawals') {
      const key = `withdrawals:${account ?? address}`;
      const limit = this.limits.withdrawalsPerMinute;
      return [{ counter: this.minuteCounts, key, limit, name: 'withdrawals', header: 'x-withdrawal-count-1m' }];
    }
    return [this.weightCharge(client)];
  }

  /** Orders count per account (10 s and 1 min) and per address (1 min); without an account, per address only. */
  private orderCharges(address: string, account: string | undefined): Charge[] {
    const perAddress: Charge = {
      counter: this.minuteCounts,
      key: `orders:${address}`,
      limit: this.limits.ordersPerIpPerMinute,
      name: 'orders-per-address',
      ...(account === undefined ? { header: 'x-order-count-1m' } : {}),
    };
    if (account === undefined) return [perAddress];
    const key = `orders:${account}`;
    return [
      {
        counter: this.tenSecondCounts,
        key,
        limit: this.limits.ordersPer10Seconds,
        name: 'orders',
        header: 'x-order-count-10s',
      },
      {
        counter: this.minuteCounts,
        key,
        limit: this.limits.ordersPerMinute,
        name: 'orders',
        header: 'x-order-count-1m',
      },
      perAddress,
    ];
  }

  private weightCharge(client: Client): Charge {
    const header = 'x-used-weight-1m';
    if (client.accountId === undefined) {
      const key = `address:${client.address}`;
      return { counter: this.weights, key, limit: this.limits.publicWeightPerMinute, name: 'public', header };
    }
    const key = `account:${client.accountId}`;
    return { counter: this.weights, key, limit: this.limits.accountWeightPerMinute, name: 'account', header };
  }

  private usedWeight(client: Client, nowMs: number): number {
    const { counter, key } = this.weightCharge(client);
    return counter.check(key, 0, 0, nowMs).used;
  }
}

export type FairUseDeps = {
  limits: FairUseLimits;
  clock: () => Date;
  /**
   * The account a bearer token proves: signature, issuer, audience and expiry checked (a cached
   * HMAC), or undefined. A forged or expired token proves nothing, so it meters as its address and
   * can never spend someone else's budget.
   */
  accountOf: (token: string) => Promise<string | undefined>;
  /** Whether a path is metered: the API is, the client's pages and assets are not. */
  isMetered: (path: string) => boolean;
  /** How long a refused client's connection is not read (tests shorten it). */
  refusedPauseMs?: number;
};

const BEARER = /^Bearer (\S+)$/i;

/**
 * Global hooks: onRequest meters the call before any route hook, body parsing or handler runs (so
 * a refused order is never placed, and a refused read costs one lookup); onResponse stops reading
 * a refused client's connection for a moment.
 */
export function registerFairUse(app: FastifyInstance, deps: FairUseDeps): FairUseMeter {
  const meter = new FairUseMeter(deps.limits);
  const pauseFor = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request, reply) => {
    if (!deps.isMetered(request.url)) return;
    const cost = routeCost(request.method, request.routeOptions.url);
    const weight = typeof cost?.weight === 'function' ? cost.weight(request.query as RawQuery) : cost?.weight;
    const client = { address: request.ip, accountId: await accountOfRequest(request, deps) };
    const nowMs = deps.clock().getTime();
    const outcome = meter.meter(cost?.budget ?? 'request', client, weight ?? DEFAULT_WEIGHT, nowMs);
    reply.headers(outcome.headers);
    if (outcome.accepted) return;
    pauseFor.set(request, Math.min(outcome.retryAfterSeconds * 1000, deps.refusedPauseMs ?? REFUSED_PAUSE_MS));
    throw new AppError('RATE_LIMITED', {
      details: { budget: outcome.budget, retry_after_seconds: outcome.retryAfterSeconds },
      headers: { 'retry-after': String(outcome.retryAfterSeconds) },
    });
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const pauseMs = pauseFor.get(request);
    if (pauseMs !== undefined) pauseReading(request.raw.socket, pauseMs);
    done();
  });
  return meter;
}

async function accountOfRequest(request: FastifyRequest, deps: FairUseDeps): Promise<string | undefined> {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  return token === undefined ? undefined : deps.accountOf(token);
}

/**
 * Stops reading a client's connection for a while: what it sends meanwhile waits in the kernel's
 * buffers and then its own (TCP back-pressure), so a client that ignores 429 slows itself instead
 * of spending our event loop on refusals. Node's HTTP server does not resume a socket it did not
 * pause itself (fair-use.test.ts checks it on a real socket).
 */
function pauseReading(socket: Socket | null | undefined, pauseMs: number): void {
  if (!socket || socket.destroyed || typeof socket.pause !== 'function') return;
  socket.pause();
  setTimeout(() => {
    if (!socket.destroyed) socket.resume();
  }, pauseMs).unref();
}
