import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../components/ui/segmented.tsx';
import { formatExactAmount } from '../wallet/history-model.ts';
import { DateTime, HistoryBody } from '../wallet/history-section.tsx';
import { useConversionHistory, useTradeHistory } from './conversion-queries.ts';
import { formatRate } from './convert-fields.tsx';

type ActivityView = 'conversions' | 'trades';
const activityViews: readonly ActivityView[] = ['conversions', 'trades'];

/**
 * The desk's own records: the latest conversions (GET /api/v1/conversions/history) and quick trades
 * (GET /api/v1/trade/history), each with what was paid, what was received and at what rate.
 */
export function LegacyActivity() {
  const { t } = useTranslation();
  const [view, setView] = useState<ActivityView>('conversions');
  return (
    <section className="wallet-card" aria-labelledby="legacy-activity-title" data-testid="legacy-activity">
      <header className="wallet-card-header">
        <div>
          <h2 id="legacy-activity-title" className="wallet-card-title">
            {t('wallet.legacy.activity.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.legacy.activity.description')}</p>
        </div>
        <Segmented
          legend={t('wallet.legacy.activity.views')}
          options={activityViews}
          value={view}
          onChange={setView}
          label={(option) => t(`wallet.legacy.activity.${option}`)}
          testId={(option) => `activity-view-${option}`}
          className="legacy-segmented"
        />
      </header>
      {view === 'conversions' ? <ConversionsTable /> : <TradesTable />}
    </section>
  );
}

interface ActivityRow {
  id: string;
  createdAt: string;
  from: string;
  to: string;
  paid: string;
  received: string;
  rate: string;
  note: string | null;
}

function ConversionsTable() {
  const { t } = useTranslation();
  const query = useConversionHistory();
  const rows: ActivityRow[] =
    query.data?.conversions.map((conversion) => ({
      id: conversion.id,
      createdAt: conversion.created_at,
      from: conversion.from_currency,
      to: conversion.to_currency,
      paid: conversion.from_amount,
      received: conversion.to_amount,
      rate: conversion.rate,
      note: conversion.kind === 'trade' ? t('wallet.legacy.activity.viaQuickTrade') : null,
    })) ?? [];
  return (
    <HistoryBody
      isPending={query.isPending}
      error={query.isError && !query.data ? query.error : null}
      errorFallbackKey="wallet.convert.errors.historyFailed"
      onRetry={() => void query.refetch()}
      isEmpty={rows.length === 0}
      emptyText={t('wallet.legacy.activity.emptyConversions')}
    >
      <ActivityTable rows={rows} testId="conversions-table" />
    </HistoryBody>
  );
}

function TradesTable() {
  const { t } = useTranslation();
  const query = useTradeHistory();
  const rows: ActivityRow[] =
    query.data?.trades.map((trade) => ({
      id: trade.id,
      createdAt: trade.created_at,
      from: trade.sell_currency,
      to: trade.buy_currency,
      paid: trade.sell_amount,
      received: trade.buy_amount,
      rate: trade.rate,
      note: trade.target_amount
        ? t('wallet.legacy.activity.minimum', {
            amount: `${formatExactAmount(trade.target_amount)} ${trade.buy_currency}`,
          })
        : null,
    })) ?? [];
  return (
    <HistoryBody
      isPending={query.isPending}
      error={query.isError && !query.data ? query.error : null}
      errorFallbackKey="wallet.legacy.trade.errors.historyFailed"
      onRetry={() => void query.refetch()}
      isEmpty={rows.length === 0}
      emptyText={t('wallet.legacy.activity.emptyTrades')}
    >
      <ActivityTable rows={rows} testId="trades-table" />
    </HistoryBody>
  );
}

function ActivityTable({ rows, testId }: { rows: ActivityRow[]; testId: string }) {
  const { t } = useTranslation();
  // Three columns, so that the card stays narrow beside the desk: the rate sits under the pair,
  // what was paid over what was received.
  return (
    <div className="wallet-table-wrap">
      <table className="wallet-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('wallet.history.date')}</th>
            <th scope="col">{t('wallet.legacy.activity.pair')}</th>
            <th scope="col" className="num">
              {t('wallet.legacy.activity.amounts')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid={`activity-${row.id}`}>
              <td>
                <DateTime iso={row.createdAt} />
              </td>
              <td>
                <span className="activity-pair">
                  {row.from}
                  <ArrowRight
                    size={13}
                    aria-label={t('wallet.legacy.activity.into')}
                    className="flip-rtl activity-pair-arrow"
                  />
                  {row.to}
                </span>
                <span className="wallet-memo tabular activity-rate">{formatRate(row.rate, row.from, row.to)}</span>
                {row.note ? <span className="wallet-memo">{row.note}</span> : null}
              </td>
              <td className="num tabular">
                <span className="activity-amount wallet-amount-out">
                  <span className="visually-hidden">{t('wallet.legacy.activity.paid')} </span>-
                  {formatExactAmount(row.paid)} {row.from}
                </span>
                <span className="activity-amount wallet-amount-in">
                  <span className="visually-hidden">{t('wallet.legacy.activity.received')} </span>+
                  {formatExactAmount(row.received)} {row.to}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
