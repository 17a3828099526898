import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getMarketData } from '../market-data/index.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { recordOrderChange } from './order-queries.ts';
import { tradingQueryKeys } from './query-keys.ts';

/** The user channel of the account's order updates (spec §7.6 order_update). */
export const ORDERS_CHANNEL = 'orders';

/**
 * Live orders: while signed in, listens on the product socket's `orders` channel (the shell's
 * useLiveBalances proves the account on the connection). Each order_update patches the open-orders
 * list at once (a filled or cancelled order leaves it) and marks the histories stale, so a fill
 * shows without a reload. Since every update reads the lists again, a skipped sequence number
 * needs nothing more; the channel has no snapshot, so on 'subscribed' (again after a reconnect)
 * the lists are read again over HTTP.
 */
export function useLiveOrders(): void {
  const accountId = useSignedInAccountId();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (accountId === null) return;
    const { socket } = getMarketData();
    return socket.subscribe(ORDERS_CHANNEL, (message) => {
      if (message.type === 'subscribed') {
        void queryClient.invalidateQueries({ queryKey: tradingQueryKeys.all(accountId) });
        return;
      }
      // A connection still proving a previous account could carry its last events.
      if (message.type !== 'order_update' || message.payload.account_id !== accountId) return;
      recordOrderChange(queryClient, accountId, message.payload);
    });
  }, [accountId, queryClient]);
}
