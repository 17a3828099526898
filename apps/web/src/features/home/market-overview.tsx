import { Activity, BarChart3, Flame, Star, TrendingDown, TrendingUp, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { formatCompact } from '../../lib/format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { useLivePairs, useWatchPairs } from '../market-data/index.ts';
import { FeedStatusBadge } from '../markets/feed-status-badge.tsx';
import { MarketList } from '../markets/market-list.tsx';
import { computeOverview } from '../markets/markets-model.ts';
import { useWatchlist } from '../watchlist/use-watchlist.ts';

/** How many favourites the home page shows; the watchlist page has them all. */
const HOME_FAVOURITES_SHOWN = 6;
const NO_WATCH: readonly string[] = [];

function OverviewCard({
  icon,
  title,
  action,
  children,
}: {
  icon: ReactNode;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="overview-card">
      <header className="overview-card-header">
        <h2 className="overview-card-title">
          {icon}
          {title}
        </h2>
        {action}
      </header>
      {children}
    </section>
  );
}

/** The home dashboard's market overview (spec §2.1 "/": dashboard and overview), live. */
export function MarketOverview() {
  const { t } = useTranslation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const openModal = useAppStore((state) => state.openModal);
  const watchlist = useWatchlist();
  const { pairs, isLoading, error } = useLivePairs(NO_WATCH);
  const watchIds = useMemo(
    () => [
      ...pairs.filter((pair) => pair.quoteCurrency === 'USD').map((pair) => pair.id),
      ...(isAuthenticated ? watchlist.pairIds : []),
    ],
    [pairs, isAuthenticated, watchlist.pairIds],
  );
  useWatchPairs(watchIds);
  const overview = useMemo(() => computeOverview(pairs), [pairs]);
  const byId = useMemo(() => new Map(pairs.map((pair) => [pair.id, pair])), [pairs]);
  const favourites = watchlist.pairIds.flatMap((id) => byId.get(id) ?? []).slice(0, HOME_FAVOURITES_SHOWN);

  if (error) {
    return (
      <div className="empty-state" role="alert">
        <p>{t('markets.loadFailed')}</p>
      </div>
    );
  }

  return (
    <div className="overview" aria-busy={isLoading || undefined}>
      <div className="overview-heading">
        <h2 className="section-title">{t('home.overviewTitle')}</h2>
        <FeedStatusBadge />
      </div>
      <div className="stat-grid">
        <div className="stat-card">
          <span className="stat-label">
            <BarChart3 size={14} aria-hidden="true" />
            {t('home.totalVolume')}
          </span>
          <span className="stat-value tabular" data-testid="home-total-volume">
            {isLoading ? '—' : formatCompact(overview.totalVolumeUsd, 'USD')}
          </span>
        </div>
        <div className="stat-card">
          <span className="stat-label">
            <Activity size={14} aria-hidden="true" />
            {t('home.marketCount')}
          </span>
          <span className="stat-value tabular" data-testid="home-market-count">
            {isLoading ? '—' : overview.marketCount}
          </span>
        </div>
        <div className="stat-card">
          <span className="stat-label">
            <TrendingUp size={14} aria-hidden="true" />
            {t('home.advancing')}
          </span>
          <span className="stat-value tabular">
            <span className="up">{overview.advancing}</span>
            <span className="muted"> / </span>
            <span className="down">{overview.declining}</span>
          </span>
        </div>
      </div>
      <div className="overview-grid">
        <OverviewCard icon={<TrendingUp size={16} className="up" aria-hidden="true" />} title={t('home.gainers')}>
          <MarketList pairs={overview.gainers} testId="home-gainers" empty={t('home.noGainers')} />
        </OverviewCard>
        <OverviewCard icon={<TrendingDown size={16} className="down" aria-hidden="true" />} title={t('home.losers')}>
          <MarketList pairs={overview.losers} testId="home-losers" empty={t('home.noLosers')} />
        </OverviewCard>
        <OverviewCard
          icon={<Flame size={16} className="accent" aria-hidden="true" />}
          title={t('home.trending')}
          action={
            <Link to="/markets" className="card-action">
              {t('home.allMarkets')}
            </Link>
          }
        >
          <MarketList pairs={overview.trending} testId="home-trending" empty={t('home.noMarkets')} />
        </OverviewCard>
      </div>
      {isAuthenticated ? (
        <OverviewCard
          icon={<Star size={16} className="accent" aria-hidden="true" />}
          title={t('home.favourites')}
          action={
            <Link to="/watchlist" className="card-action">
              {t('home.editWatchlist')}
            </Link>
          }
        >
          <MarketList pairs={favourites} testId="home-favourites" empty={t('home.noFavourites')} />
        </OverviewCard>
      ) : (
        <section className="invite-card" data-testid="home-invite">
          <UserPlus size={22} aria-hidden="true" className="invite-icon" />
          <div>
            <h2 className="invite-title">{t('home.inviteTitle')}</h2>
            <p className="muted">{t('home.inviteBody')}</p>
          </div>
          <Button onClick={() => openModal('register')}>{t('pages.home.ctaRegister')}</Button>
        </section>
      )}
    </div>
  );
}
