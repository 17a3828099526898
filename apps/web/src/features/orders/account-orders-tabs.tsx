import { normalizePairId } from '@platform/contracts';
import clsx from 'clsx';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Segmented } from '../../components/ui/segmented.tsx';
import { pairSymbol } from '../../lib/format.ts';
import { usePairs } from '../market-data/index.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { OrderHistoryTable, TradeHistoryTable } from './history-tables.tsx';
import { OpenOrdersPanel } from './open-orders-panel.tsx';
import { pairsById } from './order-format.ts';
import { HISTORY_PAGE_SIZE, useOpenOrders, useOrderHistory, useTradeHistory } from './order-queries.ts';
import { PagedHistoryTable, tableState } from './paged-history-table.tsx';
import { SignInPrompt } from './table-states.tsx';
import { useLiveOrders } from './use-live-orders.ts';
import '../../theme/orders.css';

type OrdersTab = 'open' | 'history' | 'trades';
const TABS: readonly OrdersTab[] = ['open', 'history', 'trades'];
type PairScope = 'pair' | 'all';
const SCOPES: readonly PairScope[] = ['pair', 'all'];

/** How many open orders the tab shows (null when signed out, so no count is shown). */
function useOpenCount(accountId: string | null, shownPair: string | null): number | null {
  const openOrders = useOpenOrders();
  if (!accountId) return null;
  return (openOrders.data?.orders ?? []).filter((order) => shownPair === null || order.trading_pair === shownPair)
    .length;
}

/**
 * The account's orders under the trade page's chart: open orders (live, with cancel, cancel all
 * and modify), order history and trade history, for the page's pair or for all pairs.
 */
export function AccountOrdersTabs({ pairId }: { pairId: string }) {
  const { t } = useTranslation();
  useLiveOrders();
  const accountId = useSignedInAccountId();
  const pair = normalizePairId(pairId) ?? pairId;
  const [tab, setTab] = useState<OrdersTab>('open');
  const [scope, setScope] = useState<PairScope>('pair');
  const shownPair = scope === 'pair' ? pair : null;
  const openCount = useOpenCount(accountId, shownPair);
  const baseId = useId();
  const tabRefs = useRef(new Map<OrdersTab, HTMLButtonElement>());

  // Arrow keys move between the tabs (WAI-ARIA tabs pattern); Tab goes on into the panel.
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = TABS.indexOf(tab);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = TABS[(target + TABS.length) % TABS.length] ?? 'open';
    setTab(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <section className="orders-tabs" data-testid="account-orders-tabs" aria-label={t('history.tabs.label')}>
      <div className="orders-tabs-bar">
        <div role="tablist" className="orders-tablist" aria-label={t('history.tabs.label')}>
          {TABS.map((option) => (
            <button
              key={option}
              ref={(element) => {
                if (element) tabRefs.current.set(option, element);
                else tabRefs.current.delete(option);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${option}`}
              aria-selected={tab === option}
              aria-controls={`${baseId}-panel`}
              tabIndex={tab === option ? 0 : -1}
              className={clsx('orders-tab', tab === option && 'active')}
              onClick={() => setTab(option)}
              onKeyDown={onTabKey}
              data-testid={`orders-tab-${option}`}
            >
              {t(`history.tabs.${option}`)}
              {option === 'open' && openCount !== null ? (
                <span className="orders-count tabular" data-testid="orders-open-count">
                  {openCount}
                </span>
              ) : null}
            </button>
          ))}
        </div>
        <div className="orders-tabs-tools">
          <Segmented
            legend={t('history.tabs.scope')}
            options={SCOPES}
            value={scope}
            onChange={setScope}
            label={(option) =>
              option === 'pair' ? t('history.tabs.thisPair', { pair: pairSymbol(pair) }) : t('history.tabs.allPairs')
            }
            testId={(option) => `orders-scope-${option}`}
            className="orders-scope"
          />
          {tab !== 'open' ? (
            <Link
              className="orders-view-all"
              to={`/${tab === 'history' ? 'orders' : 'trades'}${shownPair ? `?pair=${shownPair}` : ''}`}
            >
              {t('history.tabs.viewAll')}
            </Link>
          ) : null}
        </div>
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${tab}`}
        className="orders-tab-panel"
        data-testid={`orders-panel-${tab}`}
      >
        {accountId === null ? (
          <SignInPrompt hint={t('history.signedOut.ordersHint')} />
        ) : tab === 'open' ? (
          <OpenOrdersPanel pairId={shownPair} />
        ) : tab === 'history' ? (
          <RecentOrders key={shownPair ?? 'all'} pairId={shownPair} />
        ) : (
          <RecentTrades key={shownPair ?? 'all'} pairId={shownPair} />
        )}
      </div>
    </section>
  );
}

/** Closed orders, newest first, a page at a time. */
function RecentOrders({ pairId }: { pairId: string | null }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useOrderHistory({
    status: 'closed',
    tradingPair: pairId ?? undefined,
    limit: HISTORY_PAGE_SIZE,
    page,
  });
  const pairs = pairsById(usePairs().data);
  return (
    <PagedHistoryTable
      kind="orders"
      query={tableState(query)}
      isEmpty={query.data?.orders.length === 0}
      empty={t('history.orders.empty')}
      page={page}
      total={query.data?.pagination.total ?? 0}
      onPage={setPage}
      hideSinglePage
    >
      <OrderHistoryTable orders={query.data?.orders ?? []} pairs={pairs} />
    </PagedHistoryTable>
  );
}

function RecentTrades({ pairId }: { pairId: string | null }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useTradeHistory({ tradingPair: pairId ?? undefined, limit: HISTORY_PAGE_SIZE, page });
  const pairs = pairsById(usePairs().data);
  return (
    <PagedHistoryTable
      kind="trades"
      query={tableState(query)}
      isEmpty={query.data?.trades.length === 0}
      empty={t('history.trades.empty')}
      page={page}
      total={query.data?.pagination.total ?? 0}
      onPage={setPage}
      hideSinglePage
    >
      <TradeHistoryTable trades={query.data?.trades ?? []} pairs={pairs} />
    </PagedHistoryTable>
  );
}
