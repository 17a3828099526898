import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { percentile, processCpuSeconds, Samples, sendOnSchedule, sleep } from '../order-entry/harness.ts';

/**
 * The load generators of the public-reads benchmark: wrk (closed loop, as fast as the server
 * answers: throughput), hey (a fixed rate per worker) and a small open-loop Node generator (a fixed
 * rate, latency from each request's scheduled send time). Each reports the CPU it used, so its cost
 * can be judged against the server's.
 */

export type LoadResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers outside 2xx (wrk: outside 2xx and 3xx), socket errors and timeouts included. */
  failures: number;
  statuses: Record<string, number>;
  /** CPU cores the generator used over its run. */
  generatorCores: number;
  /** The 1-minute load average of the machine just after the run (/proc/loadavg). */
  loadAverage: string;
};

export function loadAverage(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
}

/** Runs a command, sampling its CPU time every 200 ms (the last sample before it exits counts). */
async function runMeasured(
  command: string,
  args: string[],
): Promise<{ output: string; cpuSeconds: number; wallS: number }> {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  let cpuSeconds = 0;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const poll = setInterval(() => {
    if (child.pid !== undefined) cpuSeconds = Math.max(cpuSeconds, processCpuSeconds(child.pid));
  }, 200);
  const code = await exited;
  clearInterval(poll);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`);
  return { output, cpuSeconds, wallS: (performance.now() - started) / 1000 };
}

/** wrk's and hey's durations: 250us, 1.20ms, 0.0031 (hey: seconds), 2.5s, 1.0m. */
function durationMs(text: string, unit: string): number {
  const value = Number(text);
  if (unit === 'us') return value / 1000;
  if (unit === 'ms') return value;
  if (unit === 'm') return value * 60_000;
  return value * 1000;
}

export type WrkOptions = { threads: number; connections: number; durationS: number };

/** `wrk -t -c -d --latency URL`: requests/s, p50, p99, non-2xx/3xx and socket errors. */
export async function runWrk(url: string, options: WrkOptions): Promise<LoadResult> {
  const { output, cpuSeconds, wallS } = await runMeasured('wrk', [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.durationS}s`,
    '--latency',
    url,
  ]);
  const latency = (p: string) => {
    const match = output.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm'));
    return match ? durationMs(match[1]!, match[2]!) : Number.NaN;
  };
  const rate = output.match(/Requests\/sec:\s+([\d.]+)/);
  const non2xx = Number(output.match(/Non-2xx or 3xx responses:\s+(\d+)/)?.[1] ?? 0);
  const socket = output.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const socketErrors = socket ? socket.slice(1).reduce((sum, value) => sum + Number(value), 0) : 0;
  return {
    requestsPerSecond: rate ? Number(rate[1]) : Number.NaN,
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    failures: non2xx + socketErrors,
    statuses: { 'non-2xx/3xx': non2xx, 'socket errors': socketErrors },
    generatorCores: cpuSeconds / wallS,
    loadAverage: loadAverage(),
  };
}

export type RateOptions = { rate: number; workers: number; durationS: number };

/** `hey -z -c -q URL`: `rate` in all, spread evenly over `workers` (hey's -q is per worker). */
export async function runHey(url: string, options: RateOptions): Promise<LoadResult> {
  const perWorker = options.rate / options.workers;
  const { output, cpuSeconds, wallS } = await runMeasured('hey', [
    '-z',
    `${options.durationS}s`,
    '-c',
    String(options.workers),
    '-q',
    perWorker.toFixed(2),
    url,
  ]);
  const latency = (p: string) => {
    const match = output.match(new RegExp(`^\\s+${p}% in ([\\d.]+) secs`, 'm'));
    return match ? durationMs(match[1]!, 's') : Number.NaN;
  };
  const statuses: Record<string, number> = {};
  for (const match of output.matchAll(/\[(\d+)\]\s+(\d+) responses/g)) statuses[match[1]!] = Number(match[2]);
  const errors = [...output.matchAll(/^\s+\[(\d+)\]\s+(?!\d+ responses)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  if (errors > 0) statuses.errors = errors;
  const failures = Object.entries(statuses)
    .filter(([status]) => !/^2\d\d$/.test(status))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    requestsPerSecond: Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? Number.NaN),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    failures,
    statuses,
    generatorCores: cpuSeconds / wallS,
    loadAverage: loadAverage(),
  };
}

