import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppToaster } from '../../components/shell/app-toaster.tsx';

/** A futures component with a query client, a router and the toaster, as the page gives it. */
export function renderFutures(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/trade/futures/BTC_USD_PERP']}>{ui}</MemoryRouter>
      <AppToaster />
    </QueryClientProvider>,
  );
  return { user, queryClient };
}
