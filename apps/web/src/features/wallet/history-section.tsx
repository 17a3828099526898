import { WALLET_TRANSACTION_TYPES, type WalletTransactionType } from '@platform/contracts';
import clsx from 'clsx';
import { ChevronLeft, ChevronRight, History } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../components/ui/segmented.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { STATUS_TONE_THEME } from '../payments/payment-model.ts';
import {
  formatDateTime,
  formatExactAmount,
  formatSignedAmount,
  pageCount,
  shortReference,
  transferWalletStatus,
} from './history-model.ts';
import { LoadFailed, LoadingLines } from './load-states.tsx';
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
        <Segmented
          legend={t('wallet.history.views')}
          options={historyViews}
          value={view}
          onChange={setView}
          label={(option) => t(`wallet.history.${option}`)}
          testId={(option) => `history-view-${option}`}
        />
      </header>
      {view === 'transactions' ? <TransactionsView /> : <TransfersView />}
    </section>
  );
}

function TransactionsView() {
  const [type, setType] = useState<WalletTransactionType | ''>('');
  const [currency, setCurrency] = useState('');
  const [page, setPage] = useState(1);
  const query = useWalletTransactions({
    type: type || undefined,
    currency: currency || undefined,
    page,
    limit: WALLET_HISTORY_PAGE_SIZE,
  });

  return (
    <>
      <div className="wallet-filters">
        <TransactionFilterFields
          type={type}
          currency={currency}
          onType={(next) => {
            setType(next);
            setPage(1);
          }}
          onCurrency={(next) => {
            setCurrency(next);
            setPage(1);
          }}
          testIdPrefix="history"
        />
      </div>
      <TransactionsTable
        query={query}
        filtered={type !== '' || currency !== ''}
        onPage={setPage}
        testId="transactions-table"
      />
    </>
  );
}

/** The type and currency filters of a transaction list; a currency is one the wallet holds. */
export function TransactionFilterFields({
  type,
  currency,
  onType,
  onCurrency,
  testIdPrefix,
}: {
  type: WalletTransactionType | '';
  currency: string;
  onType: (type: WalletTransactionType | '') => void;
  onCurrency: (currency: string) => void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const balances = useWalletBalances();
  return (
    <>
      <SelectField
        label={t('wallet.history.type')}
        value={type}
        data-testid={`${testIdPrefix}-type`}
        onChange={(event) => onType(event.target.value as WalletTransactionType | '')}
      >
        <option value="">{t('wallet.history.allTypes')}</option>
        {WALLET_TRANSACTION_TYPES.map((option) => (
          <option key={option} value={option}>
            {t(`wallet.history.types.${option}`)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('wallet.history.currency')}
        value={currency}
        data-testid={`${testIdPrefix}-currency`}
        onChange={(event) => onCurrency(event.target.value)}
      >
        <option value="">{t('wallet.history.allCurrencies')}</option>
        {(balances.data ?? []).map((balance) => (
          <option key={balance.currency} value={balance.currency}>
            {balance.currency}
          </option>
        ))}
      </SelectField>
    </>
  );
}

/** A page of the account's transactions (what moved the balances) with its pager. */
export function TransactionsTable({
  query,
  filtered,
  onPage,
  testId,
}: {
  query: ReturnType<typeof useWalletTransactions>;
  filtered: boolean;
  onPage: (page: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <HistoryBody
        isPending={query.isPending}
        error={query.isError && !query.data ? query.error : null}
        errorFallbackKey="wallet.history.transactionsFailed"
        onRetry={() => void query.refetch()}
        isEmpty={query.data?.transactions.length === 0}
        emptyText={filtered ? t('wallet.history.emptyFiltered') : t('wallet.history.emptyTransactions')}
      >
        <div className="wallet-table-wrap">
          <table className="wallet-table" data-testid={testId}>
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
                    <DateTime iso={transaction.created_at} />
                  </td>
                  <td>
                    {t(`wallet.history.types.${transaction.type}`)}
                    {transaction.counterparty ? (
                      // A transfer names the other side: who sent it, or to whom it went.
                      <span className="muted wallet-counterparty" data-testid="transaction-counterparty">
                        {' · '}
                        {transaction.type === 'transfer_out'
                          ? t('wallet.history.sentTo', { username: transaction.counterparty })
                          : t('wallet.history.receivedFrom', { username: transaction.counterparty })}
                      </span>
                    ) : null}
                  </td>
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
      <PageOf data={query.data} busy={query.isFetching} onPage={onPage} />
    </>
  );
}

function TransfersView() {
  const { t } = useTranslation();
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
                  <span
                    className="badge wallet-badge"
                    data-tone={STATUS_TONE_THEME[status]}
                    title={transfer.reason ?? undefined}
                  >
                    {t(`wallet.history.statuses.${status}`)}
                  </span>
                );
                const counterparty = sent
                  ? t('wallet.history.sentTo', { username: user(transfer.to_username) })
                  : t('wallet.history.receivedFrom', { username: user(transfer.from_username) });
                return (
                  <tr key={transfer.id} data-testid={`transfer-${transfer.id}`}>
                    <td>
                      <DateTime iso={transfer.created_at} />
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
function PageOf({
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
export function DateTime({ iso }: { iso: string }) {
  const { date, time } = formatDateTime(iso);
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
  if (isPending) return <LoadingLines />;
  if (error) return <LoadFailed message={errorMessage(error, t, errorFallbackKey)} onRetry={onRetry} />;
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
