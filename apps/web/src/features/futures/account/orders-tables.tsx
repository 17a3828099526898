import type { FuturesMarket, FuturesOrder } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { formatDateTime } from '../../../lib/date-format.ts';
import { errorMessage } from '../../../lib/error-message.ts';
import { formatFuturesPrice, formatSize, marketLabel, marketPrecision } from '../futures-format.ts';
import { futuresKeys, useClosedFuturesOrders, useOpenFuturesOrders } from '../futures-queries.ts';
import { EmptyState, LoadState } from '../load-state.tsx';
import { Cell } from './position-cells.tsx';

type MarketOf = (id: string) => FuturesMarket | undefined;

function useCancel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const done = (key: 'futures.orders.cancelled' | 'futures.orders.allCancelled') => {
    toast.success(t(key));
    void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
  };
  const fail = (error: unknown) => toast.error(errorMessage(error, t, 'futures.states.failed'));
  const one = useMutation({
    mutationFn: futuresApi.cancelOrder,
    onSuccess: () => done('futures.orders.cancelled'),
    onError: fail,
  });
  // The contracts have no bulk cancel: each open order is cancelled in turn.
  const all = useMutation({
    mutationFn: async (orders: readonly FuturesOrder[]) => {
      for (const order of orders) await futuresApi.cancelOrder(order.id);
    },
    onSuccess: () => done('futures.orders.allCancelled'),
    onError: fail,
  });
  return { one, all };
}

export function OpenOrdersPanel({ marketOf }: { marketOf: MarketOf }) {
  const { t } = useTranslation();
  const query = useOpenFuturesOrders();
  const cancel = useCancel();
  if (!query.data) return <LoadState failed={query.isError} onRetry={() => void query.refetch()} />;
  const orders = query.data.orders;
  if (orders.length === 0) return <EmptyState text={t('futures.orders.empty')} testId="futures-open-orders-empty" />;
  return (
    <>
      <div className="fut-table-tools">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={cancel.all.isPending}
          onClick={() => cancel.all.mutate(orders)}
          data-testid="futures-cancel-all"
        >
          {t('futures.orders.cancelAll')}
        </button>
      </div>
      <OrdersTable
        orders={orders}
        marketOf={marketOf}
        onCancel={(order) => cancel.one.mutate(order.id)}
        testId="futures-open-orders"
      />
    </>
  );
}

export function OrderHistoryPanel({ marketOf }: { marketOf: MarketOf }) {
  const { t } = useTranslation();
  const query = useClosedFuturesOrders();
  if (!query.data) return <LoadState failed={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.orders.length === 0) return <EmptyState text={t('futures.orders.historyEmpty')} />;
  return <OrdersTable orders={query.data.orders} marketOf={marketOf} testId="futures-order-history" />;
}

interface OrdersTableProps {
  orders: readonly FuturesOrder[];
  marketOf: MarketOf;
  onCancel?: (order: FuturesOrder) => void;
  testId: string;
}

function OrdersTable({ orders, marketOf, onCancel, testId }: OrdersTableProps) {
  const { t } = useTranslation();
  const headings = ['time', 'market', 'side', 'type', 'price', 'trigger', 'quantity', 'filled', 'status'] as const;
  return (
    <table className="fut-table" data-testid={testId}>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th key={heading} scope="col">
              {t(`futures.orders.${heading}`)}
            </th>
          ))}
          {onCancel ? <th scope="col" /> : null}
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <OrderRow key={order.id} order={order} market={marketOf(order.market)} onCancel={onCancel} />
        ))}
      </tbody>
    </table>
  );
}

function OrderRow({
  order,
  market,
  onCancel,
}: {
  order: FuturesOrder;
  market: FuturesMarket | undefined;
  onCancel?: ((order: FuturesOrder) => void) | undefined;
}) {
  const { t } = useTranslation();
  const p = marketPrecision(market);
  const label = (key: string) => t(`futures.orders.${key}` as 'futures.orders.time');
  return (
    <tr data-testid={`futures-order-${order.id}`}>
      <Cell label={label('time')}>{formatDateTime(order.created_at)}</Cell>
      <Cell label={label('market')}>{marketLabel(order.market, market)}</Cell>
      <Cell label={label('side')}>
        <span className={clsx(order.side === 'buy' ? 'up' : 'down')}>{t(`futures.orders.${order.side}`)}</span>
        {order.reduce_only ? <span className="fut-badge">{t('futures.orders.reduceOnly')}</span> : null}
      </Cell>
      <Cell label={label('type')}>{t(`futures.form.types.${order.type}`)}</Cell>
      <Cell label={label('price')}>
        {order.price ? formatFuturesPrice(order.price, p.price) : t('futures.form.types.market')}
      </Cell>
      <Cell label={label('trigger')}>{formatFuturesPrice(order.stop_price, p.price)}</Cell>
      <Cell label={label('quantity')}>{formatSize(order.quantity, p.size)}</Cell>
      <Cell label={label('filled')}>{formatSize(order.filled_quantity, p.size)}</Cell>
      <Cell label={label('status')}>{t(`history.statuses.${order.status}`)}</Cell>
      {onCancel ? (
        <td>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => onCancel(order)}
            data-testid={`futures-cancel-${order.id}`}
          >
            {t('futures.orders.cancel')}
          </button>
        </td>
      ) : null}
    </tr>
  );
}
