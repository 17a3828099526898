import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppShell } from '../components/shell/app-shell.tsx';
import { RequireAuth } from './require-auth.tsx';
import { PageLoader, RouteError } from './route-error.tsx';
import { routeModules } from './route-modules.ts';

const toRoot = <Navigate to="/" replace />;

/** Spec §2.1: every route, lazily loaded; admin sits outside the shell; unknown paths go to /. */
export const routes: RouteObject[] = [
  { path: '/admin', lazy: routeModules.admin, HydrateFallback: PageLoader, ErrorBoundary: RouteError },
  {
    path: '/',
    Component: AppShell,
    HydrateFallback: PageLoader,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          { index: true, lazy: routeModules.home },
          { path: 'trade', lazy: routeModules.trade },
          { path: 'trade/futures/:market?', lazy: routeModules.futures },
          { path: 'markets', lazy: routeModules.markets },
          { path: 'news', lazy: routeModules.news },
          { path: 'news/:id', lazy: routeModules.newsArticle },
          { path: 'support', lazy: routeModules.support },
          { path: 'help', lazy: routeModules.help },
          { path: 'help/trading', lazy: routeModules.helpTrading },
          { path: 'help/fees', lazy: routeModules.helpFees },
          { path: 'social', lazy: routeModules.social },
          { path: 'marketplace', lazy: routeModules.marketplace },
          { path: 'erp', lazy: routeModules.erp },
          { path: 'orders', lazy: routeModules.orders },
          { path: 'trades', lazy: routeModules.trades },
          { path: 'watchlist', lazy: routeModules.watchlist },
          // The page the password reset mail links to (docs/auth.md); open, like the login modal.
          { path: 'reset-password', lazy: routeModules.resetPassword },
          {
            Component: RequireAuth,
            children: [
              { path: 'chat', lazy: routeModules.chat },
              { path: 'portfolio', lazy: routeModules.portfolio },
              { path: 'wallet', lazy: routeModules.wallet },
              { path: 'settings', lazy: routeModules.settings },
              { path: 'affiliate', lazy: routeModules.affiliate },
              { path: 'influencer', lazy: routeModules.influencer },
              { path: 'signal-provider', lazy: routeModules.signalProvider },
              { path: 'copy-trading', lazy: routeModules.copyTrading },
              { path: 'analytics', lazy: routeModules.analytics },
            ],
          },
          { path: '*', element: toRoot },
        ],
      },
    ],
  },
  { path: '*', element: toRoot },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
