import type { Order, PlaceOrderRequest } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { tradingApi } from '../../api/trading.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { tradingQueryKeys } from '../orders/query-keys.ts';
import { walletQueryKeys } from '../wallet/query-keys.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';

/**
 * Places an order and, whatever the answer, marks the account's orders, trades and balances stale
 * (a lost answer may still have placed it). A retry of the same client order id answers with the
 * first order, which may have been rejected: that is a failure too.
 */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  const accountId = useSignedInAccountId();
  return useMutation({
    mutationFn: async (request: PlaceOrderRequest): Promise<Order> => {
      const order = await tradingApi.placeOrder(request);
      if (order.status === 'rejected') {
        throw new ApiError(422, 'ORDER_REJECTED', 'Order placement failed', { reason: order.reject_reason });
      }
      return order;
    },
    onSettled: () => {
      if (!accountId) return;
      void queryClient.invalidateQueries({ queryKey: tradingQueryKeys.all(accountId) });
      void queryClient.invalidateQueries({ queryKey: walletQueryKeys.all(accountId) });
    },
  });
}

/**
 * True when the server answered and refused the order, so nothing was placed and a retry is a new
 * order. A lost answer (network) or a server failure (5xx) keeps the id: the retry must not place
 * the order twice.
 */
export function isDefinitiveRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408;
}

export interface PlaceOrderFailure {
  /** The spec's text (§8): 'Insufficient balance', 'Order placement failed', 'Invalid price'... */
  message: string;
  /** Why the engine refused it, when it said. */
  detail: string | null;
}

function reasonOf(details: unknown): string | null {
  if (typeof details !== 'object' || details === null || !('reason' in details)) return null;
  const { reason } = details as { reason: unknown };
  return typeof reason === 'string' ? reason : null;
}

export function placeOrderFailure(error: unknown, t: TFunction): PlaceOrderFailure {
  const message = errorMessage(error, t, 'errors.failedToPlaceOrder');
  const reason = error instanceof ApiError && error.code === 'ORDER_REJECTED' ? reasonOf(error.details) : null;
  const key = reason ? `trade.form.rejections.${reason}` : null;
  // Reasons the client has no words for are left out rather than shown in the engine's code.
  const detail = key ? translateMessage(t, key) : null;
  return { message, detail: detail && detail !== key ? detail : null };
}
