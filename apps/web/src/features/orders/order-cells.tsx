import type { OrderSide, OrderStatus } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pairSymbol } from '../../lib/format.ts';
import { formatLocalDateTime, isoTime } from './order-format.ts';

/** Cells shared by the order and trade tables. */

export function TimeCell({ value }: { value: string | number }) {
  const { i18n } = useTranslation();
  return (
    <td className="orders-time tabular">
      <time dateTime={isoTime(value)}>{formatLocalDateTime(value, i18n.language)}</time>
    </td>
  );
}

/** The pair, linked to its trade page. */
export function PairCell({ pairId }: { pairId: string }) {
  const symbol = pairSymbol(pairId);
  return (
    <td className="orders-pair">
      <Link to={`/trade?pair=${encodeURIComponent(symbol)}`}>{symbol}</Link>
    </td>
  );
}

export function SideCell({ side }: { side: OrderSide }) {
  const { t } = useTranslation();
  return <td className={clsx('orders-side', `orders-side-${side}`)}>{t(`history.sides.${side}`)}</td>;
}

const STATUS_TONE: Record<OrderStatus, 'open' | 'good' | 'neutral' | 'bad'> = {
  pending: 'open',
  partial: 'open',
  filled: 'good',
  completed: 'good',
  cancelled: 'neutral',
  expired: 'neutral',
  rejected: 'bad',
};

export function StatusCell({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <td>
      <span className={clsx('orders-status', `orders-status-${STATUS_TONE[status]}`)}>
        {t(`history.statuses.${status}`)}
      </span>
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
