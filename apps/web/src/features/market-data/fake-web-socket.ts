import type { WebSocketLike } from './product-socket.ts';

/**
 * A WebSocket the test drives by hand: it opens, receives and closes when told to, and records
 * what the client sent. `FakeWebSocketServer` hands them out and keeps every one it made.
 */
export class FakeWebSocket implements WebSocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: unknown[] = [];
  closedWith: number | null = null;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as unknown);
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The server accepts the connection. */
  acceptOpen(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** The server sends a message (an object is sent as JSON). */
  receive(message: unknown): void {
    const data = typeof message === 'string' ? message : JSON.stringify(message);
    this.onmessage?.(new MessageEvent('message', { data }));
  }

  /** The connection ends from the far side (or fails to open: 1006). */
  dropWith(code: number): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }

  sentOfType(type: string): unknown[] {
    return this.sent.filter((message) => (message as { type?: string }).type === type);
  }
}

export class FakeWebSocketServer {
  readonly sockets: FakeWebSocket[] = [];

  readonly create = (url: string): FakeWebSocket => {
    const socket = new FakeWebSocket(url);
    this.sockets.push(socket);
    return socket;
  };

  get latest(): FakeWebSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }
}
