import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BeingBuilt } from './being-built.tsx';
import { PageHeader } from './page-header.tsx';

export type PlaceholderPageKey =
  | 'markets'
  | 'news'
  | 'newsArticle'
  | 'support'
  | 'helpTrading'
  | 'social'
  | 'marketplace'
  | 'erp'
  | 'chat'
  | 'portfolio'
  | 'wallet'
  | 'affiliate'
  | 'influencer'
  | 'signalProvider'
  | 'copyTrading'
  | 'analytics'
  | 'orders'
  | 'trades'
  | 'watchlist'
  | 'trade';

/** A screen whose feature is still being built: its title, what it will hold, and nothing fake. */
export function PlaceholderScreen({ page, children }: { page: PlaceholderPageKey; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="screen">
      <PageHeader title={t(`pages.${page}.title`)} description={t(`pages.${page}.description`)} />
      {children}
      <BeingBuilt />
    </div>
  );
}
