import type { ReactNode } from 'react';
import { HistoryPager } from './history-pager.tsx';
import { HISTORY_PAGE_SIZE } from './order-queries.ts';
import { TableBody } from './table-states.tsx';

/** What a history table needs of its query. */
export type TableState = {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  hasData: boolean;
  refetch: () => unknown;
};

/** Named fields, not a spread: TanStack Query re-renders only for the result fields read. */
export function tableState(query: {
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  data: unknown;
  refetch: () => unknown;
}): TableState {
  return {
    isPending: query.isPending,
    isFetching: query.isFetching,
    error: query.error,
    hasData: query.data !== undefined,
    refetch: query.refetch,
  };
}

/**
 * An order or trade history table in its states (loading, failed with a retry, empty) with its
 * pager: the /orders and /trades cards and the history tabs under the trade page's chart.
 */
export function PagedHistoryTable({
  kind,
  query,
  isEmpty,
  empty,
  page,
  total,
  onPage,
  hideSinglePage = false,
  children,
}: {
  kind: 'orders' | 'trades';
  query: TableState;
  isEmpty: boolean;
  empty: ReactNode;
  page: number;
  total: number;
  onPage: (page: number) => void;
  hideSinglePage?: boolean;
  children: ReactNode;
}) {
  return (
    <TableBody
      isPending={query.isPending}
      error={query.error}
      hasData={query.hasData}
      isEmpty={isEmpty}
      fallbackKey={`history.${kind}.failed`}
      onRetry={() => void query.refetch()}
      empty={empty}
    >
      {children}
      <HistoryPager
        page={page}
        limit={HISTORY_PAGE_SIZE}
        total={total}
        busy={query.isFetching}
        onPage={onPage}
        hideSinglePage={hideSinglePage}
      />
    </TableBody>
  );
}
