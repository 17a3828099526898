import type { AccountTrade, Order } from '@platform/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNarrow } from '../../hooks/use-narrow.ts';
import {
  ColumnHeadings,
  FilledAmount,
  NARROW_TABLE_PX,
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
} from './order-cells.tsx';
import { formatExact, formatOrderPrice, type PairsById } from './order-format.ts';

/** The order history and the trade history as tables (spec §3.6 labels). */

export function OrderHistoryTable({ orders, pairs }: { orders: readonly Order[]; pairs: PairsById }) {
  const { t } = useTranslation();
  const wrap = useRef<HTMLDivElement>(null);
  const narrow = useNarrow(wrap, NARROW_TABLE_PX);
  if (narrow) {
    return (
      <div className="orders-table-wrap" ref={wrap}>
        <table className="orders-table orders-table-narrow" data-testid="order-history-table">
          <thead>
            <tr>
              <StackedHeading top={t('history.columns.pair')} bottom={t('history.columns.sideTypeTime')} />
              <StackedHeading top={t('history.columns.price')} bottom={t('history.columns.averagePrice')} num />
              <StackedHeading top={t('history.columns.amount')} bottom={t('history.columns.filled')} num />
              <StackedHeading top={t('history.columns.status')} bottom={t('history.columns.total')} num />
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => {
              const pair = pairs.get(order.trading_pair);
              return (
                <tr key={order.id} data-testid="order-history-row" data-order-id={order.id}>
                  <NarrowOrderCells
                    order={order}
                    priceLines={[
                      formatOrderPrice(order.price, order.trading_pair, pair),
                      formatOrderPrice(order.average_price, order.trading_pair, pair),
                      order.stop_price === null
                        ? null
                        : t('history.columns.stopLine', {
                            price: formatOrderPrice(order.stop_price, order.trading_pair, pair),
                          }),
                    ]}
                  />
                  <StackedCell
                    num
                    lines={[<StatusBadge key="status" status={order.status} />, formatExact(order.total)]}
                  />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <div className="orders-table-wrap" ref={wrap}>
      <table className="orders-table" data-testid="order-history-table">
        <thead>
          <tr>
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
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const pair = pairs.get(order.trading_pair);
            return (
              <tr key={order.id} data-testid="order-history-row" data-order-id={order.id}>
                <TimeCell value={order.created_at} />
                <PairCell pairId={order.trading_pair} />
                <SideCell side={order.side} />
                <td>{t(`history.types.${order.type}`)}</td>
                <NumberCell>{formatOrderPrice(order.price, order.trading_pair, pair)}</NumberCell>
                <NumberCell>{formatOrderPrice(order.stop_price, order.trading_pair, pair)}</NumberCell>
                <NumberCell>{formatOrderPrice(order.average_price, order.trading_pair, pair)}</NumberCell>
                <NumberCell>{formatExact(order.quantity ?? order.quote_amount)}</NumberCell>
                <td className="num tabular">
                  <FilledAmount order={order} />
                </td>
                <NumberCell>{formatExact(order.total)}</NumberCell>
                <NumberCell className="muted">{`${formatExact(order.fee)} ${order.fee_currency}`}</NumberCell>
                <StatusCell status={order.status} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function TradeHistoryTable({ trades, pairs }: { trades: readonly AccountTrade[]; pairs: PairsById }) {
  const { t } = useTranslation();
  const wrap = useRef<HTMLDivElement>(null);
  const narrow = useNarrow(wrap, NARROW_TABLE_PX);
  if (narrow) {
    return (
      <div className="orders-table-wrap" ref={wrap}>
        <table className="orders-table orders-table-narrow" data-testid="trade-history-table">
          <thead>
            <tr>
              <StackedHeading top={t('history.columns.pair')} bottom={t('history.columns.sideRoleTime')} />
              <StackedHeading top={t('history.columns.price')} num />
              <StackedHeading top={t('history.columns.amount')} bottom={t('history.columns.total')} num />
              <StackedHeading top={t('history.columns.fee')} num />
            </tr>
          </thead>
          <tbody>
            {trades.map((trade) => (
              <tr key={`${trade.id}-${trade.order_id}`} data-testid="trade-history-row" data-trade-id={trade.id}>
                <OrderSummaryCell
                  pairId={trade.trading_pair}
                  side={trade.side}
                  kind={t(`history.roles.${trade.role}`)}
                  time={trade.timestamp}
                />
                <StackedCell
                  num
                  lines={[formatOrderPrice(trade.price, trade.trading_pair, pairs.get(trade.trading_pair))]}
                />
                <StackedCell num lines={[formatExact(trade.quantity), formatExact(trade.total)]} />
                <StackedCell num lines={[formatExact(trade.fee), trade.fee_currency]} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <div className="orders-table-wrap" ref={wrap}>
      <table className="orders-table" data-testid="trade-history-table">
        <thead>
          <tr>
            <ColumnHeadings columns={['time', 'pair', 'side', 'role', 'price', 'amount', 'total', 'fee']} />
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={`${trade.id}-${trade.order_id}`} data-testid="trade-history-row" data-trade-id={trade.id}>
              <TimeCell value={trade.timestamp} />
              <PairCell pairId={trade.trading_pair} />
              <SideCell side={trade.side} />
              <td className="muted">{t(`history.roles.${trade.role}`)}</td>
              <NumberCell>
                {formatOrderPrice(trade.price, trade.trading_pair, pairs.get(trade.trading_pair))}
              </NumberCell>
              <NumberCell>{formatExact(trade.quantity)}</NumberCell>
              <NumberCell>{formatExact(trade.total)}</NumberCell>
              <NumberCell className="muted">{`${formatExact(trade.fee)} ${trade.fee_currency}`}</NumberCell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
