import type { WalletType } from '@platform/contracts';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

interface WalletButtonsProps {
  /** data-testid prefix: wallet-login or wallet-register. */
  testIdPrefix: 'wallet-login' | 'wallet-register';
  busy: WalletType | null;
  disabled?: boolean;
  onSelect: (network: WalletType) => void;
}

export function WalletButtons({ testIdPrefix, busy, disabled = false, onSelect }: WalletButtonsProps) {
  const { t } = useTranslation();
  const wallets = [
    { network: 'ethereum', name: t('auth.wallet.ethereum'), hint: t('auth.wallet.ethereumHint') },
    { network: 'solana', name: t('auth.wallet.solana'), hint: t('auth.wallet.solanaHint') },
  ] as const;
  return (
    <div className="wallet-buttons">
      {wallets.map((wallet) => (
        <button
          key={wallet.network}
          type="button"
          className="wallet-button"
          data-testid={`${testIdPrefix}-${wallet.network}`}
          disabled={disabled || busy !== null}
          aria-busy={busy === wallet.network || undefined}
          onClick={() => onSelect(wallet.network)}
        >
          <span className={`wallet-logo wallet-logo-${wallet.network}`} aria-hidden="true">
            {wallet.network === 'ethereum' ? <EthereumGlyph /> : <SolanaGlyph />}
          </span>
          <span className="wallet-button-text">
            <span className="wallet-button-name">{wallet.name}</span>
            <span className="wallet-button-hint">
              {busy === wallet.network ? t('auth.wallet.connecting') : wallet.hint}
            </span>
          </span>
          {busy === wallet.network ? <LoaderCircle size={16} className="spin" aria-hidden="true" /> : null}
        </button>
      ))}
    </div>
  );
}

function EthereumGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M12 2 5.5 12.3 12 16l6.5-3.7z" fill="currentColor" opacity="0.9" />
      <path d="M12 17.3 5.5 13.6 12 22l6.5-8.4z" fill="currentColor" opacity="0.6" />
    </svg>
  );
}

function SolanaGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path d="M6.5 5h13l-2 2.6h-13zM4.5 10.7h13l2 2.6h-13zM6.5 16.4h13l-2 2.6h-13z" fill="currentColor" />
    </svg>
  );
}
