import type { PortfolioSummary } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { formatPercent, MISSING_VALUE } from '../../lib/format.ts';
import { formatUsdValue, toneOf } from './portfolio-model.ts';

/** The total value in USD, its 24 h change, and the parts held by open orders and futures shown apart. */
export function PortfolioHeader({ summary }: { summary: PortfolioSummary }) {
  const { t } = useTranslation();
  const tone = toneOf(summary.change_24h);
  const percent = summary.change_24h_percent === null ? MISSING_VALUE : formatPercent(summary.change_24h_percent);
  return (
    <section className="wallet-card pf-header" aria-label={t('portfolio.header.label')} data-testid="portfolio-header">
      <div className="pf-total">
        <span className="pf-label">{t('portfolio.header.total')}</span>
        <span className="pf-total-value tabular" data-testid="portfolio-total" title={`${summary.total_value} USD`}>
          {formatUsdValue(summary.total_value)}
        </span>
        <span
          className={clsx('pf-change tabular', tone)}
          data-testid="portfolio-change"
          title={t('portfolio.header.changeHint')}
        >
          {formatUsdValue(summary.change_24h, { signed: true })} ({percent})
          <span className="pf-change-label"> {t('portfolio.header.change')}</span>
        </span>
      </div>
      <dl className="pf-figures">
        <div>
          <dt>{t('portfolio.header.locked')}</dt>
          <dd className="tabular" data-testid="portfolio-locked">
            {formatUsdValue(summary.locked_value)}
          </dd>
        </div>
        <div>
          <dt>{t('portfolio.header.futures')}</dt>
          <dd className="tabular" data-testid="portfolio-futures-equity">
            {formatUsdValue(summary.futures.equity)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
