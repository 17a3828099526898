import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { announceRateLimit, queryRetryDelay, shouldRetryQuery } from './api/rate-limit.ts';
import { useAccountLanguageSync } from './features/settings/account-language.ts';
import { i18n } from './i18n/i18n.ts';
import { switchLanguage } from './i18n/locale-loader.ts';
import { loadToasts, useToastsWanted } from './lib/lazy-toast.ts';
import { createAppRouter } from './routes/router.tsx';
import { useAppStore } from './state/app-store.ts';
import { applyTheme } from './theme/apply-theme.ts';

function createQueryClient(): QueryClient {
  return new QueryClient({
    // A read refused by fair use (429) is said once and retried after the server's Retry-After.
    queryCache: new QueryCache({ onError: announceRateLimit }),
    defaultOptions: {
      queries: { retry: shouldRetryQuery, retryDelay: queryRetryDelay, staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

/** Applies the chosen theme and language live, whichever component changed them; keeps the account's language. */
export function PreferenceSync() {
  const theme = useAppStore((state) => state.theme);
  const language = useAppStore((state) => state.language);
  useAccountLanguageSync();
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    if (i18n.language !== language) void switchLanguage(language);
  }, [language]);
  return null;
}

// Offline, the toaster's chunk may fail to load: the app goes on without toasts rather than failing.
const AppToaster = lazy(
  (): Promise<{ default: ComponentType }> =>
    import('./components/shell/app-toaster.tsx').then(
      (module) => ({ default: module.AppToaster }),
      () => ({ default: () => null }),
    ),
);

/** The toaster mounts once toasts are wanted (lib/lazy-toast.ts), or when the page is idle. */
function LazyToaster() {
  const wanted = useToastsWanted();
  useEffect(() => {
    if (wanted) return;
    const load = () => void loadToasts().catch(() => undefined);
    if (typeof globalThis.requestIdleCallback === 'function') {
      const handle = globalThis.requestIdleCallback(load, { timeout: 3_000 });
      return () => globalThis.cancelIdleCallback(handle);
    }
    const timer = setTimeout(load, 1_000);
    return () => clearTimeout(timer);
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <PreferenceSync />
      <RouterProvider router={router} />
      <LazyToaster />
    </QueryClientProvider>
  );
}
