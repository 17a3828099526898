import clsx from 'clsx';
import { FilterX } from 'lucide-react';
import { type InputHTMLAttributes, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { TransactionFilterFields, TransactionsTable } from './history-section.tsx';
import { emptyHistoryFilter, type HistoryFilterValues, historyQuery, isFiltered } from './legacy-history-filter.ts';
import { useWalletTransactions, WALLET_HISTORY_PAGE_SIZE } from './use-wallet.ts';

/**
 * The account's full transaction history (GET /v1/wallet/transactions): every movement of every
 * balance, filtered by type, currency and a range of days. The rows, states and pager are the
 * Triple-A wallet's history's own (history-section.tsx, history-model.ts).
 */
export function LegacyHistory() {
  const { t } = useTranslation();
  const [values, setValues] = useState<HistoryFilterValues>(emptyHistoryFilter);
  const [page, setPage] = useState(1);
  const rangeId = useId();
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
        <TransactionFilterFields
          type={values.type}
          currency={values.currency}
          onType={(type) => set('type', type)}
          onCurrency={(currency) => set('currency', currency)}
          testIdPrefix="legacy-history"
        />
        <DayField
          label={t('wallet.legacy.history.from')}
          value={values.fromDate}
          max={values.toDate || undefined}
          rangeReversed={problem !== null}
          rangeErrorId={rangeId}
          data-testid="legacy-history-from"
          onChange={(event) => set('fromDate', event.target.value)}
        />
        <DayField
          label={t('wallet.legacy.history.to')}
          value={values.toDate}
          min={values.fromDate || undefined}
          rangeReversed={problem !== null}
          rangeErrorId={rangeId}
          data-testid="legacy-history-to"
          onChange={(event) => set('toDate', event.target.value)}
        />
      </div>
      {problem ? (
        <p id={rangeId} className="field-error" role="alert" data-testid="legacy-history-range-error">
          {t('wallet.legacy.history.rangeReversed')}
        </p>
      ) : (
        <TransactionsTable query={query} filtered={filtered} onPage={setPage} testId="legacy-transactions-table" />
      )}
    </section>
  );
}

/** One end of the range of days; a reversed range is told once, under both ends. */
function DayField({
  label,
  rangeReversed,
  rangeErrorId,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; rangeReversed: boolean; rangeErrorId: string }) {
  const id = useId();
  return (
    <div className={clsx('field', rangeReversed && 'field-invalid')}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="date"
        className="input"
        aria-invalid={rangeReversed ? true : undefined}
        aria-describedby={rangeReversed ? rangeErrorId : undefined}
        {...input}
      />
    </div>
  );
}
