import type { PortfolioSummary } from '@platform/contracts';
import { ArrowDownToLine, PieChart, TrendingUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { portfolioTexts } from '../../i18n/locales/en-portfolio.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { AllocationCard } from './allocation-card.tsx';
import { ExportsCard } from './exports-card.tsx';
import { HoldingsCard } from './holdings-card.tsx';
import { PortfolioHeader } from './portfolio-header.tsx';
import { isEmptyPortfolio, tradeHref } from './portfolio-model.ts';
import { PositionsCard } from './positions-card.tsx';
import { usePortfolioSummary } from './use-portfolio.ts';
import { ValueChartCard } from './value-chart-card.tsx';
import '../../theme/portfolio.css';

addScreenTexts({ portfolio: portfolioTexts });

/** The router's lazy module for /portfolio (routes/route-modules.ts). */
export { PortfolioScreen as Component };

/** /portfolio (issue 17, item 1): what the account owns, valued live in USD, with its allocation. */
export function PortfolioScreen() {
  const { t } = useTranslation();
  const summary = usePortfolioSummary();
  return (
    <div className="screen portfolio-screen" data-testid="portfolio-screen">
      <PageHeader title={t('pages.portfolio.title')} description={t('pages.portfolio.description')} />
      {summary.data ? (
        <PortfolioBody summary={summary.data} />
      ) : summary.isError ? (
        <div className="wallet-empty pf-state" role="alert" data-testid="portfolio-error">
          <p>{errorMessage(summary.error, t, 'portfolio.failed')}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void summary.refetch()}>
            {t('portfolio.retry')}
          </button>
        </div>
      ) : (
        <PortfolioSkeleton />
      )}
      <ExportsCard />
    </div>
  );
}

function PortfolioBody({ summary }: { summary: PortfolioSummary }) {
  if (isEmptyPortfolio(summary)) return <EmptyPortfolio />;
  return (
    <>
      <PortfolioHeader summary={summary} />
      <div className="pf-grid">
        <ValueChartCard />
        <AllocationCard summary={summary} />
      </div>
      <HoldingsCard holdings={summary.holdings} method={summary.method} />
      {summary.futures.positions.length > 0 ? <PositionsCard futures={summary.futures} /> : null}
    </>
  );
}

function EmptyPortfolio() {
  const { t } = useTranslation();
  const defaultPair = usePreferences((state) => state.defaultPair);
  return (
    <section className="wallet-card pf-empty" data-testid="portfolio-empty" aria-labelledby="pf-empty-title">
      <PieChart size={36} aria-hidden="true" className="pf-empty-icon" />
      <h2 id="pf-empty-title" className="wallet-card-title">
        {t('portfolio.empty.title')}
      </h2>
      <p className="muted">{t('portfolio.empty.text')}</p>
      <p className="pf-empty-actions">
        <Link className="btn btn-primary" to="/wallet?action=deposit" data-testid="portfolio-empty-deposit">
          <ArrowDownToLine size={16} aria-hidden="true" />
          {t('portfolio.empty.deposit')}
        </Link>
        <Link
          className="btn btn-secondary"
          to={tradeHref(defaultPair.split('_')[0] ?? 'BTC') ?? '/trade'}
          data-testid="portfolio-empty-trade"
        >
          <TrendingUp size={16} aria-hidden="true" />
          {t('portfolio.empty.trade')}
        </Link>
      </p>
    </section>
  );
}

function PortfolioSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="pf-skeleton" aria-busy="true" data-testid="portfolio-loading">
      <span className="visually-hidden">{t('portfolio.loading')}</span>
      <span className="skeleton-block pf-skeleton-header" />
      <div className="pf-grid">
        <span className="skeleton-block pf-skeleton-card" />
        <span className="skeleton-block pf-skeleton-card" />
      </div>
    </div>
  );
}
