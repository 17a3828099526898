import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * A local stand-in for Binance's public market data: `GET /api/v3/ticker/24hr` (all tickers) and
 * the combined stream `/stream?streams=<market>@ticker/...`, in the shapes of
 * binance-spot-api-docs. Switches make it answer the ways the real one fails.
 */
export type FakeBinanceMode =
  | 'ok'
  /** HTTP 429 with Retry-After (`retryAfterSeconds`) and Binance's -1003 body. */
  | 'rate-limited'
  /** HTTP 418 (IP banned) with Retry-After. */
  | 'banned'
  | 'server-error'
  /** 200 with a body that is not JSON. */
  | 'garbage'
  /** Answers only after `slowDelayMs`. */
  | 'slow';

export type FakeTicker = {
  symbol: string;
  lastPrice: string;
  priceChangePercent: string;
  quoteVolume: string;
  highPrice: string;
  lowPrice: string;
  openPrice: string;
  closeTime: number;
};

export class FakeBinance {
  mode: FakeBinanceMode = 'ok';
  retryAfterSeconds = 7;
  slowDelayMs = 1000;
  /** When true, socket upgrades are refused with HTTP 503 (the stream is down). */
  refuseStreams = false;
  /** Every REST request path, in order. */
  readonly requests: string[] = [];
  /** Every stream URL a client connected with, in order. */
  readonly streamConnections: string[] = [];
  readonly #tickers = new Map<string, FakeTicker>();
  readonly #server = http.createServer((request, response) => this.#handle(request, response));
  readonly #sockets = new WebSocketServer({ noServer: true });
  readonly #subscriptions = new Map<WebSocket, Set<string>>();

  constructor() {
    this.#server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'http://fake');
      if (url.pathname !== '/stream' || this.refuseStreams) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.#sockets.handleUpgrade(request, socket, head, (client) => {
        this.streamConnections.push(request.url ?? '');
        const streams = (url.searchParams.get('streams') ?? '').split('/').filter(Boolean);
        this.#subscriptions.set(client, new Set(streams));
        client.on('close', () => this.#subscriptions.delete(client));
      });
    });
  }

  async start(): Promise<{ baseUrl: string; wsUrl: string }> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}` };
  }

  async stop(): Promise<void> {
    for (const client of this.#subscriptions.keys()) client.terminate();
    this.#sockets.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Adds or replaces a ticker; omitted fields get plausible values in Binance's 8-decimal style. */
  setTicker(ticker: Partial<FakeTicker> & Pick<FakeTicker, 'symbol' | 'lastPrice'>): void {
    this.#tickers.set(ticker.symbol, {
      priceChangePercent: '0.000',
      quoteVolume: '0.00000000',
      highPrice: ticker.lastPrice,
      lowPrice: ticker.lastPrice,
      openPrice: ticker.lastPrice,
      closeTime: 1_760_000_000_000,
      ...ticker,
    });
  }

  /** Open stream clients, counting only those whose handshake finished. */
  get openStreamCount(): number {
    return this.#subscriptions.size;
  }

  /** Sends a 24hrTicker event to every client subscribed to `<market>@ticker`. */
  pushTicker(event: {
    s: string;
    c: string;
    P?: string;
    q?: string;
    h?: string;
    l?: string;
    o?: string;
    E?: number;
  }): number {
    const stream = `${event.s.toLowerCase()}@ticker`;
    const data = {
      e: '24hrTicker',
      E: event.E ?? 1_760_000_000_000,
      s: event.s,
      p: '0.00000000',
      P: event.P ?? '0.000',
      w: event.c,
      x: event.c,
      c: event.c,
      Q: '0.00100000',
      b: event.c,
      B: '1.00000000',
      a: event.c,
      A: '1.00000000',
      o: event.o ?? event.c,
      h: event.h ?? event.c,
      l: event.l ?? event.c,
      v: '0.00000000',
      q: event.q ?? '0.00000000',
      O: 1_759_913_600_000,
      C: event.E ?? 1_760_000_000_000,
      F: 1,
      L: 2,
      n: 2,
    };
    return this.#sendTo(stream, JSON.stringify({ stream, data }));
  }

  /** Sends raw text to every open stream client (for garbage tests). */
  pushRaw(text: string): number {
    let sent = 0;
    for (const client of this.#subscriptions.keys()) {
      client.send(text);
      sent++;
    }
    return sent;
  }

  /** Cuts every stream connection without a close handshake, as a network failure would. */
  dropStreams(): void {
    for (const client of this.#subscriptions.keys()) client.terminate();
  }

  #sendTo(stream: string, text: string): number {
    let sent = 0;
    for (const [client, streams] of this.#subscriptions) {
      if (streams.has(stream) && client.readyState === WebSocket.OPEN) {
        client.send(text);
        sent++;
      }
    }
    return sent;
  }

  #handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push(url.pathname + url.search);
    if (url.pathname !== '/api/v3/ticker/24hr') {
      sendJson(response, 404, { code: -1, msg: 'Not found.' });
      return;
    }
    switch (this.mode) {
      case 'rate-limited':
        response.setHeader('Retry-After', String(this.retryAfterSeconds));
        sendJson(response, 429, { code: -1003, msg: 'Too many requests.' });
        return;
      case 'banned':
        response.setHeader('Retry-After', String(this.retryAfterSeconds));
        sendJson(response, 418, { code: -1003, msg: 'Way too many requests; IP banned.' });
        return;
      case 'server-error':
        sendJson(response, 500, { code: -1000, msg: 'An unknown error occurred.' });
        return;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('<html>definitely not json');
        return;
      case 'slow': {
        const timer = setTimeout(() => sendJson(response, 200, this.#allTickers()), this.slowDelayMs);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      case 'ok':
        sendJson(response, 200, this.#allTickers());
        return;
    }
  }

  #allTickers(): unknown[] {
    return [...this.#tickers.values()].map((ticker) => ({
      symbol: ticker.symbol,
      priceChange: '0.00000000',
      priceChangePercent: ticker.priceChangePercent,
      weightedAvgPrice: ticker.lastPrice,
      prevClosePrice: ticker.openPrice,
      lastPrice: ticker.lastPrice,
      lastQty: '0.00100000',
      bidPrice: ticker.lastPrice,
      bidQty: '1.00000000',
      askPrice: ticker.lastPrice,
      askQty: '1.00000000',
      openPrice: ticker.openPrice,
      highPrice: ticker.highPrice,
      lowPrice: ticker.lowPrice,
      volume: '0.00000000',
      quoteVolume: ticker.quoteVolume,
      openTime: ticker.closeTime - 86_400_000,
      closeTime: ticker.closeTime,
      firstId: 1,
      lastId: 2,
      count: 2,
    }));
  }
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
