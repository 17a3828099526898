import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import arabicShell from '../i18n/locales/ar/shell.json';
import { useAppStore } from '../state/app-store.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { accountId, makeAccount } from '../test/fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { routesToPrefetch } from './prefetch-rules.ts';

function signIn() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
}

describe('routes and guards (spec §2.1, §6)', () => {
  it('sends anonymous users from a login-required route to / and asks them to log in', async () => {
    const { router } = renderApp('/settings');
    // The toasts' code loads with the first toast (lib/lazy-toast.ts): it can take a moment.
    expect(await screen.findByText('Please login to continue', undefined, { timeout: 5_000 })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
    // The home screen is a lazy chunk: the first load in a run can take a moment.
    expect(await screen.findByTestId('page-title', undefined, { timeout: 5_000 })).toHaveTextContent(
      'Welcome to Meridian',
    );
  });

  it.each([
    '/chat',
    '/portfolio',
    '/wallet',
    '/affiliate',
    '/influencer',
    '/signal-provider',
    '/copy-trading',
    '/analytics',
  ])('guards %s', async (path) => {
    const { router } = renderApp(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
  });

  it('redirects any unknown path to /', async () => {
    const { router } = renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 5_000 });
  });

  it('opens open routes without login, with their title', async () => {
    renderApp('/news');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('News');
    expect(
      screen.getByText('This part of Meridian is not open yet: it arrives in a coming release.'),
    ).toBeInTheDocument();
  });

  it('lets an authenticated user into settings', async () => {
    stubFetch({ [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount()) });
    signIn();
    renderApp('/settings');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Settings');
    expect(screen.getByTestId('profile-username')).toBeInTheDocument();
  });

  it('renders admin outside the shell', async () => {
    renderApp('/admin');
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Admin');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  });

  it('prefetches by the spec rules', () => {
    expect(routesToPrefetch('/', false)).toEqual(['markets']);
    expect(routesToPrefetch('/', true).sort()).toEqual(['markets', 'portfolio', 'trade']);
    expect(routesToPrefetch('/trade', false).sort()).toEqual(['markets', 'portfolio']);
    expect(routesToPrefetch('/markets', false)).toEqual(['trade']);
    expect(routesToPrefetch('/news', false)).toEqual([]);
  });
});

describe('shell (spec §2.2, §2.3)', () => {
  it('marks the active sidebar item and collapses the sidebar', async () => {
    const { user } = renderApp('/markets');
    await screen.findByTestId('page-title');
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByRole('link', { name: 'Markets' })).toHaveAttribute('aria-current', 'page');
    expect(within(sidebar).getByText('Help')).toBeInTheDocument();
    await user.click(screen.getByTestId('sidebar-toggle'));
    expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    expect(within(sidebar).queryByText('Help')).not.toBeInTheDocument();
    expect(useAppStore.getState().sidebarCollapsed).toBe(true);
  });

  it('shows the login button when signed out and the account menu when signed in', async () => {
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('login-button'));
    expect(await screen.findByTestId('login-modal')).toBeInTheDocument();
    expect(screen.queryByTestId('account-menu')).not.toBeInTheDocument();
    expect(screen.queryByTestId('notifications-bell')).not.toBeInTheDocument();
  });

  it('shows the avatar initial, empty bell and balances, and logs out', async () => {
    const { calls } = stubFetch({
      'POST /v1/auth/logout': () => new Response(null, { status: 204 }),
      'GET /v1/wallet/balances': () => json(200, { balances: [{ currency: 'BTC', available: '0', locked: '0' }] }),
    });
    signIn();
    const { user } = renderApp('/');
    expect(await screen.findByTestId('user-avatar')).toHaveTextContent('A');
    await user.click(screen.getByTestId('notifications-bell'));
    expect(screen.getByText('No notifications yet')).toBeInTheDocument();
    await user.click(screen.getByTestId('balances-menu'));
    expect(await screen.findByText('No balances available')).toBeInTheDocument();
    await user.click(screen.getByTestId('account-menu'));
    await user.click(screen.getByTestId('logout-button'));
    await waitFor(() => expect(useAppStore.getState().isAuthenticated).toBe(false));
    expect(calls.some((call) => call.path === '/v1/auth/logout')).toBe(true);
    expect(await screen.findByTestId('login-button')).toBeInTheDocument();
  });

  it('searches with the keyboard and says when nothing matches', async () => {
    const { user, router } = renderApp('/');
    await screen.findByTestId('page-title');
    const input = screen.getByRole('combobox', { name: 'Search' });
    await user.type(input, 'qqqzzz');
    // The results follow the typing asynchronously: wait for them (a loaded machine is slow).
    expect(await screen.findByText('No results found')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'markets');
    await waitFor(() =>
      expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]).toHaveTextContent('Markets'),
    );
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.length).toBeLessThanOrEqual(8);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/markets'));
    await user.type(input, 'btc');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('applies the theme and language live', async () => {
    const { user } = renderApp('/');
    await screen.findByTestId('page-title');
    const themeSelect = screen.getByTestId('theme-select');
    expect(within(themeSelect).getAllByRole('option')).toHaveLength(8);
    await user.selectOptions(themeSelect, 'brightLight');
    expect(document.documentElement.dataset.theme).toBe('brightLight');
    expect(document.documentElement.style.getPropertyValue('--color-background')).toBe('#f4f6fa');
    const languageSelect = screen.getByTestId('language-select');
    expect(within(languageSelect).getAllByRole('option')).toHaveLength(22);
    await user.selectOptions(languageSelect, 'ar');
    await waitFor(() => expect(document.documentElement.lang).toBe('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    // Arabic's texts arrive without a reload (their chunk loads before the switch).
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent(arabicShell.pages.home.title));
    await user.selectOptions(languageSelect, 'en');
    await waitFor(() => expect(document.documentElement.dir).toBe('ltr'));
  });

  it('opens the AI panel with its being-built state', async () => {
    const { user } = renderApp('/');
    await user.click(await screen.findByTestId('ai-toggle'));
    expect(screen.getByTestId('ai-panel')).toHaveTextContent('The assistant is being built');
  });
});
