import type { FuturesAccount } from '@platform/contracts';
import type { TestServer } from '../../test/harness.ts';
import { signUp } from '../auth/test-support.ts';
import { fund, setReferencePrice } from '../trading/test-support.ts';

export type Trader = { id: string; token: string };

/** A signed-up account with `usd` in its futures wallet (credited to spot, then transferred in). */
export async function futuresTrader(server: TestServer, usd: string): Promise<Trader> {
  const user = await signUp(server);
  const trader = { id: user.session.account_id, token: user.session.token };
  await fund(server, trader.id, 'USD', usd);
  const moved = await server.request('POST', '/v1/futures/transfers', {
    token: trader.token,
    body: { direction: 'to_futures', amount: usd },
  });
  if (moved.status !== 201) throw new Error(`transfer failed: ${JSON.stringify(moved.body)}`);
  return trader;
}

export function order(server: TestServer, trader: Trader, body: Record<string, unknown>) {
  return server.request('POST', '/v1/futures/orders', {
    token: trader.token,
    body: { market: 'BTC_USD_PERP', ...body },
  });
}

export async function account(server: TestServer, trader: Trader) {
  const response = await server.request('GET', '/v1/futures/account', { token: trader.token });
  return response.body as FuturesAccount;
}

export async function positions(server: TestServer, trader: Trader) {
  const response = await server.request('GET', '/v1/futures/positions', { token: trader.token });
  return (response.body as { positions: Record<string, string>[] }).positions;
}

/** The index the exchange falls back to without a mark source: the spot pair's reference price. */
export const setIndex = (server: TestServer, base: string, price: string) =>
  setReferencePrice(server, `${base}_USD`, price);
