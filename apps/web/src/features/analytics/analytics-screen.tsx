import { ANALYTICS_MAX_PERIOD_DAYS, type Analytics } from '@platform/contracts';
import { ChartNoAxesCombined, TrendingUp } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Segmented } from '../../components/ui/segmented.tsx';
import { analyticsTexts } from '../../i18n/locales/en-analytics.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { AssetBarsCard, EquityCard, StatTiles, TradesCard } from './analytics-cards.tsx';
import {
  DEFAULT_PRESET,
  isEmptyAnalytics,
  isValidRange,
  PERIOD_PRESETS,
  type PeriodChoice,
  type PeriodRange,
  presetRange,
} from './analytics-model.ts';
import { PnlCalendar } from './pnl-calendar.tsx';
import { useAnalytics } from './use-analytics.ts';
import '../../theme/analytics.css';

addScreenTexts({ analytics: analyticsTexts });

/** The router's lazy module for /analytics (routes/route-modules.ts). */
export { AnalyticsScreen as Component };

const CHOICES: readonly PeriodChoice[] = [...PERIOD_PRESETS, 'custom'];
const SKELETON_TILES = ['pnl', 'win-rate', 'profit-factor', 'volume', 'trades', 'fees', 'funding', 'average'];

/** The period of the address (?period=7d, or ?from=&to= for a custom one), else the default preset. */
function usePeriod(): {
  choice: PeriodChoice;
  range: PeriodRange;
  choose: (choice: PeriodChoice, range?: PeriodRange) => void;
} {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const preset = PERIOD_PRESETS.find((name) => name === params.get('period')) ?? DEFAULT_PRESET;
  const isCustom = isValidRange({ from, to });
  const choice: PeriodChoice = isCustom ? 'custom' : preset;
  const range = useMemo(
    () => (isCustom ? { from, to } : presetRange(preset, new Date())),
    [isCustom, from, to, preset],
  );
  const choose = (next: PeriodChoice, nextRange?: PeriodRange) => {
    // A custom period lives in ?from=&to=, a preset in ?period=; replace, so Back leaves the screen.
    const search = next === 'custom' ? (nextRange ?? { period: preset }) : { period: next };
    setParams(search, { replace: true });
  };
  return { choice, range, choose };
}

/** /analytics (issue 17, item 3): trading figures of a period, its return curve and its days. */
export function AnalyticsScreen() {
  const { t } = useTranslation();
  const period = usePeriod();
  const [editing, setEditing] = useState(false);
  const analytics = useAnalytics(period.range);
  return (
    <div className="screen analytics-screen" data-testid="analytics-screen">
      <PageHeader title={t('pages.analytics.title')} description={t('pages.analytics.description')} />
      <div className="an-period">
        <Segmented
          legend={t('analytics.period.label')}
          options={CHOICES}
          value={editing ? 'custom' : period.choice}
          onChange={(choice) => {
            setEditing(choice === 'custom');
            if (choice !== 'custom') period.choose(choice);
          }}
          label={(choice) => (
            <span title={t(`analytics.period.presetName.${choice}`)}>{t(`analytics.period.preset.${choice}`)}</span>
          )}
          testId={(choice) => `analytics-period-${choice}`}
        />
        <span className="muted an-period-range" data-testid="analytics-period-range">
          {t('analytics.period.range', { from: period.range.from, to: period.range.to })}
        </span>
      </div>
      {editing ? (
        <CustomPeriod
          initial={period.range}
          onApply={(range) => {
            setEditing(false);
            period.choose('custom', range);
          }}
        />
      ) : null}
      {analytics.data ? (
        <AnalyticsBody analytics={analytics.data} />
      ) : analytics.isError ? (
        <div className="wallet-empty an-state" role="alert" data-testid="analytics-error">
          <p>{errorMessage(analytics.error, t, 'analytics.failed')}</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void analytics.refetch()}>
            {t('analytics.retry')}
          </button>
        </div>
      ) : (
        <AnalyticsSkeleton />
      )}
    </div>
  );
}

function CustomPeriod({ initial, onApply }: { initial: PeriodRange; onApply: (range: PeriodRange) => void }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(initial);
  const valid = isValidRange(range);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) onApply(range);
  };
  return (
    <form className="an-custom" onSubmit={submit} data-testid="analytics-custom">
      <label>
        <span>{t('analytics.period.from')}</span>
        <input
          type="date"
          value={range.from}
          onChange={(event) => setRange({ ...range, from: event.target.value })}
          data-testid="analytics-custom-from"
        />
      </label>
      <label>
        <span>{t('analytics.period.to')}</span>
        <input
          type="date"
          value={range.to}
          onChange={(event) => setRange({ ...range, to: event.target.value })}
          data-testid="analytics-custom-to"
        />
      </label>
      <button type="submit" className="btn btn-primary btn-sm" disabled={!valid} data-testid="analytics-custom-apply">
        {t('analytics.period.apply')}
      </button>
      {valid ? null : (
        <p className="an-custom-error" role="alert">
          {t('analytics.period.invalid', { days: ANALYTICS_MAX_PERIOD_DAYS })}
        </p>
      )}
    </form>
  );
}

function AnalyticsBody({ analytics }: { analytics: Analytics }) {
  if (isEmptyAnalytics(analytics)) return <EmptyAnalytics />;
  return (
    <>
      <StatTiles analytics={analytics} />
      <EquityCard analytics={analytics} />
      <PnlCalendar range={{ from: analytics.period.from, to: analytics.period.to }} days={analytics.pnl_by_day} />
      <div className="an-grid">
        <AssetBarsCard rows={analytics.pnl_by_asset} />
        <TradesCard analytics={analytics} />
      </div>
    </>
  );
}

function EmptyAnalytics() {
  const { t } = useTranslation();
  return (
    <section className="wallet-card an-empty" data-testid="analytics-empty" aria-labelledby="an-empty-title">
      <ChartNoAxesCombined size={36} aria-hidden="true" className="an-empty-icon" />
      <h2 id="an-empty-title" className="wallet-card-title">
        {t('analytics.empty.title')}
      </h2>
      <p className="muted">{t('analytics.empty.text')}</p>
      <p>
        <Link className="btn btn-primary" to="/trade" data-testid="analytics-empty-trade">
          <TrendingUp size={16} aria-hidden="true" />
          {t('analytics.empty.trade')}
        </Link>
      </p>
    </section>
  );
}

function AnalyticsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="an-skeleton" aria-busy="true" data-testid="analytics-loading">
      <span className="visually-hidden">{t('analytics.loading')}</span>
      <div className="an-tiles">
        {SKELETON_TILES.map((key) => (
          <span key={key} className="skeleton-block an-skeleton-tile" />
        ))}
      </div>
      <span className="skeleton-block an-skeleton-chart" />
    </div>
  );
}
