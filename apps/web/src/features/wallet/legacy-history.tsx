import { WALLET_TRANSACTION_TYPES, type WalletTransactionType } from '@platform/contracts';
import clsx from 'clsx';
import { FilterX } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { formatSignedAmount, shortReference } from './history-model.ts';
import { DateTime, HistoryBody, PageOf } from './history-section.tsx';
import { emptyHistoryFilter, type HistoryFilterValues, historyQuery, isFiltered } from './legacy-history-filter.ts';
import { useWalletBalances, useWalletTransactions, WALLET_HISTORY_PAGE_SIZE } from './use-wallet.ts';

/**
 * The account's full transaction history (GET /v1/wallet/transactions): every movement of every
 * balance, filtered by type, currency and a range of days. The rows, states and pager are the
 * Triple-A wallet's history's own (history-section.tsx, history-model.ts).
 */
export function LegacyHistory() {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<HistoryFilterValues>(emptyHistoryFilter);
  const [page, setPage] = useState(1);
  const ids = { type: useId(), currency: useId(), from: useId(), to: useId(), range: useId() };
  const balances = useWalletBalances();
  const { filter, problem } = historyQuery(values, page, WALLET_HISTORY_PAGE_SIZE);
  const query = useWalletTransactions(filter);
  const filtered = isFiltered(values);

  const set = <K extends keyof HistoryFilterValues>(field: K, value: HistoryFilterValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setPage(1);
  };

  return (
    <section className="wallet-card" aria-labelledby="legacy-history-title" data-testid="legacy-history">
      <header className="wallet-card-header">
        <div>
          <h2 id="legacy-history-title" className="wallet-card-title">
            {t('wallet.legacy.history.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.legacy.history.description')}</p>
        </div>
        {filtered ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setValues(emptyHistoryFilter);
              setPage(1);
            }}
            icon={<FilterX size={15} aria-hidden="true" />}
            data-testid="legacy-history-clear"
          >
            {t('wallet.legacy.history.clear')}
          </Button>
        ) : null}
      </header>
      <div className="wallet-filters legacy-filters">
        <div className="field">
          <label className="field-label" htmlFor={ids.type}>
            {t('wallet.history.type')}
          </label>
          <select
            id={ids.type}
            className="input select"
            value={values.type}
            data-testid="legacy-history-type"
            onChange={(event) => set('type', event.target.value as WalletTransactionType | '')}
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
          <label className="field-label" htmlFor={ids.currency}>
            {t('wallet.history.currency')}
          </label>
          <select
            id={ids.currency}
            className="input select"
            value={values.currency}
            data-testid="legacy-history-currency"
            onChange={(event) => set('currency', event.target.value)}
          >
            <option value="">{t('wallet.history.allCurrencies')}</option>
            {(balances.data ?? []).map((balance) => (
              <option key={balance.currency} value={balance.currency}>
                {balance.currency}
              </option>
            ))}
          </select>
        </div>
        <div className={clsx('field', problem && 'field-invalid')}>
          <label className="field-label" htmlFor={ids.from}>
            {t('wallet.legacy.history.from')}
          </label>
          <input
            id={ids.from}
            type="date"
            className="input"
            value={values.fromDate}
            max={values.toDate || undefined}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? ids.range : undefined}
            data-testid="legacy-history-from"
            onChange={(event) => set('fromDate', event.target.value)}
          />
        </div>
        <div className={clsx('field', problem && 'field-invalid')}>
          <label className="field-label" htmlFor={ids.to}>
            {t('wallet.legacy.history.to')}
          </label>
          <input
            id={ids.to}
            type="date"
            className="input"
            value={values.toDate}
            min={values.fromDate || undefined}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? ids.range : undefined}
            data-testid="legacy-history-to"
            onChange={(event) => set('toDate', event.target.value)}
          />
        </div>
      </div>
      {problem ? (
        <p id={ids.range} className="field-error" role="alert" data-testid="legacy-history-range-error">
          {t('wallet.legacy.history.rangeReversed')}
        </p>
      ) : (
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
              <table className="wallet-table" data-testid="legacy-transactions-table">
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
      )}
    </section>
  );
}
