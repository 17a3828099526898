import type { ModifyOrderRequest, Order } from '@platform/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { tradingApi } from '../../api/trading.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { recordOrderChange } from './order-queries.ts';
import { scheduleCancel } from './pending-cancels.ts';
import { tradingQueryKeys } from './query-keys.ts';

/**
 * Cancels sent at once by "Cancel all": enough to finish a long list quickly, few enough not to
 * crowd out the page's other calls (browsers open about six connections to a host).
 */
export const CANCEL_ALL_CONCURRENCY = 4;

export interface CancelAllResult {
  cancelled: Order[];
  failed: Array<{ order: Order; error: unknown }>;
}

/** One cancel call per order, at most `concurrency` in flight; every order gets its answer. */
export async function cancelEach(
  orders: readonly Order[],
  cancel: (order: Order) => Promise<Order>,
  concurrency = CANCEL_ALL_CONCURRENCY,
): Promise<CancelAllResult> {
  const result: CancelAllResult = { cancelled: [], failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < orders.length) {
      const order = orders[next];
      next += 1;
      if (!order) continue;
      try {
        result.cancelled.push(await cancel(order));
      } catch (error) {
        result.failed.push({ order, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, orders.length) }, worker));
  return result;
}

/**
 * Cancel, cancel all and modify for the signed-in account, with their toasts. Each answer goes
 * into the open-orders list at once; a failure reloads the lists, since it usually means the order
 * changed meanwhile (filled, already cancelled).
 */
export function useOrderActions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accountId = useSignedInAccountId();
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const setBusy = useCallback((ids: readonly string[], busy: boolean) => {
    setBusyIds((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (busy) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);

  const record = useCallback(
    (order: Order) => {
      if (accountId) recordOrderChange(queryClient, accountId, order);
    },
    [accountId, queryClient],
  );

  const reload = useCallback(() => {
    if (accountId) void queryClient.invalidateQueries({ queryKey: tradingQueryKeys.all(accountId) });
  }, [accountId, queryClient]);

  const cancel = useCallback(
    async (order: Order) => {
      setBusy([order.id], true);
      try {
        record(await tradingApi.cancelOrder(order.id));
        toast.success(t('success.orderCancelled'));
      } catch (error) {
        reload();
        toast.error(errorMessage(error, t, 'history.toasts.cancelFailed'));
      } finally {
        setBusy([order.id], false);
      }
    },
    [record, reload, setBusy, t],
  );

  const cancelAll = useCallback(
    async (orders: readonly Order[]) => {
      const ids = orders.map((order) => order.id);
      setBusy(ids, true);
      try {
        const result = await cancelEach(orders, (order) => tradingApi.cancelOrder(order.id));
        for (const order of result.cancelled) record(order);
        if (result.cancelled.length > 0) {
          toast.success(t('history.toasts.ordersCancelled', { count: result.cancelled.length }));
        }
        if (result.failed.length > 0) {
          reload();
          const first = result.failed[0]?.error;
          toast.error(
            `${t('history.toasts.cancelAllFailed', { count: result.failed.length })}: ${errorMessage(first, t, 'history.toasts.cancelFailed')}`,
          );
        }
      } finally {
        setBusy(ids, false);
      }
    },
    [record, reload, setBusy, t],
  );

  /**
   * Cancel with an undo window: nothing is sent for CANCEL_UNDO_MS, so an undo leaves the order
   * exactly as it was (see pending-cancels.ts).
   */
  const cancelLater = useCallback((order: Order) => scheduleCancel(order.id, () => void cancel(order)), [cancel]);

  /** Throws the API's error for the form to show. */
  const modify = useCallback(
    async (order: Order, request: ModifyOrderRequest) => {
      try {
        record(await tradingApi.modifyOrder(order.id, request));
      } catch (error) {
        reload();
        throw error;
      }
      toast.success(t('history.toasts.orderModified'));
    },
    [record, reload, t],
  );

  return { busyIds, cancel, cancelLater, cancelAll, modify };
}
