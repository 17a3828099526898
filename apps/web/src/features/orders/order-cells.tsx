import type { Order, OrderSide, OrderStatus } from '@platform/contracts';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { historyTexts } from '../../i18n/locales/en-history.ts';
import { pairSymbol } from '../../lib/format.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import type { Tone } from '../../theme/status.ts';
import {
  filledPercent,
  formatExact,
  formatLocalDateTime,
  formatOrderPrice,
  isoTime,
  type PairsById,
} from './order-format.ts';

/** Cells shared by the order and trade tables. */

/** Narrower than this, the tables stack their figures in fewer columns (see StackedCell). */
export const NARROW_TABLE_PX = 720;

/** A time in the reader's locale, with its ISO form for machines. */
function LocalTime({ value }: { value: string | number }) {
  // Read in render so a language change (which re-renders translated screens) rewrites it.
  useTranslation();
  return <time dateTime={isoTime(value)}>{formatLocalDateTime(value)}</time>;
}

export function TimeCell({ value }: { value: string | number }) {
  return (
    <td className="orders-time tabular">
      <LocalTime value={value} />
    </td>
  );
}

/** The pair, linked to its trade page. */
function PairLink({ pairId }: { pairId: string }) {
  const symbol = pairSymbol(pairId);
  return (
    <Link className="orders-pair-link" to={`/trade?pair=${encodeURIComponent(symbol)}`}>
      {symbol}
    </Link>
  );
}

export function PairCell({ pairId }: { pairId: string }) {
  return (
    <td>
      <PairLink pairId={pairId} />
    </td>
  );
}

/** Buy or Sell, in its colour. */
function SideLabel({ side }: { side: OrderSide }) {
  const { t } = useTranslation();
  return <span className={clsx('orders-side', `orders-side-${side}`)}>{t(`history.sides.${side}`)}</span>;
}

export function SideCell({ side }: { side: OrderSide }) {
  return (
    <td>
      <SideLabel side={side} />
    </td>
  );
}

const STATUS_TONE: Record<OrderStatus, Tone> = {
  pending: 'info',
  partial: 'info',
  filled: 'success',
  completed: 'success',
  cancelled: 'neutral',
  expired: 'neutral',
  rejected: 'danger',
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <span className="orders-status" data-tone={STATUS_TONE[status]}>
      {t(`history.statuses.${status}`)}
    </span>
  );
}

export function StatusCell({ status }: { status: OrderStatus }) {
  return (
    <td>
      <StatusBadge status={status} />
    </td>
  );
}

/** A right-aligned figure; `title` carries the exact value where the cell shows it rounded. */
export function NumberCell({ children, title, className }: { children: string; title?: string; className?: string }) {
  return (
    <td className={clsx('num tabular', className)} title={title}>
      {children}
    </td>
  );
}

/**
 * The narrow tables' cells (under the trade page's chart, phones): several figures stacked in one
 * cell, the first in the text colour, the rest under it in a smaller muted line. Null lines are left out.
 */
export function StackedCell({ lines, num = false }: { lines: readonly ReactNode[]; num?: boolean }) {
  return (
    <td className={clsx('orders-stack', num && 'num tabular')}>
      {lines.map((line, index) =>
        line === null || line === undefined ? null : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines are fixed in number and order.
          <div key={index} className={index === 0 ? 'orders-stack-main' : 'orders-stack-sub'}>
            {line}
          </div>
        ),
      )}
    </td>
  );
}

/** A narrow table's heading: what the cell's first line is, and under it what the next lines are. */
export function StackedHeading({ top, bottom, num = false }: { top: string; bottom?: string; num?: boolean }) {
  return (
    <th scope="col" className={clsx('orders-stack', num && 'num')}>
      <div>{top}</div>
      {bottom ? <div className="orders-stack-sub">{bottom}</div> : null}
    </th>
  );
}

/** The pair (linked), the side and the kind of order or trade, and the time: a narrow table's first cell. */
export function OrderSummaryCell({
  pairId,
  side,
  kind,
  time,
}: {
  pairId: string;
  side: OrderSide;
  kind: string;
  time: string | number;
}) {
  return (
    <StackedCell
      lines={[
        <PairLink key="pair" pairId={pairId} />,
        <>
          <SideLabel side={side} />
          {` · ${kind}`}
        </>,
        <span key="time" className="tabular">
          <LocalTime value={time} />
        </span>,
      ]}
    />
  );
}

/** How much of an order has filled, with its percentage. */
export function FilledAmount({ order }: { order: Pick<Order, 'filled_quantity' | 'quantity'> }) {
  const percent = filledPercent(order);
  return (
    <>
      {formatExact(order.filled_quantity)}
      {percent === null ? null : <span className="orders-percent">{localizedNumber(percent)}%</span>}
    </>
  );
}

/** An order's first three cells in a narrow table: what it is, its prices, its amount and fill. */
export function NarrowOrderCells({ order, priceLines }: { order: Order; priceLines: readonly ReactNode[] }) {
  const { t } = useTranslation();
  return (
    <>
      <OrderSummaryCell
        pairId={order.trading_pair}
        side={order.side}
        kind={t(`history.types.${order.type}`)}
        time={order.created_at}
      />
      <StackedCell num lines={priceLines} />
      <StackedCell
        num
        lines={[formatExact(order.quantity ?? order.quote_amount), <FilledAmount key="filled" order={order} />]}
      />
    </>
  );
}

type HistoryColumn = keyof typeof historyTexts.columns;

/** Columns of figures, set right so digits line up under their heading. */
const NUMERIC_COLUMNS: ReadonlySet<HistoryColumn> = new Set([
  'price',
  'stopPrice',
  'averagePrice',
  'amount',
  'filled',
  'total',
  'fee',
]);

/** A wide table's headings, one per column (figures' headings set right). */
export function ColumnHeadings({ columns }: { columns: readonly HistoryColumn[] }) {
  const { t } = useTranslation();
  return (
    <>
      {columns.map((column) => (
        <th key={column} scope="col" className={NUMERIC_COLUMNS.has(column) ? 'num' : undefined}>
          {t(`history.columns.${column}`)}
        </th>
      ))}
    </>
  );
}

/** An order's first cells in a wide table: time, pair, side, type, price and stop price. */
export function WideOrderCells({ order, pairs }: { order: Order; pairs: PairsById }) {
  const { t } = useTranslation();
  const pair = pairs.get(order.trading_pair);
  return (
    <>
      <TimeCell value={order.created_at} />
      <PairCell pairId={order.trading_pair} />
      <SideCell side={order.side} />
      <td>{t(`history.types.${order.type}`)}</td>
      <NumberCell>{formatOrderPrice(order.price, order.trading_pair, pair)}</NumberCell>
      <NumberCell>{formatOrderPrice(order.stop_price, order.trading_pair, pair)}</NumberCell>
    </>
  );
}
