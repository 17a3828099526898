import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local endpoint that records the webhooks a provider POSTs to it (tests pass its URL as
 * notifyUrl). Its answers can be scripted to make the sender retry.
 */
export type ReceivedWebhook = {
  path: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
  body: unknown;
};

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses answered to the next calls, in order; 200 once the list is used up. */
  readonly script: number[] = [];
  readonly #server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // Kept as text: a test may send garbage on purpose.
      }
      this.received.push({ path: request.url ?? '/', headers, rawBody, body });
      response.writeHead(this.script.shift() ?? 200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  #url = '';

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}`;
    return this.#url;
  }

  get url(): string {
    return this.#url;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The webhooks whose body says `reference` in webhook_data (or as order_id / unique_external_id). */
  about(reference: string): ReceivedWebhook[] {
    return this.received.filter((webhook) => {
      const body = webhook.body as
        | { webhook_data?: { reference?: unknown }; order_id?: unknown; unique_external_id?: unknown }
        | undefined;
      return (
        body?.webhook_data?.reference === reference ||
        body?.order_id === reference ||
        body?.unique_external_id === reference
      );
    });
  }
}

/** Polls `probe` until it answers something other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}
