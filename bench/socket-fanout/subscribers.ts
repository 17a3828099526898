import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

/**
 * One subscriber process of the socket fan-out benchmark (started by run.ts with an IPC channel).
 * Opens `count` sockets to /ws, each from a loopback source address of its own group (the server
 * allows 50 connections per address), subscribes each to one order book channel, and records for
 * every delta received inside the measurement window its lag: receive time minus the payload's
 * `timestamp` (the batch time, on the same machine's clock). Checks per connection that the
 * channel sequence numbers have no gap and that each delta's prev_sequence is the book sequence it
 * saw last.
 */

type Start = {
  type: 'start';
  url: string;
  channel: string;
  count: number;
  /** First loopback address index: 127.0.0.{first}, then the next one every `perAddress` sockets. */
  firstAddress: number;
  perAddress: number;
};
type Window = { type: 'window'; startMs: number; endMs: number };
type Finish = { type: 'finish' };
type Command = Start | Window | Finish;

type Subscriber = {
  socket: WebSocket;
  lastSeq: number;
  bookSequence: number | null;
  snapshot: boolean;
  closed: boolean;
};

const now = () => performance.timeOrigin + performance.now();

const subscribers: Subscriber[] = [];
let windowStart = Number.POSITIVE_INFINITY;
let windowEnd = Number.POSITIVE_INFINITY;
let lags = new Float64Array(1 << 18);
let lagCount = 0;
let seqGaps = 0;
let bookGaps = 0;
let closedDuringRun = 0;
const closeCodes: Record<string, number> = {};
let otherMessages = 0;
let errors = 0;
/** Book sequence -> first and last receive time in this process (for the fan-out spread). */
const firstSeen = new Map<number, number>();
const lastSeen = new Map<number, number>();
const deliveries = new Map<number, number>();
let cpuAtStart = process.cpuUsage();
let cpuInWindow: NodeJS.CpuUsage | null = null;

function record(lag: number): void {
  if (lagCount === lags.length) {
    const bigger = new Float64Array(lags.length * 2);
    bigger.set(lags);
    lags = bigger;
  }
  lags[lagCount++] = lag;
}

function onMessage(subscriber: Subscriber, data: WebSocket.RawData): void {
  const received = now();
  const message = JSON.parse(String(data)) as {
    type: string;
    seq?: number;
    snapshot?: boolean;
    payload?: { kind: string; sequence: number; prev_sequence: number; timestamp: number };
  };
  if (message.type === 'welcome') return;
  if (typeof message.seq !== 'number') {
    otherMessages++;
    return;
  }
  if (message.seq !== subscriber.lastSeq + 1) seqGaps++;
  subscriber.lastSeq = message.seq;
  const payload = message.payload;
  if (message.type === 'subscribed' || payload === undefined) return;
  if (message.snapshot) {
    subscriber.snapshot = true;
    subscriber.bookSequence = payload.sequence;
    return;
  }
  if (subscriber.bookSequence !== null && payload.prev_sequence !== subscriber.bookSequence) bookGaps++;
  subscriber.bookSequence = payload.sequence;
  if (payload.timestamp < windowStart || payload.timestamp >= windowEnd) return;
  record(received - payload.timestamp);
  const sequence = payload.sequence;
  if (!firstSeen.has(sequence)) firstSeen.set(sequence, received);
  lastSeen.set(sequence, received);
  deliveries.set(sequence, (deliveries.get(sequence) ?? 0) + 1);
}

async function open(command: Start, index: number): Promise<void> {
  const address = `127.0.0.${command.firstAddress + Math.floor(index / command.perAddress)}`;
  const socket = new WebSocket(`${command.url.replace(/^http/, 'ws')}/ws`, { localAddress: address });
  const subscriber: Subscriber = { socket, lastSeq: -1, bookSequence: null, snapshot: false, closed: false };
  subscribers.push(subscriber);
  socket.on('message', (data) => onMessage(subscriber, data));
  socket.on('error', () => {
    errors++;
  });
  socket.on('close', (code) => {
    subscriber.closed = true;
    closeCodes[code] = (closeCodes[code] ?? 0) + 1;
    if (subscriber.snapshot) closedDuringRun++;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', channel: command.channel }));
}

async function start(command: Start): Promise<void> {
  for (let index = 0; index < command.count; index += 50) {
    const wave = Math.min(50, command.count - index);
    await Promise.all(Array.from({ length: wave }, (_, offset) => open(command, index + offset)));
  }
  const deadline = Date.now() + 30_000;
  while (subscribers.some((subscriber) => !subscriber.snapshot && !subscriber.closed) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.send?.({
    type: 'ready',
    subscribed: subscribers.filter((subscriber) => subscriber.snapshot && !subscriber.closed).length,
  });
}

function finish(): void {
  const cpu = cpuInWindow ?? process.cpuUsage(cpuAtStart);
  const spread: [number, number, number][] = [];
  for (const [sequence, first] of firstSeen) spread.push([sequence, first, lastSeen.get(sequence)!]);
  const result = {
    type: 'result',
    lags: Buffer.from(lags.buffer, 0, lagCount * 8).toString('base64'),
    spread,
    deliveries: [...deliveries],
    seqGaps,
    bookGaps,
    closedDuringRun,
    stillOpen: subscribers.filter((subscriber) => !subscriber.closed).length,
    closeCodes,
    otherMessages,
    errors,
    cpuSeconds: (cpu.user + cpu.system) / 1e6 / ((windowEnd - windowStart) / 1000),
  };
  for (const subscriber of subscribers) subscriber.socket.terminate();
  process.send?.(result, () => process.exit(0));
}

process.on('message', (command: Command) => {
  if (command.type === 'start') void start(command);
  else if (command.type === 'window') {
    windowStart = command.startMs;
    windowEnd = command.endMs;
    setTimeout(() => {
      cpuAtStart = process.cpuUsage();
    }, windowStart - Date.now());
    setTimeout(() => {
      cpuInWindow = process.cpuUsage(cpuAtStart);
    }, windowEnd - Date.now());
  } else finish();
});
