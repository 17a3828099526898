import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../features/search/search-box.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { AccountMenu } from './account-menu.tsx';
import { LanguageSelect } from './language-select.tsx';
import { ThemeSelect } from './theme-select.tsx';
import { WalletConnectButton } from './wallet-connect-button.tsx';

interface TopBarProps {
  mobile: boolean;
  mobileOpen: boolean;
  onToggleSidebar: () => void;
}

/**
 * The bell and its notification centre (list, live alerts, their texts) are for signed-in users only:
 * their code loads when the bell is shown, not with the shell (bench/README.md, "Trade page").
 */
const NotificationsMenu = lazy(() =>
  import('./notifications-menu.tsx').then((module) => ({ default: module.NotificationsMenu })),
);

/** Holds the bell's place while its code loads, so the top bar does not shift. */
const bellPlaceholder = <span className="icon-button notifications-bell" aria-hidden="true" />;

/** The balances menu (and the live balances it keeps) is for signed-in users only, like the bell. */
const BalancesMenu = lazy(() => import('./balances-menu.tsx').then((module) => ({ default: module.BalancesMenu })));
const balancesPlaceholder = <span className="icon-button" aria-hidden="true" />;

export function TopBar({ mobile, mobileOpen, onToggleSidebar }: TopBarProps) {
  const { t } = useTranslation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const collapsed = useAppStore((state) => state.sidebarCollapsed);
  const openModal = useAppStore((state) => state.openModal);

  const toggleLabel = mobile
    ? mobileOpen
      ? t('shell.closeMenu')
      : t('shell.openMenu')
    : collapsed
      ? t('shell.expandSidebar')
      : t('shell.collapseSidebar');
  const ToggleIcon = mobile ? (mobileOpen ? X : Menu) : collapsed ? PanelLeftOpen : PanelLeftClose;

  return (
    <header className="top-bar">
      <button
        type="button"
        className="icon-button"
        aria-label={toggleLabel}
        aria-controls="app-sidebar"
        aria-expanded={mobile ? mobileOpen : !collapsed}
        data-testid="sidebar-toggle"
        onClick={onToggleSidebar}
      >
        <ToggleIcon size={18} aria-hidden="true" />
      </button>
      <SearchBox />
      <div className="top-bar-actions">
        {isAuthenticated ? (
          <>
            <Suspense fallback={balancesPlaceholder}>
              <BalancesMenu />
            </Suspense>
            <Suspense fallback={bellPlaceholder}>
              <NotificationsMenu />
            </Suspense>
          </>
        ) : null}
        <LanguageSelect />
        <ThemeSelect />
        <WalletConnectButton />
        {isAuthenticated ? (
          <AccountMenu />
        ) : (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid="login-button"
            onClick={() => openModal('login')}
          >
            {t('topBar.login')}
          </button>
        )}
      </div>
    </header>
  );
}
