import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useAppStore } from '../state/app-store.ts';
import { routesToPrefetch } from './prefetch-rules.ts';
import { prefetchRoute } from './route-modules.ts';

export function useRoutePrefetch(): void {
  const { pathname } = useLocation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  useEffect(() => {
    for (const name of routesToPrefetch(pathname, isAuthenticated)) prefetchRoute(name);
  }, [pathname, isAuthenticated]);
}
