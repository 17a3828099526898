import { type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { tradingApi } from '../../api/trading.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { usePairs } from '../market-data/index.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { ExportCsvButton } from './export-csv-button.tsx';
import { fetchAllRows, ordersCsv, tradesCsv } from './history-csv.ts';
import {
  type HistoryFilterValues,
  isFiltered,
  parseHistorySearch,
  toHistorySearch,
  toOrdersFilter,
  toTradesFilter,
} from './history-filter.ts';
import { HistoryFilters } from './history-filters.tsx';
import { OrderHistoryTable, TradeHistoryTable } from './history-tables.tsx';
import { OpenOrdersPanel } from './open-orders-panel.tsx';
import { pairsById } from './order-format.ts';
import { HISTORY_PAGE_SIZE, useOpenOrders, useOrderHistory, useTradeHistory } from './order-queries.ts';
import { PagedHistoryTable, type TableState, tableState } from './paged-history-table.tsx';
import { SignInPrompt } from './table-states.tsx';
import { useLiveOrders } from './use-live-orders.ts';
import '../../theme/orders.css';

/**
 * /orders and /trades (spec §2.1 Order History, Trade History). The routes are open; the data needs
 * a login. Filters and the page live in the URL's query, so a filtered view can be linked.
 */

function useHistorySearch(): [HistoryFilterValues, (next: HistoryFilterValues) => void] {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => parseHistorySearch(params), [params]);
  // Replace, not push: typing a date or stepping through pages should not fill the back button.
  const update = useCallback(
    (next: HistoryFilterValues) => setParams(toHistorySearch(next), { replace: true }),
    [setParams],
  );
  return [values, update];
}

export function OrderHistoryPage() {
  const { t } = useTranslation();
  useLiveOrders();
  const accountId = useSignedInAccountId();
  return (
    <div className="screen screen-wide orders-screen" data-testid="orders-screen">
      <PageHeader title={t('pages.orders.title')} description={t('pages.orders.description')} />
      {accountId === null ? (
        <section className="orders-card">
          <SignInPrompt hint={t('history.signedOut.ordersHint')} />
        </section>
      ) : (
        <>
          <OpenOrdersCard />
          <OrderHistoryCard accountId={accountId} />
        </>
      )}
    </div>
  );
}

function OpenOrdersCard() {
  const { t } = useTranslation();
  const count = useOpenOrders().data?.orders.length;
  return (
    <section className="orders-card" aria-labelledby="open-orders-title">
      <header className="orders-card-header">
        <h2 id="open-orders-title" className="orders-card-title">
          {t('history.open.title')}
          {count === undefined ? null : <span className="orders-count tabular">{count}</span>}
        </h2>
      </header>
      <OpenOrdersPanel pairId={null} />
    </section>
  );
}

export function TradeHistoryPage() {
  const { t } = useTranslation();
  useLiveOrders();
  const accountId = useSignedInAccountId();
  return (
    <div className="screen screen-wide orders-screen" data-testid="trades-screen">
      <PageHeader title={t('pages.trades.title')} description={t('pages.trades.description')} />
      {accountId === null ? (
        <section className="orders-card">
          <SignInPrompt hint={t('history.signedOut.ordersHint')} />
        </section>
      ) : (
        <TradeHistoryCard accountId={accountId} />
      )}
    </div>
  );
}

/** What the two history cards share: title, CSV export, filters, the table's states and the pager. */
function HistoryCard({
  kind,
  values,
  onChange,
  total,
  rowCount,
  query,
  buildCsv,
  children,
}: {
  kind: 'orders' | 'trades';
  values: HistoryFilterValues;
  onChange: (next: HistoryFilterValues) => void;
  total: number;
  rowCount: number | undefined;
  query: TableState;
  buildCsv: () => Promise<{ text: string; count: number; truncated: boolean }>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = kind === 'orders' ? 'order-history-title' : 'trade-history-title';
  return (
    <section className="orders-card" aria-labelledby={titleId}>
      <header className="orders-card-header">
        <h2 id={titleId} className="orders-card-title">
          {t(`history.${kind}.title`)}
        </h2>
        <ExportCsvButton kind={kind} disabled={total === 0} build={buildCsv} />
      </header>
      <HistoryFilters values={values} onChange={onChange} kind={kind} />
      <PagedHistoryTable
        kind={kind}
        query={query}
        isEmpty={rowCount === 0 && total === 0}
        empty={isFiltered(values) ? t(`history.${kind}.emptyFiltered`) : t(`history.${kind}.empty`)}
        page={values.page}
        total={total}
        onPage={(page) => onChange({ ...values, page })}
      >
        {children}
      </PagedHistoryTable>
    </section>
  );
}

function OrderHistoryCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useHistorySearch();
  const filter = useMemo(() => toOrdersFilter(values), [values]);
  const query = useOrderHistory({ ...filter, limit: HISTORY_PAGE_SIZE, page: values.page });
  const pairs = pairsById(usePairs().data);
  const buildCsv = async () => {
    const { rows, truncated } = await fetchAllRows(
      async (page, limit) => {
        const answer = await tradingApi.orders(accountId, { ...filter, page, limit });
        return { rows: answer.orders, total: answer.pagination.total };
      },
      (order) => order.id,
    );
    return { text: ordersCsv(rows, (column) => t(`history.columns.${column}`)), count: rows.length, truncated };
  };
  return (
    <HistoryCard
      kind="orders"
      values={values}
      onChange={setValues}
      total={query.data?.pagination.total ?? 0}
      rowCount={query.data?.orders.length}
      query={tableState(query)}
      buildCsv={buildCsv}
    >
      <OrderHistoryTable orders={query.data?.orders ?? []} pairs={pairs} />
    </HistoryCard>
  );
}

function TradeHistoryCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useHistorySearch();
  const filter = useMemo(() => toTradesFilter(values), [values]);
  const query = useTradeHistory({ ...filter, limit: HISTORY_PAGE_SIZE, page: values.page });
  const pairs = pairsById(usePairs().data);
  const buildCsv = async () => {
    const { rows, truncated } = await fetchAllRows(
      async (page, limit) => {
        const answer = await tradingApi.trades(accountId, { ...filter, page, limit });
        return { rows: answer.trades, total: answer.pagination.total };
      },
      (trade) => `${trade.id}:${trade.order_id}`,
    );
    return { text: tradesCsv(rows, (column) => t(`history.columns.${column}`)), count: rows.length, truncated };
  };
  return (
    <HistoryCard
      kind="trades"
      values={values}
      onChange={setValues}
      total={query.data?.pagination.total ?? 0}
      rowCount={query.data?.trades.length}
      query={tableState(query)}
      buildCsv={buildCsv}
    >
      <TradeHistoryTable trades={query.data?.trades ?? []} pairs={pairs} />
    </HistoryCard>
  );
}
