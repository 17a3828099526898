import type { ComponentType } from 'react';

export interface RouteModule {
  Component: ComponentType;
}

/**
 * One lazy loader per screen (spec §2.1: all pages load lazily). The router and the prefetcher
 * share these functions, so a prefetched module is the one the router later renders.
 */
export const routeModules = {
  home: () => import('../screens/home-screen.tsx'),
  trade: () => import('../screens/trade-screen.tsx'),
  markets: () => import('../screens/markets-screen.tsx'),
  news: () => import('../screens/news-screen.tsx'),
  newsArticle: () => import('../screens/news-article-screen.tsx'),
  support: () => import('../screens/support-screen.tsx'),
  help: () => import('../screens/help-screen.tsx'),
  helpTrading: () => import('../screens/help-trading-screen.tsx'),
  helpFees: () => import('../screens/help-fees-screen.tsx'),
  social: () => import('../screens/social-screen.tsx'),
  marketplace: () => import('../screens/marketplace-screen.tsx'),
  erp: () => import('../screens/erp-screen.tsx'),
  admin: () => import('../screens/admin-screen.tsx'),
  chat: () => import('../screens/chat-screen.tsx'),
  portfolio: () => import('../screens/portfolio-screen.tsx'),
  wallet: () => import('../screens/wallet-screen.tsx'),
  settings: () => import('../features/settings/settings-screen.tsx'),
  affiliate: () => import('../screens/affiliate-screen.tsx'),
  influencer: () => import('../screens/influencer-screen.tsx'),
  signalProvider: () => import('../screens/signal-provider-screen.tsx'),
  copyTrading: () => import('../screens/copy-trading-screen.tsx'),
  analytics: () => import('../screens/analytics-screen.tsx'),
  orders: () => import('../screens/orders-screen.tsx'),
  trades: () => import('../screens/trades-screen.tsx'),
  watchlist: () => import('../screens/watchlist-screen.tsx'),
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
