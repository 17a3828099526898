import { WalletScreen } from '../features/wallet/wallet-screen.tsx';

/** Spec §2.1: /wallet, login required, with an optional carried action (deposit or withdraw). */
export function Component() {
  return <WalletScreen />;
}
