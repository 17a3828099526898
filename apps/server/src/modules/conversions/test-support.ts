import type { Conversion, ConversionQuote, ExecuteQuickTradeResponse, PriceUpdate } from '@platform/contracts';
import { decimal, formatDecimal, sub } from '@platform/money';
import type { TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { balanceOf, systemBalance } from '../ledger/service.ts';

export type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };
export type User = { id: string; token: string };

/** The feed is off in these tests: every reference price a test relies on is set here. */
export const REFERENCE_PRICES: Record<string, string> = {
  BTC_USD: '50000.00',
  ETH_USD: '2500.00',
  ADA_USD: '0.500000',
  DOT_USD: '5.00000',
};

/**
 * Publishes a pair's reference price as the feed would, confirmed `ageMs` before the server's clock
 * (a test that advances the clock still gets a fresh price; a positive age makes a stale one).
 */
export function publishReference(server: TestServer, pairId: string, price: string, ageMs = 0): void {
  const update: PriceUpdate = {
    symbol: pairId.replace('_', '/'),
    price,
    change24h: '0',
    changePercent24h: '0',
    volume24h: '0',
    high24h: price,
    low24h: price,
    timestamp: server.clock.now.getTime() - ageMs,
  };
  server.pubsub.publish(`price.${pairId}`, update, { retain: true });
}

export function setReferencePrices(server: TestServer): void {
  for (const [pairId, price] of Object.entries(REFERENCE_PRICES)) publishReference(server, pairId, price);
}

export async function newUser(server: TestServer): Promise<User> {
  const user = await signUp(server);
  return { id: user.session.account_id, token: user.session.token };
}

export function estimate(server: TestServer, user: User | null, query: Record<string, string>) {
  return server.request(`GET`, `/api/v1/conversions/estimate?${new URLSearchParams(query)}`, {
    ...(user ? { token: user.token } : {}),
  }) as Promise<{ status: number; body: ConversionQuote & ErrorBody; headers: Headers }>;
}

/** An estimate that must succeed. */
export async function quote(server: TestServer, user: User, from: string, to: string, amount: string) {
  const answer = await estimate(server, user, { from_currency: from, to_currency: to, from_amount: amount });
  if (answer.status !== 200) throw new Error(`estimate failed: ${JSON.stringify(answer.body)}`);
  return answer.body as ConversionQuote;
}

export function convert(server: TestServer, user: User, body: unknown, idempotencyKey?: string) {
  return server.request('POST', '/api/v1/conversions', {
    token: user.token,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  }) as Promise<{ status: number; body: Conversion & ErrorBody }>;
}

export function quickTrade(server: TestServer, user: User, body: unknown, idempotencyKey?: string) {
  return server.request('POST', '/api/v1/trade/execute', {
    token: user.token,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  }) as Promise<{ status: number; body: ExecuteQuickTradeResponse & ErrorBody }>;
}

export async function available(server: TestServer, user: User, currency: string): Promise<string> {
  return (await balanceOf(server.db, user.id, currency)).available;
}

/** The house desk's and the fee account's balances in the currencies, to measure what moved. */
export async function houseBalances(server: TestServer, currencies: string[]) {
  const out: Record<string, { desk: string; fees: string }> = {};
  for (const currency of currencies) {
    out[currency] = {
      desk: (await systemBalance(server.db, 'market_making', currency)).available,
      fees: (await systemBalance(server.db, 'fees', currency)).available,
    };
  }
  return out;
}

/** after - before, exactly, as canonical text. */
export function moved(before: string, after: string): string {
  return formatDecimal(sub(decimal(after), decimal(before)), { trimZeros: true });
}
