import { performance } from 'node:perf_hooks';
import {
  HttpClient,
  percentile,
  processCpuSeconds,
  rng,
  Samples,
  type ServerProcess,
  sendOnSchedule,
  sleep,
  type Trader,
} from '../order-entry/harness.ts';
import { type LoadResult, loadAverage, runWrk } from './load.ts';

/**
 * Order placement at a constant rate (open loop, latency from each order's scheduled send time),
 * alone or while one client floods a public read with wrk. Every order is a GTC limit that rests:
 * priced 3-6 % away from the last price on its own side (inside the 10 % price band, far from
 * where the market makers and takers trade), with a unique client order id, from pre-funded
 * accounts in turn.
 */

export type Market = { id: string; pricePrecision: number; quantityPrecision: number; minQuantity: number };

export type OrderPhase = { rate: number; warmupS: number; durationS: number; connections: number };

export type Flood = { url: string; threads: number; connections: number };

export type OrderResult = {
  ordersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  late: number;
  serverCores: number;
  clientCores: number;
  flood: LoadResult | null;
  loadAverage: string;
};

/** Reads a pair's rules and last price over HTTP (public calls). */
export async function readMarket(baseUrl: string, pair: string): Promise<Market & { price: number }> {
  const spec = (await (await fetch(`${baseUrl}/v1/trading-pairs/${pair}`)).json()) as Record<string, unknown>;
  const ticker = (await (await fetch(`${baseUrl}/v1/ticker/${pair}`)).json()) as { price: string };
  return {
    id: pair,
    pricePrecision: Number(spec.price_precision),
    quantityPrecision: Number(spec.quantity_precision),
    minQuantity: Number(spec.min_trade_amount),
    price: Number(ticker.price),
  };
}

/** How long a phase waits for its last answers after the window. */
const DRAIN_MS = 30_000;

class OrderTraffic {
  readonly latency = new Samples();
  readonly statuses: Record<string, number> = {};
  readonly inFlight = new Set<Promise<void>>();
  completed = 0;
  /** Set when the drain gives up: answers and errors after that (the client closing) do not count. */
  private abandoned = false;
  private measuredInFlight = 0;
  private sequence = 0;
  private readonly random = rng(20_261_125);

  constructor(
    private readonly client: HttpClient,
    private readonly traders: Trader[],
    private readonly markets: (Market & { price: number })[],
    private readonly window: { start: number; end: number },
    private readonly tag: string,
  ) {}

  private body(): string {
    const market = this.markets[this.sequence % this.markets.length]!;
    const side = this.random() < 0.5 ? 'buy' : 'sell';
    const away = 0.03 + 0.03 * this.random();
    const price = (market.price * (side === 'buy' ? 1 - away : 1 + away)).toFixed(market.pricePrecision);
    const lots = 1 + Math.floor(this.random() * 3);
    const quantity = (market.minQuantity * lots).toFixed(market.quantityPrecision);
    const clientOrderId = `${this.tag}-${this.sequence}`;
    return JSON.stringify({
      trading_pair: market.id,
      side,
      type: 'limit',
      price,
      quantity,
      client_order_id: clientOrderId,
    });
  }

  send(scheduled: number): void {
    const trader = this.traders[this.sequence % this.traders.length]!;
    const body = this.body();
    this.sequence++;
    const measured = scheduled >= this.window.start && scheduled < this.window.end;
    if (measured) this.measuredInFlight++;
    const done = this.client
      .request('POST', '/v1/orders', trader.token, body)
      .then(
        (response) => {
          const finished = performance.now();
          if (this.abandoned) return;
          if (response.status === 201 && finished >= this.window.start && finished < this.window.end) this.completed++;
          if (!measured) return;
          this.statuses[response.status] = (this.statuses[response.status] ?? 0) + 1;
          this.latency.push(finished - scheduled);
        },
        (error: unknown) => {
          if (!measured || this.abandoned) return;
          const key = `network error (${error instanceof Error ? error.message : String(error)})`;
          this.statuses[key] = (this.statuses[key] ?? 0) + 1;
        },
      )
      .finally(() => {
        if (measured && !this.abandoned) this.measuredInFlight--;
        this.inFlight.delete(done);
      });
    this.inFlight.add(done);
  }

  /**
   * Waits up to 30 s for the answers still due; the window's orders still unanswered then count as
   * such, with an endless latency (on an overloaded machine, rather than as the errors that closing
   * the client would give them).
   */
  async drain(): Promise<void> {
    const deadline = Date.now() + DRAIN_MS;
    while (this.inFlight.size > 0 && Date.now() < deadline) await Promise.race([...this.inFlight, sleep(100)]);
    if (this.measuredInFlight === 0) return;
    this.abandoned = true;
    this.statuses[`no answer ${DRAIN_MS / 1000} s after the window`] = this.measuredInFlight;
    for (let index = 0; index < this.measuredInFlight; index++) this.latency.push(Number.POSITIVE_INFINITY);
  }
}

let runCount = 0;

/**
 * One order phase: `rate` orders/s for warm-up + duration; with a flood, wrk runs on the flood's
 * URL from 1 s before the first order until the window's end. The profiler's clock (CLOCK_MONOTONIC,
 * as process.hrtime) of the measured window is returned for slicing a CPU profile.
 */
export async function runOrderPhase(
  server: ServerProcess,
  traders: Trader[],
  markets: (Market & { price: number })[],
  phase: OrderPhase,
  flood: Flood | null,
): Promise<OrderResult & { windowNs: [bigint, bigint] }> {
  const floodRun = flood
    ? runWrk(flood.url, {
        threads: flood.threads,
        connections: flood.connections,
        durationS: Math.ceil(1 + phase.warmupS + phase.durationS),
      })
    : null;
  if (floodRun) await sleep(1000);
  const client = new HttpClient(server.url, phase.connections);
  const start = performance.now() + 20;
  const window = { start: start + phase.warmupS * 1000, end: start + (phase.warmupS + phase.durationS) * 1000 };
  const traffic = new OrderTraffic(client, traders, markets, window, `pr${process.pid}r${runCount++}`);
  const total = Math.round(phase.rate * (phase.warmupS + phase.durationS));
  let serverCpu = 0;
  let clientCpu = process.cpuUsage();
  let windowStartNs = 0n;
  const late = await sendOnSchedule(traffic, { start, interval: 1000 / phase.rate, total }, window, () => {
    serverCpu = processCpuSeconds(server.pid!);
    clientCpu = process.cpuUsage();
    windowStartNs = process.hrtime.bigint();
  });
  await sleep(Math.max(0, window.end - performance.now()));
  const windowEndNs = process.hrtime.bigint();
  const serverCores = (processCpuSeconds(server.pid!) - serverCpu) / phase.durationS;
  const clientUsage = process.cpuUsage(clientCpu);
  await traffic.drain();
  client.close();
  const sorted = traffic.latency.sorted();
  return {
    ordersPerSecond: traffic.completed / phase.durationS,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    p999Ms: percentile(sorted, 99.9),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
    statuses: traffic.statuses,
    late,
    serverCores,
    clientCores: (clientUsage.user + clientUsage.system) / 1e6 / phase.durationS,
    flood: floodRun ? await floodRun : null,
    loadAverage: loadAverage(),
    windowNs: [windowStartNs, windowEndNs],
  };
}
