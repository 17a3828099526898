import type { Order, PriceUpdate } from '@platform/contracts';
import type { TestServer } from '../../test/harness.ts';
import { balanceOf, postEntries, systemBalance } from '../ledger/service.ts';
import { feeAccountName } from './settlement.ts';

/** Credits a user from custody, as a confirmed deposit would (F4 brings the real deposit flow). */
export async function fund(server: TestServer, accountId: string, currency: string, amount: string): Promise<void> {
  await server.db.transaction(async (tx) => {
    await postEntries(tx, [
      {
        kind: 'deposit',
        reference: `test:${accountId}:${currency}:${amount}:${Math.random()}`,
        postings: [
          { owner: { kind: 'system', name: 'custody' }, currency, bucket: 'available', amount: `-${amount}` },
          { owner: { kind: 'user', accountId }, currency, bucket: 'available', amount },
        ],
      },
    ]);
  });
}

/** Sets a pair's reference price as the F2 feed would (tests run with the feed off). */
export function setReferencePrice(server: TestServer, pairId: string, price: string): void {
  const update: PriceUpdate = {
    symbol: pairId.replace('_', '/'),
    price,
    change24h: '0',
    changePercent24h: '0',
    volume24h: '0',
    high24h: price,
    low24h: price,
    timestamp: Date.now(),
  };
  server.pubsub.publish(`price.${pairId}`, update, { retain: true });
}

export async function balance(server: TestServer, accountId: string, currency: string) {
  return balanceOf(server.db, accountId, currency);
}

/** What a market's fee account has collected. */
export async function feeBalance(server: TestServer, pairId: string, currency: string) {
  return systemBalance(server.db, feeAccountName(pairId), currency);
}

export function placeOrder(server: TestServer, token: string, body: Record<string, unknown>) {
  return server.request('POST', '/v1/orders', { body, token }) as Promise<{
    status: number;
    body: Order & { error?: { code: string; message: string; details?: unknown } };
    headers: Headers;
  }>;
}
