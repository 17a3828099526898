import type { TFunction } from 'i18next';
import type { ConnectedWallet } from './wallet-providers.ts';

/** The {wallet} of 'Logged in with {wallet}!': MetaMask or Phantom, else the wallet type. */
export function walletDisplayName(wallet: ConnectedWallet, t: TFunction): string {
  if (wallet.brand) return wallet.brand;
  return wallet.network === 'ethereum' ? t('auth.wallet.genericEthereum') : t('auth.wallet.genericSolana');
}
