import { MAX_FUTURES_LEVERAGE } from '@platform/contracts';
import { ArrowRight, ChartCandlestick, Gauge, Users, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { pairSymbol } from '../../lib/format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { usePreferences } from '../../state/preferences-store.ts';
import { HomePortfolio } from './home-portfolio.tsx';
import { MarketOverview } from './market-overview.tsx';

export function Component() {
  const { t } = useTranslation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const user = useAppStore((state) => state.user);
  const openModal = useAppStore((state) => state.openModal);
  const defaultPair = usePreferences((state) => state.defaultPair);
  const highlights = [
    { icon: ChartCandlestick, text: t('pages.home.highlights.spot'), soon: false },
    { icon: Wallet, text: t('pages.home.highlights.wallet'), soon: false },
    // Not open yet: said so, so that nobody signs up for it today.
    { icon: Gauge, text: t('pages.home.highlights.futures', { leverage: MAX_FUTURES_LEVERAGE }), soon: false },
    { icon: Users, text: t('pages.home.highlights.social'), soon: true },
  ];
  return (
    <div className="screen screen-wide">
      <section className="hero">
        <p className="hero-eyebrow">{t('app.name')}</p>
        <h1 className="page-title hero-title" data-testid="page-title">
          {isAuthenticated && user ? t('pages.home.titleUser', { name: user.first_name }) : t('pages.home.title')}
        </h1>
        <p className="hero-tagline">{t('app.tagline')}</p>
        <div className="hero-actions">
          {isAuthenticated ? (
            <Link to={`/trade?pair=${pairSymbol(defaultPair)}`} className="btn btn-primary btn-lg">
              {t('pages.home.ctaTrade')}
              <ArrowRight size={16} aria-hidden="true" className="flip-rtl" />
            </Link>
          ) : (
            <>
              <Button size="lg" onClick={() => openModal('register')} data-testid="hero-register">
                {t('pages.home.ctaRegister')}
              </Button>
              <Button size="lg" variant="secondary" onClick={() => openModal('login')}>
                {t('pages.home.ctaLogin')}
              </Button>
            </>
          )}
        </div>
        <ul className="highlights">
          {highlights.map((highlight) => (
            <li key={highlight.text} className="highlight" data-testid="home-highlight">
              <highlight.icon size={18} aria-hidden="true" />
              <span>
                {highlight.text}
                {highlight.soon ? <span className="highlight-soon">{t('pages.home.comingSoon')}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </section>
      {isAuthenticated ? <HomePortfolio /> : null}
      <MarketOverview />
    </div>
  );
}
