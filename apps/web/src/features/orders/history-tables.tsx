import type { AccountTrade, Order } from '@platform/contracts';
import { useTranslation } from 'react-i18next';
import { formatCurrencyAmount } from '../../lib/number-format.ts';
import {
  ColumnHeadings,
  FilledAmount,
  NarrowOrderCells,
  NumberCell,
  OrderSummaryCell,
  PairCell,
  SideCell,
  StackedCell,
  StackedHeading,
  StatusBadge,
  StatusCell,
  TimeCell,
  WideOrderCells,
} from './order-cells.tsx';
import { formatExact, formatFee, formatOrderPrice, formatOrderTotal, type PairsById } from './order-format.ts';
import { OrdersTable } from './orders-table.tsx';

/** The order history and the trade history as tables (spec §3.6 labels). */

export function OrderHistoryTable({ orders, pairs }: { orders: readonly Order[]; pairs: PairsById }) {
  const { t } = useTranslation();
  return (
    <OrdersTable
      testId="order-history-table"
      headings={(narrow) =>
        narrow ? (
          <>
            <StackedHeading top={t('history.columns.pair')} bottom={t('history.columns.sideTypeTime')} />
            <StackedHeading top={t('history.columns.price')} bottom={t('history.columns.averagePrice')} num />
            <StackedHeading top={t('history.columns.amount')} bottom={t('history.columns.filled')} num />
            <StackedHeading top={t('history.columns.status')} bottom={t('history.columns.total')} num />
          </>
        ) : (
          <ColumnHeadings
            columns={[
              'time',
              'pair',
              'side',
              'type',
              'price',
              'stopPrice',
              'averagePrice',
              'amount',
              'filled',
              'total',
              'fee',
              'status',
            ]}
          />
        )
      }
      rows={(narrow) =>
        orders.map((order) => {
          const pair = pairs.get(order.trading_pair);
          const price = (value: string | null) => formatOrderPrice(value, order.trading_pair, pair);
          return (
            <tr key={order.id} data-testid="order-history-row" data-order-id={order.id}>
              {narrow ? (
                <>
                  <NarrowOrderCells
                    order={order}
                    priceLines={[
                      price(order.price),
                      price(order.average_price),
                      order.stop_price === null
                        ? null
                        : t('history.columns.stopLine', { price: price(order.stop_price) }),
                    ]}
                  />
                  <StackedCell
                    num
                    lines={[
                      <StatusBadge key="status" status={order.status} />,
                      formatOrderTotal(order.total, order.trading_pair, pair),
                    ]}
                  />
                </>
              ) : (
                <>
                  <WideOrderCells order={order} pairs={pairs} />
                  <NumberCell>{price(order.average_price)}</NumberCell>
                  <NumberCell>{formatExact(order.quantity ?? order.quote_amount)}</NumberCell>
                  <td className="num tabular">
                    <FilledAmount order={order} />
                  </td>
                  <NumberCell>{formatOrderTotal(order.total, order.trading_pair, pair)}</NumberCell>
                  <NumberCell className="muted">{formatFee(order.fee, order.fee_currency)}</NumberCell>
                  <StatusCell status={order.status} />
                </>
              )}
            </tr>
          );
        })
      }
    />
  );
}

export function TradeHistoryTable({ trades, pairs }: { trades: readonly AccountTrade[]; pairs: PairsById }) {
  const { t } = useTranslation();
  return (
    <OrdersTable
      testId="trade-history-table"
      headings={(narrow) =>
        narrow ? (
          <>
            <StackedHeading top={t('history.columns.pair')} bottom={t('history.columns.sideRoleTime')} />
            <StackedHeading top={t('history.columns.price')} num />
            <StackedHeading top={t('history.columns.amount')} bottom={t('history.columns.total')} num />
            <StackedHeading top={t('history.columns.fee')} num />
          </>
        ) : (
          <ColumnHeadings columns={['time', 'pair', 'side', 'role', 'price', 'amount', 'total', 'fee']} />
        )
      }
      rows={(narrow) =>
        trades.map((trade) => {
          const pair = pairs.get(trade.trading_pair);
          const price = formatOrderPrice(trade.price, trade.trading_pair, pair);
          const total = formatOrderTotal(trade.total, trade.trading_pair, pair);
          const role = t(`history.roles.${trade.role}`);
          return (
            <tr key={`${trade.id}-${trade.order_id}`} data-testid="trade-history-row" data-trade-id={trade.id}>
              {narrow ? (
                <>
                  <OrderSummaryCell pairId={trade.trading_pair} side={trade.side} kind={role} time={trade.timestamp} />
                  <StackedCell num lines={[price]} />
                  <StackedCell num lines={[formatExact(trade.quantity), total]} />
                  <StackedCell num lines={[formatCurrencyAmount(trade.fee, trade.fee_currency), trade.fee_currency]} />
                </>
              ) : (
                <>
                  <TimeCell value={trade.timestamp} />
                  <PairCell pairId={trade.trading_pair} />
                  <SideCell side={trade.side} />
                  <td className="muted">{role}</td>
                  <NumberCell>{price}</NumberCell>
                  <NumberCell>{formatExact(trade.quantity)}</NumberCell>
                  <NumberCell>{total}</NumberCell>
                  <NumberCell className="muted">{formatFee(trade.fee, trade.fee_currency)}</NumberCell>
                </>
              )}
            </tr>
          );
        })
      }
    />
  );
}
