import { Unplug, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { shortenAddress } from '../../lib/wallet-format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { MenuButton } from './menu-button.tsx';

/**
 * Spec §2.3: opens the login modal, or shows the connected address as its first 6 and last 4
 * characters, with a menu to forget the wallet.
 */
export function WalletConnectButton() {
  const { t } = useTranslation();
  const wallet = useAppStore((state) => state.wallet);
  const setWallet = useAppStore((state) => state.setWallet);
  const openModal = useAppStore((state) => state.openModal);

  if (!wallet?.connected) {
    return (
      <button
        type="button"
        className="btn btn-secondary btn-sm wallet-connect"
        data-testid="wallet-connect-button"
        onClick={() => openModal('login')}
      >
        <Wallet size={16} aria-hidden="true" />
        <span className="hide-narrow">{t('topBar.connectWallet')}</span>
      </button>
    );
  }
  return (
    <MenuButton
      label={t('topBar.connectedWallet')}
      triggerClassName="wallet-address-chip"
      testId="wallet-connect-button"
      trigger={
        <>
          <span className={`network-dot network-${wallet.network}`} aria-hidden="true" />
          <span className="mono">{shortenAddress(wallet.address)}</span>
        </>
      }
    >
      {(close) => (
        <>
          <p className="menu-heading">{t('topBar.connectedWallet')}</p>
          <p className="menu-address mono">{wallet.address}</p>
          <button
            type="button"
            className="menu-item"
            onClick={() => {
              setWallet(null);
              close();
            }}
          >
            <Unplug size={16} aria-hidden="true" />
            {t('topBar.disconnectWallet')}
          </button>
        </>
      )}
    </MenuButton>
  );
}
