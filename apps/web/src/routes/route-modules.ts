import type { ComponentType } from 'react';

export interface RouteModule {
  Component: ComponentType;
}

/**
 * One lazy loader per screen (spec §2.1: all pages load lazily). The router and the prefetcher
 * share these functions, so a prefetched module is the one the router later renders.
 */
export const routeModules = {
  home: () => import('../features/home/home-screen.tsx'),
  trade: () => import('../features/trade/trade-screen.tsx'),
  futures: () => import('../features/futures/futures-screen.tsx'),
  markets: () => import('../features/markets/markets-screen.tsx'),
  news: () => import('../features/news/news-screen.tsx'),
  newsArticle: () => import('../features/news/news-article-screen.tsx'),
  support: () => import('../features/support/support-screen.tsx'),
  help: () => import('../features/help/help-screen.tsx'),
  helpTrading: () => import('../features/help/help-trading-screen.tsx'),
  helpFees: () => import('../features/help/help-fees-screen.tsx'),
  social: () => import('../features/social/social-screen.tsx'),
  marketplace: () => import('../features/marketplace/marketplace-screen.tsx'),
  erp: () => import('../features/erp/erp-screen.tsx'),
  admin: () => import('../features/admin/admin-screen.tsx'),
  chat: () => import('../features/chat/chat-screen.tsx'),
  portfolio: () => import('../features/portfolio/portfolio-screen.tsx'),
  wallet: () => import('../features/wallet/wallet-screen.tsx'),
  settings: () => import('../features/settings/settings-screen.tsx'),
  affiliate: () => import('../features/affiliate/affiliate-screen.tsx'),
  influencer: () => import('../features/influencer/influencer-screen.tsx'),
  signalProvider: () => import('../features/signal-provider/signal-provider-screen.tsx'),
  copyTrading: () => import('../features/copy-trading/copy-trading-screen.tsx'),
  analytics: () => import('../features/analytics/analytics-screen.tsx'),
  orders: () => import('../features/orders/orders-screen.tsx'),
  trades: () => import('../features/orders/trades-screen.tsx'),
  watchlist: () => import('../features/watchlist/watchlist-screen.tsx'),
  resetPassword: () => import('../features/auth/reset-password-screen.tsx'),
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
