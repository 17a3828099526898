import type { ComponentType } from 'react';
import { textsReady } from '../i18n/locale-loader.ts';

export interface RouteModule {
  Component: ComponentType;
}

/** A screen's module, once the texts it asked for (in the current language) have arrived. */
function withTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => load().then((module) => textsReady().then(() => module));
}

/**
 * One lazy loader per screen (spec §2.1: all pages load lazily). The router and the prefetcher
 * share these functions, so a prefetched module is the one the router later renders.
 */
export const routeModules = {
  home: withTexts(() => import('../features/home/home-screen.tsx')),
  trade: withTexts(() => import('../features/trade/trade-screen.tsx')),
  futures: withTexts(() => import('../features/futures/futures-screen.tsx')),
  markets: withTexts(() => import('../features/markets/markets-screen.tsx')),
  news: withTexts(() => import('../features/news/news-screen.tsx')),
  newsArticle: withTexts(() => import('../features/news/news-article-screen.tsx')),
  support: withTexts(() => import('../features/support/support-screen.tsx')),
  help: withTexts(() => import('../features/help/help-screen.tsx')),
  helpTrading: withTexts(() => import('../features/help/help-trading-screen.tsx')),
  helpFees: withTexts(() => import('../features/help/help-fees-screen.tsx')),
  social: withTexts(() => import('../features/social/social-screen.tsx')),
  marketplace: withTexts(() => import('../features/marketplace/marketplace-screen.tsx')),
  erp: withTexts(() => import('../features/erp/erp-screen.tsx')),
  admin: withTexts(() => import('../features/admin/admin-screen.tsx')),
  chat: withTexts(() => import('../features/chat/chat-screen.tsx')),
  portfolio: withTexts(() => import('../features/portfolio/portfolio-screen.tsx')),
  wallet: withTexts(() => import('../features/wallet/wallet-screen.tsx')),
  settings: withTexts(() => import('../features/settings/settings-screen.tsx')),
  affiliate: withTexts(() => import('../features/affiliate/affiliate-screen.tsx')),
  influencer: withTexts(() => import('../features/influencer/influencer-screen.tsx')),
  signalProvider: withTexts(() => import('../features/signal-provider/signal-provider-screen.tsx')),
  copyTrading: withTexts(() => import('../features/copy-trading/copy-trading-screen.tsx')),
  analytics: withTexts(() => import('../features/analytics/analytics-screen.tsx')),
  orders: withTexts(() => import('../features/orders/orders-screen.tsx')),
  trades: withTexts(() => import('../features/orders/trades-screen.tsx')),
  watchlist: withTexts(() => import('../features/watchlist/watchlist-screen.tsx')),
  resetPassword: withTexts(() => import('../features/auth/reset-password-screen.tsx')),
} satisfies Record<string, () => Promise<RouteModule>>;

export type RouteModuleName = keyof typeof routeModules;

/** The screen module of a path inside the shell, for prefetching on hover. */
const moduleByPath: Record<string, RouteModuleName> = {
  '/': 'home',
  '/trade': 'trade',
  '/markets': 'markets',
  '/news': 'news',
  '/support': 'support',
  '/help': 'help',
  '/help/trading': 'helpTrading',
  '/help/fees': 'helpFees',
  '/social': 'social',
  '/marketplace': 'marketplace',
  '/erp': 'erp',
  '/admin': 'admin',
  '/chat': 'chat',
  '/portfolio': 'portfolio',
  '/wallet': 'wallet',
  '/settings': 'settings',
  '/affiliate': 'affiliate',
  '/influencer': 'influencer',
  '/signal-provider': 'signalProvider',
  '/copy-trading': 'copyTrading',
  '/analytics': 'analytics',
  '/orders': 'orders',
  '/trades': 'trades',
  '/watchlist': 'watchlist',
};

export function moduleForPath(path: string): RouteModuleName | null {
  const pathname = path.split('?')[0] ?? path;
  if (pathname.startsWith('/trade/futures')) return 'futures';
  return moduleByPath[pathname] ?? null;
}

const prefetched = new Set<RouteModuleName>();

/** Loads a screen's code ahead of a navigation; a failure is left for the real navigation to show. */
export function prefetchRoute(name: RouteModuleName): void {
  if (prefetched.has(name)) return;
  prefetched.add(name);
  routeModules[name]().catch(() => prefetched.delete(name));
}

export function prefetchPath(path: string): void {
  const name = moduleForPath(path);
  if (name) prefetchRoute(name);
}