/** Requests waiting for a connection beyond which the Node generator stops sending (counted as not sent). */
const MAX_OUTSTANDING = 4096;
/** How long the Node generator waits for the last answers after its last send. */
const DRAIN_MS = 10_000;

/**
 * A keep-alive HTTP/1.1 connection that sends one prebuilt GET at a time and parses only the status
 * line and Content-Length of the answer: a few microseconds of CPU a request, where node:http's
 * client takes tens (the generator shares the machine's two cores with the server it measures).
 */
class RawConnection {
  private readonly socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: ((status: number) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;

  constructor(url: URL) {
    this.socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.received(chunk));
    this.socket.on('error', (error) => this.failed?.(error));
    this.socket.on('close', () => this.failed?.(new Error('connection closed')));
  }

  get(request: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = resolve;
      this.failed = reject;
      this.socket.write(request);
    });
  }

  private received(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const headerEnd = this.buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
    if (Number.isNaN(length)) {
      this.failed?.(new Error('an answer without Content-Length'));
      return;
    }
    if (this.buffer.length < headerEnd + 4 + length) return;
    this.buffer = this.buffer.subarray(headerEnd + 4 + length);
    const resolve = this.pending;
    this.pending = null;
    this.failed = null;
    resolve?.(Number(head.slice(9, 12)));
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * An open-loop GET generator in this process: request i is due at i / rate and its latency counts
 * from then, so a stalled server cannot hide its queue (hey's workers wait for their previous
 * answer, so they send less while the server stalls). Over `workers` keep-alive connections, one
 * request in flight on each; due requests wait in a queue for a free connection, and that wait counts.
 */
export async function runOpenLoop(urlText: string, options: RateOptions): Promise<LoadResult> {
  const url = new URL(urlText);
  const request = Buffer.from(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, 'latin1');
  const free = Array.from({ length: options.workers }, () => new RawConnection(url));
  const all = [...free];
  const queue: number[] = [];
  const latency = new Samples();
  const statuses: Record<string, number> = {};
  const start = performance.now() + 50;
  const window = { start, end: start + options.durationS * 1000 };
  let answered = 0;
  let doneInWindow = 0;
  const dispatch = () => {
    while (free.length > 0 && queue.length > 0) {
      const connection = free.pop()!;
      const scheduled = queue.shift()!;
      connection.get(request).then(
        (status) => {
          const finished = performance.now();
          latency.push(finished - scheduled);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (status >= 200 && status < 300 && finished < window.end) doneInWindow++;
          answered++;
          free.push(connection);
          dispatch();
        },
        () => {
          statuses.errors = (statuses.errors ?? 0) + 1;
          answered++;
        },
      );
    }
  };
  const traffic = {
    send(scheduled: number) {
      if (queue.length >= MAX_OUTSTANDING) {
        statuses['not sent'] = (statuses['not sent'] ?? 0) + 1;
        answered++;
        return;
      }
      queue.push(scheduled);
      dispatch();
    },
  };
  const total = Math.round(options.rate * options.durationS);
  const cpuBefore = process.cpuUsage();
  await sendOnSchedule(traffic, { start, interval: 1000 / options.rate, total }, window, () => {});
  const cpu = process.cpuUsage(cpuBefore);
  // Requests still unanswered 10 s after the last send count as failures with an endless latency.
  const deadline = Date.now() + DRAIN_MS;
  while (answered < total && Date.now() < deadline) await sleep(20);
  for (const connection of all) connection.close();
  const unanswered = total - answered;
  if (unanswered > 0) statuses[`no answer ${DRAIN_MS / 1000} s after the last send`] = unanswered;
  for (let index = 0; index < unanswered; index++) latency.push(Number.POSITIVE_INFINITY);
  const sorted = latency.sorted();
  const ok = Object.entries(statuses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requestsPerSecond: doneInWindow / options.durationS,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    failures: total - ok,
    statuses,
    generatorCores: (cpu.user + cpu.system) / 1e6 / options.durationS,
    loadAverage: loadAverage(),
  };
}

/** A wrk flood in the background (e.g. while orders are placed); `result` resolves when it ends. */
export function startFlood(url: string, options: WrkOptions): { result: Promise<LoadResult> } {
  return { result: runWrk(url, options) };
}
