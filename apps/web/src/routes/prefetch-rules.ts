import type { RouteModuleName } from './route-modules.ts';

/**
 * Spec §2.2: when authenticated, trade, markets and portfolio are prefetched. From / markets is
 * prefetched, and trade too if logged in. From /trade portfolio and markets. From /markets trade.
 */
export function routesToPrefetch(pathname: string, isAuthenticated: boolean): RouteModuleName[] {
  const names = new Set<RouteModuleName>();
  if (isAuthenticated) {
    names.add('trade');
    names.add('markets');
    names.add('portfolio');
  }
  if (pathname === '/') {
    names.add('markets');
    if (isAuthenticated) names.add('trade');
  } else if (pathname === '/trade') {
    names.add('portfolio');
    names.add('markets');
  } else if (pathname === '/markets') {
    names.add('trade');
  }
  return [...names];
}
