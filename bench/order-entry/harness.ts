import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Database } from '../../apps/server/src/db/database.ts';
import { registrationBody } from '../../apps/server/src/modules/auth/test-support.ts';
import { postEntries } from '../../apps/server/src/modules/ledger/service.ts';
import { ServerProcess as BaseServerProcess, type Target } from '../../apps/server/src/test/server-process.ts';

/**
 * What the server benchmarks share: the real server as a child process on a fresh PGlite data
 * directory or a fresh PostgreSQL database (like apps/server/src/modules/trading/recovery.test.ts),
 * traders registered over HTTP and funded through the ledger while the server is down, a keep-alive
 * HTTP client, percentiles and CPU accounting from /proc.
 */

export {
  DEFAULT_POSTGRES_URL,
  freePort,
  pgliteTarget,
  postgresTarget,
  root,
  type Target,
} from '../../apps/server/src/test/server-process.ts';

/** The environment of a benchmark server: no rate limit, no bots, no price feed (so no band). */
export const BENCH_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  // The sandbox provider, on purpose: production refuses it otherwise.
  ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  LOG_LEVEL: 'error',
  LOG_PRETTY: 'false',
  RATE_LIMIT_ENABLED: 'false',
  MARKET_MAKER_ENABLED: 'false',
  MARKET_TAKER_ENABLED: 'false',
  PRICE_FEED_ENABLED: 'false',
  HISTORY_DAYS: '1',
  HISTORY_MINUTE_HOURS: '1',
  ACCESS_TOKEN_TTL_SECONDS: '7200',
};

/** The shared child-server runner, always with the benchmark environment underneath. */
export class ServerProcess extends BaseServerProcess {
  override start(target: Target, extra: Record<string, string> = {}, nodeFlags: string[] = []): Promise<void> {
    return super.start(target, { ...BENCH_ENV, ...extra }, nodeFlags);
  }
}

export type Trader = { id: string; token: string };

/** Registers and signs in `count` email accounts, a few at a time. */
export async function registerTraders(server: ServerProcess, count: number): Promise<Trader[]> {
  const traders: Trader[] = [];
  const one = async (): Promise<Trader> => {
    const body = registrationBody();
    const created = await server.request('POST', '/v1/accounts', undefined, body);
    if (created.status !== 201) throw new Error(`registration failed: ${JSON.stringify(created.body)}`);
    const login = await server.request('POST', '/v1/auth/login', undefined, {
      login_type: 'email',
      email: body.email,
      password: body.password,
    });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    return { id: String(login.body.account_id), token: String(login.body.token) };
  };
  for (let index = 0; index < count; index += 5) {
    const wave = Math.min(5, count - index);
    traders.push(...(await Promise.all(Array.from({ length: wave }, one))));
  }
  return traders;
}

/** Deposits (custody -> user) while the server is down, in one transaction. */
export async function fundTraders(
  db: Database,
  traders: Trader[],
  amounts: Record<string, string>,
  tag: string,
): Promise<void> {
  await db.transaction((tx) =>
    postEntries(
      tx,
      traders.flatMap((trader) =>
        Object.entries(amounts).map(([currency, amount]) => ({
          kind: 'deposit',
          reference: `bench:${tag}:${trader.id}:${currency}`,
          postings: [
            {
              owner: { kind: 'system' as const, name: 'custody' },
              currency,
              bucket: 'available' as const,
              amount: `-${amount}`,
            },
            { owner: { kind: 'user' as const, accountId: trader.id }, currency, bucket: 'available' as const, amount },
          ],
        })),
      ),
    ),
  );
}

export type PairInfo = { id: string; pricePrecision: number; quantityPrecision: number; minQuantity: number };

export async function pairInfo(db: Database, ids: string[]): Promise<Record<string, PairInfo>> {
  const rows = await db.query<{
    id: string;
    price_precision: number;
    quantity_precision: number;
    min_trade_amount: string;
  }>('SELECT id, price_precision, quantity_precision, min_trade_amount::text FROM trading_pairs WHERE id = ANY($1)', [
    ids,
  ]);
  const out: Record<string, PairInfo> = {};
  for (const row of rows.rows) {
    out[row.id] = {
      id: row.id,
      pricePrecision: Number(row.price_precision),
      quantityPrecision: Number(row.quantity_precision),
      minQuantity: Number(row.min_trade_amount),
    };
  }
  return out;
}

/** A keep-alive HTTP client with at most `connections` sockets; requests beyond that queue in the agent. */
export class HttpClient {
  readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(url: string, connections: number) {
    const parsed = new URL(url);
    this.host = parsed.hostname;
    this.port = Number(parsed.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /** Resolves with the status and the raw body; rejects on a network error. `extraHeaders` e.g. Idempotency-Key. */
  request(
    method: string,
    urlPath: string,
    token: string,
    body?: string,
    extraHeaders: http.OutgoingHttpHeaders = {},
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = { ...extraHeaders, authorization: `Bearer ${token}` };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const request = http.request(
        { host: this.host, port: this.port, method, path: urlPath, agent: this.agent, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      if (body !== undefined) request.write(body);
      request.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Percentile of an ascending array (nearest rank). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** A growable float64 sample buffer. */
export class Samples {
  private data = new Float64Array(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

const CLOCK_TICKS = 100;

/** user + system CPU seconds of a process (Linux /proc), 0 when it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds of every process whose command is `name` (e.g. the PostgreSQL backends), by pid; Linux only. */
export function cpuSecondsByPid(name: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (command !== name) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds the processes named in `before` and `after` used in between: processes still there
 * count their growth, new ones all of theirs; ones that ended meanwhile are missed (an underestimate).
 */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Total busy and total CPU seconds of the machine (all cores), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

export function machineDescription(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model ?? 'unknown CPU';
  const load = os.loadavg().map((value) => value.toFixed(2));
  return `${cpus.length} cores (${model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load.join(' / ')}`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Parses `--name value` and `--flag` arguments. */
export function parseArgs(argv: string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (!arg.startsWith('--')) continue;
    const next = argv[index + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args.set(arg.slice(2), next);
      index++;
    } else args.set(arg.slice(2), 'true');
  }
  return args;
}

/** `--name A=1,B=2` as a record. */
export function listOption(args: Map<string, string>, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (args.get(name) ?? '').split(',').filter(Boolean)) {
    const [key, value] = pair.split('=');
    if (key && value !== undefined) out[key] = value;
  }
  return out;
}

/** A seeded random stream (mulberry32), so a workload replays the same. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Sends `total` requests every `interval` ms from `start` (open loop), calling `windowOpened` once at
 * the first tick inside the window; returns how many of the window's sends went out late.
 */
export function sendOnSchedule(
  traffic: { send(scheduled: number): void },
  schedule: { start: number; interval: number; total: number },
  window: { start: number; end: number },
  windowOpened: () => void,
): Promise<number> {
  const { start, interval, total } = schedule;
  let sent = 0;
  let late = 0;
  let opened = false;
  return new Promise<number>((resolve) => {
    const tick = () => {
      const now = performance.now();
      if (!opened && now >= window.start) {
        opened = true;
        windowOpened();
      }
      while (sent < total && start + sent * interval <= now) {
        const scheduled = start + sent * interval;
        // A send more than 5 ms behind its schedule means the client itself fell behind.
        if (now - scheduled > 5 && scheduled >= window.start && scheduled < window.end) late++;
        traffic.send(scheduled);
        sent++;
      }
      if (sent >= total) resolve(late);
      else setTimeout(tick, Math.max(0, Math.min(1, start + sent * interval - now)));
    };
    tick();
  });
}
