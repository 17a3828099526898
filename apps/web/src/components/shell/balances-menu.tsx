import { Coins, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { balanceMenuItems } from '../../features/wallet/balances-model.ts';
import { useLiveBalances, useWalletBalances } from '../../features/wallet/use-wallet.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { MenuButton } from './menu-button.tsx';

/**
 * Spec §2.3: the signed-in user's non-zero balances (2 decimals, 8 for BTC). They stay fresh
 * through the socket's `balances` channel (useLiveBalances, mounted here: the top bar is always
 * there while signed in), with a 30 s poll in case the socket is down.
 */
export function BalancesMenu() {
  const { t } = useTranslation();
  useLiveBalances();
  // Read during this render, not inside the panel's render function: TanStack Query re-renders a
  // component only for the result fields it saw read, and the panel renders later, when opened.
  const { data, error, isPending, isError } = useWalletBalances();
  const items = balanceMenuItems(data ?? []);
  const failed = isError && !data;
  // The trigger shows coins, not a wallet: the wallet-connect button beside it already does.
  return (
    <MenuButton
      label={t('topBar.balances')}
      trigger={<Coins size={18} aria-hidden="true" />}
      testId="balances-menu"
      panelClassName="menu-panel-wide"
    >
      {(close) => (
        <>
          <p className="menu-heading">{t('topBar.balances')}</p>
          {isPending ? (
            <p className="menu-empty">{t('app.loading')}</p>
          ) : failed ? (
            <p className="menu-empty" role="alert">
              {errorMessage(error, t, 'errors.failedToLoadWalletBalances')}
            </p>
          ) : items.length === 0 ? (
            <p className="menu-empty">{t('errors.noBalancesAvailable')}</p>
          ) : (
            <ul className="balance-menu-list" data-testid="balances-menu-list">
              {items.map((item) => (
                <li key={item.currency} className="balance-menu-item" data-testid={`balances-menu-${item.currency}`}>
                  <span className="balance-menu-currency">{item.currency}</span>
                  <span className="balance-menu-amounts">
                    <span className="tabular" title={item.exactTotal}>
                      {item.total}
                    </span>
                    {item.hasLocked ? (
                      <span className="balance-menu-locked tabular">
                        {t('wallet.balances.locked')} {item.locked}
                      </span>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <hr className="menu-rule" />
          <Link className="menu-item" to="/wallet" onClick={close} data-testid="balances-menu-open-wallet">
            <Wallet size={16} aria-hidden="true" />
            {t('wallet.balances.openWallet')}
          </Link>
        </>
      )}
    </MenuButton>
  );
}
