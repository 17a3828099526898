import { SOCKET_PATH, serverSocketMessageSchema } from '@platform/contracts';
import WebSocket from 'ws';

const WAIT_MS = 5_000;

export type SocketClose = { code: number; reason: string };
/** A server message as received: checked against the contracts where they describe its type. */
export type ReceivedMessage = { type: string; [field: string]: unknown };

/** A message, or why it broke the contract (handed out in its place, so the test fails there). */
type Arrival = ReceivedMessage | Error;

/**
 * A socket client for tests: it keeps every server message in arrival order and hands them out
 * one at a time, and checks each one whose type the contracts describe against the schema.
 */
export class TestSocketClient {
  readonly closed: Promise<SocketClose>;
  private readonly queue: Arrival[] = [];
  private readonly waiters: Array<(arrival: Arrival) => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const arrival = checked(JSON.parse(String(data)));
      const waiter = this.waiters.shift();
      if (waiter) waiter(arrival);
      else this.queue.push(arrival);
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  /** Opens a socket to the server at `httpUrl` (http://host:port) and waits until it is open. */
  static async connect(
    httpUrl: string,
    options: WebSocket.ClientOptions & { token?: string } = {},
  ): Promise<TestSocketClient> {
    const { token, ...socketOptions } = options;
    const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(`${httpUrl.replace(/^http/, 'ws')}${SOCKET_PATH}${query}`, socketOptions);
    const client = new TestSocketClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next server message, waiting for it if need be; rejects when it broke the contract. */
  next(): Promise<ReceivedMessage> {
    const queued = this.queue.shift();
    if (queued !== undefined) return queued instanceof Error ? Promise.reject(queued) : Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new Error('no socket message arrived in time'));
      }, WAIT_MS);
      const waiter = (arrival: Arrival) => {
        clearTimeout(timer);
        if (arrival instanceof Error) reject(arrival);
        else resolve(arrival);
      };
      this.waiters.push(waiter);
    });
  }

  /** The next `count` messages. */
  async take(count: number): Promise<ReceivedMessage[]> {
    const messages: ReceivedMessage[] = [];
    for (let index = 0; index < count; index++) messages.push(await this.next());
    return messages;
  }

  /** Sends a request and returns the next message (the answer, when nothing else is in flight). */
  async ask(message: unknown): Promise<ReceivedMessage> {
    this.send(message);
    return this.next();
  }

  /**
   * Proves that nothing was sent since the last message taken: a pong answers the ping only after
   * everything queued before it.
   */
  async expectNothingPending(): Promise<void> {
    const answer = await this.ask({ type: 'ping' });
    if (answer.type !== 'pong') throw new Error(`expected pong, got ${JSON.stringify(answer)}`);
  }

  async close(): Promise<SocketClose> {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
    return this.closed;
  }
}

function checked(message: ReceivedMessage): Arrival {
  if (!serverSocketMessageSchema.options.some((option) => option.shape.type.value === message.type)) return message;
  const parsed = serverSocketMessageSchema.safeParse(message);
  if (parsed.success) return message;
  return new Error(`server message breaks the contract: ${JSON.stringify(message)}\n${parsed.error.message}`);
}
