import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for CoinGecko's `/api/v3/simple/price` and `/api/v3/search`, in the shapes of
 * coingecko-api-oas. Prices are kept as JSON numbers, as the real service sends them.
 */
export type FakeCoinGeckoMode =
  /** HTTP 429 with CoinGecko's `{"status":{"error_code":429,...}}` body. */
  | 'rate-limited'
  | 'server-error'
  /** 200 with a body that is not JSON. */
  | 'garbage'
  /** Answers only after `slowDelayMs`. */
  | 'slow'
  | 'ok';

export type FakeCoinPrice = {
  usd?: number;
  usd_market_cap?: number;
  usd_24h_vol?: number;
  usd_24h_change?: number;
  last_updated_at?: number;
};

export type FakeSearchCoin = {
  id: string;
  name: string;
  api_symbol: string;
  symbol: string;
  market_cap_rank: number | null;
  thumb: string;
  large: string;
};

export class FakeCoinGecko {
  mode: FakeCoinGeckoMode = 'ok';
  slowDelayMs = 1000;
  /** Sent as Retry-After with a 429 when set (CoinGecko does not document one). */
  retryAfterSeconds: number | null = null;
  /** Coin id -> what /simple/price answers for it; an id not here is simply absent (a missing coin). */
  readonly prices = new Map<string, FakeCoinPrice>();
  searchCoins: FakeSearchCoin[] = [];
  /** Every request, in order, with the API key header it carried. */
  readonly requests: { path: string; query: URLSearchParams; apiKey: string | undefined }[] = [];
  readonly #server = http.createServer((request, response) => this.#handle(request, response));

  async start(): Promise<{ baseUrl: string }> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}/api/v3` };
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The ids asked for by each /simple/price request, in order. */
  get priceRequestIds(): string[][] {
    return this.requests
      .filter((request) => request.path === '/api/v3/simple/price')
      .map((request) => (request.query.get('ids') ?? '').split(','));
  }

  #handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const apiKey = request.headers['x-cg-demo-api-key'];
    this.requests.push({
      path: url.pathname,
      query: url.searchParams,
      apiKey: typeof apiKey === 'string' ? apiKey : undefined,
    });
    switch (this.mode) {
      case 'rate-limited':
        if (this.retryAfterSeconds !== null) response.setHeader('Retry-After', String(this.retryAfterSeconds));
        sendJson(response, 429, {
          status: {
            error_code: 429,
            error_message: "You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing",
          },
        });
        return;
      case 'server-error':
        sendJson(response, 500, { error: 'Internal Server Error' });
        return;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"bitcoin": {"usd": 769');
        return;
      case 'slow': {
        const timer = setTimeout(() => this.#answer(url, response), this.slowDelayMs);
        response.on('close', () => clearTimeout(timer));
        return;
      }
      case 'ok':
        this.#answer(url, response);
        return;
    }
  }

  #answer(url: URL, response: http.ServerResponse): void {
    if (url.pathname === '/api/v3/simple/price') {
      const body: Record<string, FakeCoinPrice> = {};
      for (const id of (url.searchParams.get('ids') ?? '').split(',')) {
        const price = this.prices.get(id);
        if (price !== undefined) body[id] = price;
      }
      sendJson(response, 200, body);
      return;
    }
    if (url.pathname === '/api/v3/search') {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      const coins = this.searchCoins.filter(
        (coin) => coin.name.toLowerCase().includes(query) || coin.symbol.toLowerCase().includes(query),
      );
      sendJson(response, 200, { coins, exchanges: [], icos: [], categories: [], nfts: [] });
      return;
    }
    sendJson(response, 404, { error: 'Not found' });
    return;
  }
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
