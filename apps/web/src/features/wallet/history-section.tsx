import { WALLET_TRANSACTION_TYPES, type WalletTransactionType } from '@platform/contracts';
import clsx from 'clsx';
import { ChevronLeft, ChevronRight, History } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import {
  formatDateTime,
  formatExactAmount,
  formatSignedAmount,
  pageCount,
  shortReference,
  transferWalletStatus,
} from './history-model.ts';
import {
  useTransferHistory,
  useWalletBalances,
  useWalletTransactions,
  WALLET_HISTORY_PAGE_SIZE,
} from './use-wallet.ts';

type HistoryView = 'transactions' | 'transfers';
const historyViews: readonly HistoryView[] = ['transactions', 'transfers'];

/** Spec §2.7 history: what moved the balances (filtered by type and currency), and the transfers. */
export function HistorySection() {
  const { t } = useTranslation();
  const [view, setView] = useState<HistoryView>('transactions');
  return (
    <section className="wallet-card wallet-history" aria-labelledby="wallet-history-title" data-testid="wallet-history">
      <header className="wallet-card-header">
        <h2 id="wallet-history-title" className="wallet-card-title">
          {t('wallet.history.title')}
        </h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">{t('wallet.history.views')}</legend>
          {historyViews.map((option) => (
            <button
              key={option}
              type="button"
              className={clsx('segment', view === option && 'active')}
              aria-pressed={view === option}
              onClick={() => setView(option)}
              data-testid={`history-view-${option}`}
            >
              {t(`wallet.history.${option}`)}
            </button>
          ))}
        </fieldset>
      </header>
      {view === 'transactions' ? <TransactionsView /> : <TransfersView />}
    </section>
  );
}

