import { Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MenuButton } from './menu-button.tsx';

/**
 * Spec §2.3: the balances menu. Real balances arrive with the wallet issue; until then the list is
 * empty and says so, rather than showing numbers that are not the user's.
 */
export function BalancesMenu() {
  const { t } = useTranslation();
  return (
    <MenuButton label={t('topBar.balances')} trigger={<Wallet size={18} aria-hidden="true" />} testId="balances-menu">
      {() => (
        <>
          <p className="menu-heading">{t('topBar.balances')}</p>
          <p className="menu-empty">{t('errors.noBalancesAvailable')}</p>
        </>
      )}
    </MenuButton>
  );
}
