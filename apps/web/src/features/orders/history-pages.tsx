import { useCallback, useMemo } from 'react';
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
import { HistoryPager } from './history-pager.tsx';
import { OrderHistoryTable, TradeHistoryTable } from './history-tables.tsx';
import { OpenOrdersPanel } from './open-orders-panel.tsx';
import { pairsById } from './order-format.ts';
import { HISTORY_PAGE_SIZE, useOpenOrders, useOrderHistory, useTradeHistory } from './order-queries.ts';
import { SignInPrompt, TableBody } from './table-states.tsx';
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

function OrderHistoryCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useHistorySearch();
  const filter = useMemo(() => toOrdersFilter(values), [values]);
  const query = useOrderHistory({ ...filter, limit: HISTORY_PAGE_SIZE, page: values.page });
  const pairs = pairsById(usePairs().data);
  const total = query.data?.pagination.total ?? 0;
  const build = async () => {
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
    <section className="orders-card" aria-labelledby="order-history-title">
      <header className="orders-card-header">
        <h2 id="order-history-title" className="orders-card-title">
          {t('history.orders.title')}
        </h2>
        <ExportCsvButton kind="orders" disabled={total === 0} build={build} />
      </header>
      <HistoryFilters values={values} onChange={setValues} kind="orders" />
      <TableBody
        isPending={query.isPending}
        error={query.error}
        hasData={query.data !== undefined}
        isEmpty={query.data?.orders.length === 0 && total === 0}
        fallbackKey="history.orders.failed"
        onRetry={() => void query.refetch()}
        empty={isFiltered(values) ? t('history.orders.emptyFiltered') : t('history.orders.empty')}
      >
        <OrderHistoryTable orders={query.data?.orders ?? []} pairs={pairs} />
        <HistoryPager
          page={values.page}
          limit={HISTORY_PAGE_SIZE}
          total={total}
          busy={query.isFetching}
          onPage={(page) => setValues({ ...values, page })}
        />
      </TableBody>
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

function TradeHistoryCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const [values, setValues] = useHistorySearch();
  const filter = useMemo(() => toTradesFilter(values), [values]);
  const query = useTradeHistory({ ...filter, limit: HISTORY_PAGE_SIZE, page: values.page });
  const pairs = pairsById(usePairs().data);
  const total = query.data?.pagination.total ?? 0;
  const build = async () => {
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
    <section className="orders-card" aria-labelledby="trade-history-title">
      <header className="orders-card-header">
        <h2 id="trade-history-title" className="orders-card-title">
          {t('history.trades.title')}
        </h2>
        <ExportCsvButton kind="trades" disabled={total === 0} build={build} />
      </header>
      <HistoryFilters values={values} onChange={setValues} kind="trades" />
      <TableBody
        isPending={query.isPending}
        error={query.error}
        hasData={query.data !== undefined}
        isEmpty={query.data?.trades.length === 0 && total === 0}
        fallbackKey="history.trades.failed"
        onRetry={() => void query.refetch()}
        empty={isFiltered(values) ? t('history.trades.emptyFiltered') : t('history.trades.empty')}
      >
        <TradeHistoryTable trades={query.data?.trades ?? []} pairs={pairs} />
        <HistoryPager
          page={values.page}
          limit={HISTORY_PAGE_SIZE}
          total={total}
          busy={query.isFetching}
          onPage={(page) => setValues({ ...values, page })}
        />
      </TableBody>
    </section>
  );
}
