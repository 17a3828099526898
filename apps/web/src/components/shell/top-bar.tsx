import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../features/search/search-box.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { AccountMenu } from './account-menu.tsx';
import { BalancesMenu } from './balances-menu.tsx';
import { LanguageSelect } from './language-select.tsx';
import { NotificationsMenu } from './notifications-menu.tsx';
import { ThemeSelect } from './theme-select.tsx';
import { WalletConnectButton } from './wallet-connect-button.tsx';

interface TopBarProps {
  mobile: boolean;
  mobileOpen: boolean;
  onToggleSidebar: () => void;
}

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
            <BalancesMenu />
            <NotificationsMenu />
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
