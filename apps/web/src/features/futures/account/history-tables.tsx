import type { FuturesMarket } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/date-format.ts';
import { formatFuturesPrice, formatSize, formatUsd, marketLabel, marketPrecision } from '../futures-format.ts';
import { useFuturesFills, useFuturesIncome } from '../futures-queries.ts';
import { EmptyState, LoadState } from '../load-state.tsx';
import { Cell, PnlText } from './position-cells.tsx';

type MarketOf = (id: string) => FuturesMarket | undefined;

function Head({ keys, prefix }: { keys: readonly string[]; prefix: 'fills' | 'income' }) {
  const { t } = useTranslation();
  return (
    <thead>
      <tr>
        {keys.map((key) => (
          <th key={key} scope="col">
            {t(`futures.${prefix}.${key}` as 'futures.fills.time')}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The account's fills: price, size, fee and the P&L each realised. */
export function FillsPanel({ marketOf }: { marketOf: MarketOf }) {
  const { t } = useTranslation();
  const query = useFuturesFills();
  if (!query.data) return <LoadState failed={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.fills.length === 0) return <EmptyState text={t('futures.fills.empty')} />;
  const label = (key: string) => t(`futures.fills.${key}` as 'futures.fills.time');
  return (
    <table className="fut-table" data-testid="futures-fills">
      <Head keys={['time', 'market', 'side', 'role', 'price', 'quantity', 'fee', 'pnl']} prefix="fills" />
      <tbody>
        {query.data.fills.map((fill) => {
          const market = marketOf(fill.market);
          const p = marketPrecision(market);
          return (
            <tr key={fill.id}>
              <Cell label={label('time')}>{formatDateTime(fill.timestamp)}</Cell>
              <Cell label={label('market')}>{marketLabel(fill.market, market)}</Cell>
              <Cell label={label('side')}>
                <span className={clsx(fill.side === 'buy' ? 'up' : 'down')}>{t(`futures.orders.${fill.side}`)}</span>
              </Cell>
              <Cell label={label('role')}>{t(`history.roles.${fill.role}`)}</Cell>
              <Cell label={label('price')}>{formatFuturesPrice(fill.price, p.price)}</Cell>
              <Cell label={label('quantity')}>{formatSize(fill.quantity, p.size)}</Cell>
              <Cell label={label('fee')}>{formatUsd(fill.fee)} USD</Cell>
              <Cell label={label('pnl')}>
                <PnlText pnl={fill.realised_pnl} />
              </Cell>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Funding payments, fees, realised P&L and transfers: the futures wallet's income. */
export function IncomePanel({ marketOf }: { marketOf: MarketOf }) {
  const { t } = useTranslation();
  const query = useFuturesIncome();
  if (!query.data) return <LoadState failed={query.isError} onRetry={() => void query.refetch()} />;
  if (query.data.income.length === 0) return <EmptyState text={t('futures.income.empty')} />;
  const label = (key: string) => t(`futures.income.${key}` as 'futures.income.time');
  return (
    <table className="fut-table" data-testid="futures-income">
      <Head keys={['time', 'type', 'market', 'amount']} prefix="income" />
      <tbody>
        {query.data.income.map((entry) => (
          <tr key={entry.id}>
            <Cell label={label('time')}>{formatDateTime(entry.timestamp)}</Cell>
            <Cell label={label('type')}>{t(`futures.income.types.${entry.type}`)}</Cell>
            <Cell label={label('market')}>
              {entry.market ? marketLabel(entry.market, marketOf(entry.market)) : '—'}
            </Cell>
            <Cell label={label('amount')}>
              <PnlText pnl={entry.amount} />
            </Cell>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