function TransactionsView() {
  const { t, i18n } = useTranslation();
  const [type, setType] = useState<WalletTransactionType | ''>('');
  const [currency, setCurrency] = useState('');
  const [page, setPage] = useState(1);
  const typeId = useId();
  const currencyId = useId();
  const balances = useWalletBalances();
  const filter = {
    type: type || undefined,
    currency: currency || undefined,
    page,
    limit: WALLET_HISTORY_PAGE_SIZE,
  };
  const query = useWalletTransactions(filter);
  const filtered = type !== '' || currency !== '';

  return (
    <>
      <div className="wallet-filters">
        <div className="field">
          <label className="field-label" htmlFor={typeId}>
            {t('wallet.history.type')}
          </label>
          <select
            id={typeId}
            className="input select"
            value={type}
            data-testid="history-type"
            onChange={(event) => {
              setType(event.target.value as WalletTransactionType | '');
              setPage(1);
            }}
          >
            <option value="">{t('wallet.history.allTypes')}</option>
            {WALLET_TRANSACTION_TYPES.map((option) => (
              <option key={option} value={option}>
                {t(`wallet.history.types.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={currencyId}>
            {t('wallet.history.currency')}
          </label>
          <select
            id={currencyId}
            className="input select"
            value={currency}
            data-testid="history-currency"
            onChange={(event) => {
              setCurrency(event.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('wallet.history.allCurrencies')}</option>
            {(balances.data ?? []).map((balance) => (
              <option key={balance.currency} value={balance.currency}>
                {balance.currency}
              </option>
            ))}
          </select>
        </div>
      </div>
      <HistoryBody
        isPending={query.isPending}
        error={query.isError && !query.data ? query.error : null}
        errorFallbackKey="wallet.history.transactionsFailed"
        onRetry={() => void query.refetch()}
        isEmpty={query.data?.transactions.length === 0}
        emptyText={filtered ? t('wallet.history.emptyFiltered') : t('wallet.history.emptyTransactions')}
      >
        <div className="wallet-table-wrap">
          <table className="wallet-table" data-testid="transactions-table">
            <thead>
              <tr>
                <th scope="col">{t('wallet.history.date')}</th>
                <th scope="col">{t('wallet.history.type')}</th>
                <th scope="col" className="num">
                  {t('wallet.history.amount')}
                </th>
                <th scope="col" className="col-reference">
                  {t('wallet.history.reference')}
                </th>
              </tr>
            </thead>
            <tbody>
              {query.data?.transactions.map((transaction) => (
                <tr key={`${transaction.id}-${transaction.currency}`}>
                  <td>
                    <DateTime iso={transaction.created_at} locale={i18n.language} />
                  </td>
                  <td>{t(`wallet.history.types.${transaction.type}`)}</td>
                  <td
                    className={clsx(
                      'num tabular',
                      transaction.amount.startsWith('-') ? 'wallet-amount-out' : 'wallet-amount-in',
                    )}
                  >
                    {formatSignedAmount(transaction.amount)} {transaction.currency}
                  </td>
                  <td className="col-reference mono muted" title={transaction.reference}>
                    {shortReference(transaction.reference)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </HistoryBody>
      <PageOf data={query.data} busy={query.isFetching} onPage={setPage} />
    </>
  );
}

function TransfersView() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useTransferHistory({ page, limit: WALLET_HISTORY_PAGE_SIZE });
  const user = (username: string | null) => username ?? t('wallet.history.unknownUser');

  return (
    <>
      <HistoryBody
        isPending={query.isPending}
        error={query.isError && !query.data ? query.error : null}
        errorFallbackKey="wallet.errors.failedToGetTransferHistory"
        onRetry={() => void query.refetch()}
        isEmpty={query.data?.transfers.length === 0}
        emptyText={t('wallet.history.emptyTransfers')}
      >
        <div className="wallet-table-wrap">
          <table className="wallet-table" data-testid="transfers-table">
            <thead>
              <tr>
                <th scope="col">{t('wallet.history.date')}</th>
                <th scope="col">{t('wallet.history.counterparty')}</th>
                <th scope="col" className="num">
                  {t('wallet.history.amount')}
                </th>
                <th scope="col" className="col-status">
                  {t('wallet.history.status')}
                </th>
              </tr>
            </thead>
            <tbody>
              {query.data?.transfers.map((transfer) => {
                const status = transferWalletStatus(transfer.status);
                const sent = transfer.direction === 'sent';
                const statusBadge = (
                  <span className={clsx('badge', `wallet-status-${status}`)} title={transfer.reason ?? undefined}>
                    {t(`wallet.history.statuses.${status}`)}
                  </span>
                );
                const counterparty = sent
                  ? t('wallet.history.sentTo', { username: user(transfer.to_username) })
                  : t('wallet.history.receivedFrom', { username: user(transfer.from_username) });
                return (
                  <tr key={transfer.id} data-testid={`transfer-${transfer.id}`}>
                    <td>
                      <DateTime iso={transfer.created_at} locale={i18n.language} />
                    </td>
                    <td>
                      <span className="wallet-counterparty" title={counterparty}>
                        {counterparty}
                      </span>
                      {transfer.memo ? (
                        <span className="wallet-memo" title={transfer.memo}>
                          {transfer.memo}
                        </span>
                      ) : null}
                    </td>
                    <td className={clsx('num tabular', sent ? 'wallet-amount-out' : 'wallet-amount-in')}>
                      {sent ? '-' : '+'}
                      {formatExactAmount(transfer.amount)} {transfer.currency}
                      {/* On a phone the status column is hidden and the badge sits under the amount. */}
                      <span className="wallet-status-inline" aria-hidden="true">
                        {statusBadge}
                      </span>
                    </td>
                    <td className="col-status">{statusBadge}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </HistoryBody>
      <PageOf data={query.data} busy={query.isFetching} onPage={setPage} />
    </>
  );
}

/** The pager under a list, once its first page has come. */
export function PageOf({
  data,
  busy,
  onPage,
}: {
  data: { page: number; total: number; limit: number } | undefined;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  if (!data) return null;
  return <Pager page={data.page} pages={pageCount(data.total, data.limit)} onPage={onPage} busy={busy} />;
}

/** Date over time, so the column stays narrow on a phone. */
export function DateTime({ iso, locale }: { iso: string; locale: string }) {
  const { date, time } = formatDateTime(iso, locale);
  return (
    <time className="wallet-datetime" dateTime={iso}>
      <span>{date}</span>
      <span className="wallet-time">{time}</span>
    </time>
  );
}

export function HistoryBody({
  isPending,
  error,
  errorFallbackKey,
  onRetry,
  isEmpty,
  emptyText,
  children,
}: {
  isPending: boolean;
  error: unknown;
  errorFallbackKey: string;
  onRetry: () => void;
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (isPending) {
    return (
      <div className="wallet-table-skeleton" aria-busy="true">
        <span className="skeleton-block skeleton-line" />
        <span className="skeleton-block skeleton-line" />
        <span className="visually-hidden">{t('app.loading')}</span>
      </div>
    );
  }
  if (error) {
    return (
      <div className="wallet-empty" role="alert">
        <p>{errorMessage(error, t, errorFallbackKey)}</p>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  if (isEmpty) {
    return (
      <div className="wallet-empty" data-testid="history-empty">
        <History size={22} aria-hidden="true" className="wallet-empty-icon" />
        <p>{emptyText}</p>
      </div>
    );
  }
  return children;
}

function Pager({
  page,
  pages,
  onPage,
  busy,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="wallet-pager" aria-label={t('wallet.history.title')} aria-busy={busy || undefined}>
      <button
        type="button"
        className="icon-button icon-button-sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('wallet.history.previous')}
        title={t('wallet.history.previous')}
      >
        <ChevronLeft size={16} aria-hidden="true" className="flip-rtl" />
      </button>
      <span className="muted">{t('wallet.history.page', { page, pages })}</span>
      <button
        type="button"
        className="icon-button icon-button-sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label={t('wallet.history.next')}
        title={t('wallet.history.next')}
      >
        <ChevronRight size={16} aria-hidden="true" className="flip-rtl" />
      </button>
    </nav>
  );
}
