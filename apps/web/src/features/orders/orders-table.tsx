import clsx from 'clsx';
import { type ReactNode, useRef } from 'react';
import { useNarrow } from '../../hooks/use-narrow.ts';
import { NARROW_TABLE_PX } from './order-cells.tsx';

/**
 * The frame of the open orders, order history and trade history tables: it measures its column
 * and gives the headings and rows the narrow (stacked) or the wide layout to draw.
 */
export function OrdersTable({
  testId,
  headings,
  rows,
}: {
  testId: string;
  headings: (narrow: boolean) => ReactNode;
  rows: (narrow: boolean) => ReactNode;
}) {
  const wrap = useRef<HTMLDivElement>(null);
  const narrow = useNarrow(wrap, NARROW_TABLE_PX);
  return (
    <div className="orders-table-wrap" ref={wrap}>
      <table className={clsx('orders-table', narrow && 'orders-table-narrow')} data-testid={testId}>
        <thead>
          <tr>{headings(narrow)}</tr>
        </thead>
        <tbody>{rows(narrow)}</tbody>
      </table>
    </div>
  );
}
