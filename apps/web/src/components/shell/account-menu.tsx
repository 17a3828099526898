import { LogOut, Settings, User } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../../features/auth/session.ts';
import { useAppStore } from '../../state/app-store.ts';
import { MenuButton } from './menu-button.tsx';

export function AccountMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppStore((state) => state.user);
  if (!user) return null;
  // Spec §2.3: the avatar is the first name's initial.
  const initial = (user.first_name.trim()[0] ?? user.email[0] ?? '?').toUpperCase();
  const name = `${user.first_name} ${user.last_name}`.trim();

  const go = (path: string, close: () => void) => {
    close();
    void navigate(path);
  };

  return (
    <MenuButton
      label={t('topBar.accountMenu')}
      triggerClassName="avatar-button"
      testId="account-menu"
      trigger={
        <span className="avatar" data-testid="user-avatar" aria-hidden="true">
          {initial}
        </span>
      }
    >
      {(close) => (
        <>
          <div className="menu-identity">
            <span className="avatar avatar-lg" aria-hidden="true">
              {initial}
            </span>
            <div>
              <p className="menu-identity-name">{name || user.email}</p>
              <p className="menu-identity-email">{user.email}</p>
            </div>
          </div>
          <button type="button" className="menu-item" onClick={() => go('/social?section=profile', close)}>
            <User size={16} aria-hidden="true" />
            {t('topBar.profile')}
          </button>
          <button type="button" className="menu-item" onClick={() => go('/settings', close)}>
            <Settings size={16} aria-hidden="true" />
            {t('topBar.settings')}
          </button>
          <hr className="menu-rule" />
          <button
            type="button"
            className="menu-item menu-item-danger"
            data-testid="logout-button"
            onClick={async () => {
              close();
              // Leave guarded pages first, so the guard does not mistake the logout for an intrusion.
              await navigate('/');
              await logout();
            }}
          >
            <LogOut size={16} aria-hidden="true" />
            {t('topBar.logout')}
          </button>
        </>
      )}
    </MenuButton>
  );
}
