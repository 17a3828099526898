import {
  TOAST_DEFAULT_DURATION_MS,
  TOAST_ERROR_DURATION_MS,
  TOAST_SUCCESS_DURATION_MS,
  TOP_BAR_HEIGHT_PX,
} from '@platform/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Toaster } from 'react-hot-toast';
import { RouterProvider } from 'react-router/dom';
import { i18n } from './i18n/i18n.ts';
import { createAppRouter } from './routes/router.tsx';
import { useAppStore } from './state/app-store.ts';
import { applyTheme } from './theme/apply-theme.ts';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: 1, staleTime: 30_000, refetchOnWindowFocus: false } },
  });
}

/** Applies the chosen theme and language live, whichever component changed them. */
export function PreferenceSync() {
  const theme = useAppStore((state) => state.theme);
  const language = useAppStore((state) => state.language);
  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [language]);
  return null;
}

/** Toasts follow the theme through its CSS variables. */
const toastStyle = {
  border: 'var(--effect-border-width) solid var(--color-border)',
  borderRadius: 'var(--radius-lg)',
  background: 'var(--color-surface-raised)',
  color: 'var(--color-text)',
  boxShadow: 'var(--shadow-lg)',
  fontSize: 'var(--font-size-md)',
  maxWidth: '380px',
};

/**
 * Spec §4 and §9: toasts at the top right; success 2 s, error and blank 4 s, loading until
 * dismissed. react-hot-toast shows at most 20 at once by default, the spec's limit.
 */
export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: TOP_BAR_HEIGHT_PX + 8 }}
      toastOptions={{
        duration: TOAST_DEFAULT_DURATION_MS,
        style: toastStyle,
        success: { duration: TOAST_SUCCESS_DURATION_MS },
        error: { duration: TOAST_ERROR_DURATION_MS },
      }}
    />
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <PreferenceSync />
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>
  );
}
