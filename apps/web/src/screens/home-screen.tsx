import { MAX_FUTURES_LEVERAGE } from '@platform/contracts';
import { ArrowRight, ChartCandlestick, Gauge, Users, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { MarketOverview } from '../features/home/market-overview.tsx';
import { useAppStore } from '../state/app-store.ts';

export function Component() {
  const { t } = useTranslation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const user = useAppStore((state) => state.user);
  const openModal = useAppStore((state) => state.openModal);
  const highlights = [
    { icon: ChartCandlestick, text: t('pages.home.highlights.spot') },
    { icon: Gauge, text: t('pages.home.highlights.futures', { leverage: MAX_FUTURES_LEVERAGE }) },
    { icon: Wallet, text: t('pages.home.highlights.wallet') },
    { icon: Users, text: t('pages.home.highlights.social') },
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
            <Link to="/trade" className="btn btn-primary btn-lg">
              {t('pages.home.ctaTrade')}
              <ArrowRight size={16} aria-hidden="true" />
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
            <li key={highlight.text} className="highlight">
              <highlight.icon size={18} aria-hidden="true" />
              <span>{highlight.text}</span>
            </li>
          ))}
        </ul>
      </section>
      <MarketOverview />
    </div>
  );
}
