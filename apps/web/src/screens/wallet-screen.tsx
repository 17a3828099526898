import { WalletScreen } from '../features/wallet/wallet-screen.tsx';
import { walletScreenTexts } from '../i18n/locales/en-wallet.ts';
import { addScreenTexts } from '../i18n/screen-texts.ts';

addScreenTexts({ wallet: walletScreenTexts });

/** Spec §2.1: /wallet, login required, with an optional carried action (deposit or withdraw). */
export function Component() {
  return <WalletScreen />;
}
