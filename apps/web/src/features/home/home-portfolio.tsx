import type { PortfolioSummary } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowRight, PieChart } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatPercent, MISSING_VALUE } from '../../lib/format.ts';
import { depositHref, formatShare, formatUsdValue, isEmptyPortfolio, toneOf } from '../portfolio/portfolio-model.ts';
import { usePortfolioSummary } from '../portfolio/use-portfolio.ts';

/** How many of the largest holdings the home page lists; /portfolio has them all. */
export const HOME_HOLDINGS_SHOWN = 4;

/**
 * The signed-in dashboard's portfolio card: the same `GET /v1/portfolio` answer, under the same
 * query key, as /portfolio (so both always show the same figures and refresh together).
 */
export function HomePortfolio() {
  const { t } = useTranslation();
  const { data, isLoading, error, refetch } = usePortfolioSummary();
  return (
    <section
      className="overview-card home-portfolio"
      aria-label={t('home.portfolio.title')}
      data-testid="home-portfolio"
    >
      <header className="overview-card-header">
        <h2 className="overview-card-title">
          <PieChart size={16} className="accent" aria-hidden="true" />
          {t('home.portfolio.title')}
        </h2>
        <Link to="/portfolio" className="card-action" data-testid="home-portfolio-open">
          {t('home.portfolio.open')}
          <ArrowRight size={14} aria-hidden="true" className="flip-rtl" />
        </Link>
      </header>
      {error ? (
        <div className="home-portfolio-body" role="alert">
          <p className="muted">{t('home.portfolio.loadFailed')}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void refetch()}>
            {t('home.portfolio.retry')}
          </button>
        </div>
      ) : isLoading || !data ? (
        <div className="home-portfolio-body" aria-busy="true">
          <span className="skeleton-block home-portfolio-skeleton" />
        </div>
      ) : (
        <PortfolioFigures summary={data} />
      )}
    </section>
  );
}

function PortfolioFigures({ summary }: { summary: PortfolioSummary }) {
  const { t } = useTranslation();
  if (isEmptyPortfolio(summary)) {
    return (
      <div className="home-portfolio-body" data-testid="home-portfolio-empty">
        <p className="muted">{t('home.portfolio.empty')}</p>
        <Link to={depositHref('USD')} className="btn btn-primary btn-sm">
          {t('home.portfolio.deposit')}
        </Link>
      </div>
    );
  }
  const percent = summary.change_24h_percent === null ? MISSING_VALUE : formatPercent(summary.change_24h_percent);
  const largest = summary.holdings.filter((holding) => holding.value !== null).slice(0, HOME_HOLDINGS_SHOWN);
  return (
    <div className="home-portfolio-body">
      <div className="home-portfolio-total">
        <span className="stat-value tabular" data-testid="home-portfolio-total" title={`${summary.total_value} USD`}>
          {formatUsdValue(summary.total_value)}
        </span>
        <span className={clsx('tabular', toneOf(summary.change_24h))} data-testid="home-portfolio-change">
          {formatUsdValue(summary.change_24h, { signed: true })} ({percent}){' '}
          <span className="muted">{t('home.portfolio.change')}</span>
        </span>
      </div>
      <ul className="home-portfolio-holdings" data-testid="home-portfolio-holdings">
        {largest.map((holding) => (
          <li key={holding.asset}>
            <span className="home-portfolio-asset">{holding.asset}</span>
            <span className="tabular">{formatUsdValue(holding.value)}</span>
            <span className="tabular muted">{formatShare(holding.share_percent)}</span>
          </li>
        ))}
        {summary.futures.positions.length > 0 || summary.futures.equity !== '0' ? (
          <li>
            <span className="home-portfolio-asset">{t('home.portfolio.futures')}</span>
            <span className="tabular">{formatUsdValue(summary.futures.equity)}</span>
            <span className="tabular muted">{formatShare(summary.futures.share_percent)}</span>
          </li>
        ) : null}
      </ul>
    </div>
  );
}
