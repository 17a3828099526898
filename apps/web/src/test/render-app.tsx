import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
// react-router/dom and react-router resolve to different builds under Vitest; the plain
// RouterProvider behaves the same apart from flushSync, which tests do not need.
import { createMemoryRouter, RouterProvider } from 'react-router';
import { PreferenceSync } from '../app.tsx';
import { AppToaster } from '../components/shell/app-toaster.tsx';
import { routes } from '../routes/router.tsx';

/** The whole app (routes, shell, toasts) at a path, in memory. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <PreferenceSync />
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { router, user };
}
