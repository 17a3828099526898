import type { LotMethodName, PortfolioHolding } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatPercent, formatUsdPrice, MISSING_VALUE, toAmount } from '../../lib/format.ts';
import { formatCurrencyAmount } from '../../lib/number-format.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { coinName } from '../markets/markets-model.ts';
import { LotMethodSelect } from './lot-method-select.tsx';
import {
  DEFAULT_HOLDING_SORT,
  depositHref,
  formatCostPerUnit,
  formatShare,
  formatUsdValue,
  HOLDING_SORT_KEYS,
  type HoldingSort,
  type HoldingSortKey,
  hideSmallHoldings,
  nextSort,
  sortHoldings,
  toneOf,
  tradeHref,
  withdrawHref,
} from './portfolio-model.ts';
import '../../theme/portfolio-costs.css';

/**
 * The spot holdings: sortable by every column, small balances hidden on request (Preferences), with
 * each one's average cost and unrealised P&L under the lot method chosen in the header.
 */
export function HoldingsCard({ holdings, method }: { holdings: readonly PortfolioHolding[]; method: LotMethodName }) {
  const { t } = useTranslation();
  const hideSmall = usePreferences((state) => state.hideSmallBalances);
  const thresholdUsd = usePreferences((state) => state.smallBalanceUsd);
  const setPreference = usePreferences((state) => state.setPreference);
  const [sort, setSort] = useState<HoldingSort>(DEFAULT_HOLDING_SORT);
  const toggleId = useId();
  const rows = useMemo(() => {
    const shown = hideSmall ? hideSmallHoldings(holdings, thresholdUsd) : holdings;
    return sortHoldings(shown, sort);
  }, [holdings, hideSmall, thresholdUsd, sort]);
  const threshold = formatUsdValue(thresholdUsd);
  return (
    <section className="wallet-card pf-holdings" aria-labelledby="pf-holdings-title" data-testid="portfolio-holdings">
      <header className="wallet-card-header">
        <div>
          <h2 id="pf-holdings-title" className="wallet-card-title">
            {t('portfolio.holdings.title')}
          </h2>
          <p className="wallet-card-description">{t('portfolio.holdings.description')}</p>
        </div>
        <LotMethodSelect method={method} />
        <label className="wallet-filter" htmlFor={toggleId}>
          <input
            id={toggleId}
            type="checkbox"
            className="checkbox"
            checked={hideSmall}
            onChange={(event) => setPreference('hideSmallBalances', event.target.checked)}
            data-testid="portfolio-hide-small"
          />
          {t('portfolio.holdings.hideSmall', { amount: threshold })}
        </label>
      </header>
      {rows.length === 0 ? (
        <div className="wallet-empty" data-testid="portfolio-holdings-empty">
          <p>
            {holdings.length === 0
              ? t('portfolio.holdings.none')
              : t('portfolio.holdings.allHidden', { amount: threshold })}
          </p>
          {holdings.length > 0 ? (
            <button type="button" className="link-button" onClick={() => setPreference('hideSmallBalances', false)}>
              {t('portfolio.holdings.showAll')}
            </button>
          ) : null}
        </div>
      ) : (
        <div className="pf-table-wrap">
          <table className="pf-table" data-testid="portfolio-holdings-table">
            <thead>
              <tr>
                {HOLDING_SORT_KEYS.map((key) => (
                  <SortHeader key={key} column={key} sort={sort} onSort={() => setSort(nextSort(sort, key))} />
                ))}
                <th scope="col" className="pf-actions-head">
                  <span className="visually-hidden">{t('portfolio.holdings.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((holding) => (
                <HoldingRow key={holding.asset} holding={holding} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SortHeader({ column, sort, onSort }: { column: HoldingSortKey; sort: HoldingSort; onSort: () => void }) {
  const { t } = useTranslation();
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === 'ascending' ? ArrowUp : ArrowDown;
  const label = t(`portfolio.holdings.${column}`);
  return (
    <th scope="col" className={clsx(column !== 'asset' && 'num')} aria-sort={active ? sort.direction : 'none'}>
      <button
        type="button"
        className={clsx('pf-sort', active && 'active')}
        onClick={onSort}
        data-testid={`portfolio-sort-${column}`}
        title={t('portfolio.holdings.sortBy', { column: label })}
      >
        {label}
        <Icon size={12} aria-hidden="true" />
      </button>
    </th>
  );
}

function HoldingRow({ holding }: { holding: PortfolioHolding }) {
  const { t } = useTranslation();
  const label = (key: HoldingSortKey) => t(`portfolio.holdings.${key}`);
  const locked = toAmount(holding.locked);
  const hasLocked = locked !== null && locked.units !== 0n;
  const testId = (name: string) => `portfolio-holding-${holding.asset}-${name}`;
  return (
    <tr data-testid={`portfolio-holding-${holding.asset}`}>
      <th scope="row" data-label={label('asset')}>
        <span className="wallet-currency">
          <CoinIcon symbol={holding.asset} size={26} />
          <span className="pair-text">
            <span className="pair-symbol">{holding.asset}</span>
            <span className="pair-name-small">{coinName(holding.asset)}</span>
          </span>
        </span>
      </th>
      <td
        className="num tabular"
        data-label={label('amount')}
        data-testid={testId('amount')}
        title={`${holding.amount} ${holding.asset}`}
      >
        {formatCurrencyAmount(holding.amount, holding.asset)}
        {hasLocked ? (
          <span className="pf-sub muted" data-testid={testId('locked')}>
            {t('portfolio.holdings.locked', { amount: formatCurrencyAmount(holding.locked, holding.asset) })}
          </span>
        ) : null}
      </td>
      <td className="num tabular" data-label={label('price')} data-testid={testId('price')}>
        {formatUsdPrice(holding.price)}
      </td>
      <td
        className="num tabular pf-strong"
        data-label={label('value')}
        data-testid={testId('value')}
        title={holding.value ?? undefined}
      >
        {formatUsdValue(holding.value)}
      </td>
      <CostCells holding={holding} />
      <td
        className={clsx('num tabular', toneOf(holding.change_24h_percent))}
        data-label={label('change')}
        data-testid={testId('change')}
      >
        {holding.change_24h_percent === null ? MISSING_VALUE : formatPercent(holding.change_24h_percent)}
      </td>
      <td className="num tabular" data-label={label('share')} data-testid={testId('share')}>
        {formatShare(holding.share_percent)}
      </td>
      <td className="pf-row-actions">
        <HoldingLinks asset={holding.asset} />
      </td>
    </tr>
  );
}

/** Average cost per unit, and unrealised P&L in USD and % (green/red); a dash where there is no cost basis. */
function CostCells({ holding }: { holding: PortfolioHolding }) {
  const { t } = useTranslation();
  const testId = (name: string) => `portfolio-holding-${holding.asset}-${name}`;
  const pnl = holding.unrealised_pnl;
  return (
    <>
      <td
        className="num tabular"
        data-label={t('portfolio.holdings.avgCost')}
        data-testid={testId('avg-cost')}
        title={holding.average_cost ?? undefined}
      >
        {formatCostPerUnit(holding.average_cost)}
      </td>
      <td
        className={clsx('num tabular', toneOf(pnl))}
        data-label={t('portfolio.holdings.pnl')}
        data-testid={testId('pnl')}
        title={pnl ?? undefined}
      >
        {pnl === null ? MISSING_VALUE : formatUsdValue(pnl, { signed: true })}
        {holding.unrealised_pnl_percent === null ? null : (
          <span className="pf-sub" data-testid={testId('pnl-percent')}>
            {formatPercent(holding.unrealised_pnl_percent)}
          </span>
        )}
      </td>
    </>
  );
}

function HoldingLinks({ asset }: { asset: string }) {
  const { t } = useTranslation();
  const trade = tradeHref(asset);
  const testId = (name: string) => `portfolio-holding-${asset}-${name}`;
  return (
    <span className="pf-links">
      {trade ? (
        <Link
          className="btn btn-ghost btn-sm"
          to={trade}
          aria-label={t('portfolio.holdings.tradeAsset', { asset })}
          data-testid={testId('trade')}
        >
          {t('portfolio.holdings.trade')}
        </Link>
      ) : null}
      <Link
        className="btn btn-ghost btn-sm"
        to={depositHref(asset)}
        aria-label={t('portfolio.holdings.depositAsset', { asset })}
        data-testid={testId('deposit')}
      >
        {t('portfolio.holdings.deposit')}
      </Link>
      <Link
        className="btn btn-ghost btn-sm"
        to={withdrawHref(asset)}
        aria-label={t('portfolio.holdings.withdrawAsset', { asset })}
        data-testid={testId('withdraw')}
      >
        {t('portfolio.holdings.withdraw')}
      </Link>
    </span>
  );
}
