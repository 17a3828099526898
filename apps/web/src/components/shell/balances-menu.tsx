import { Coins, CreditCard, Repeat, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { balanceMenuItems } from '../../features/wallet/balances-model.ts';
import { useSmallBalanceRule } from '../../features/wallet/use-small-balance-rule.ts';
import { useLiveBalances, useWalletBalances } from '../../features/wallet/use-wallet.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatUsdPrice, MISSING_VALUE } from '../../lib/format.ts';
import { MenuButton } from './menu-button.tsx';
import '../../theme/notifications.css';

/**
 * Spec §7.8: when the balances cannot be loaded, placeholder balances BTC, ETH and USDT and a
 * total of 12345.67 show. They are marked as placeholders, under the failure, and carry no amounts
 * per currency: nothing here may pass for the user's real holdings.
 */
export const PLACEHOLDER_BALANCE_CURRENCIES = ['BTC', 'ETH', 'USDT'] as const;
export const PLACEHOLDER_BALANCE_TOTAL = '12345.67';

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
  const items = balanceMenuItems(data ?? [], useSmallBalanceRule().rule);
  // Placeholders only when nothing real is known: a failed refresh keeps the balances last loaded.
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
            <div className="balance-menu-placeholder" data-testid="balances-menu-placeholder">
              <p className="balance-menu-placeholder-alert" role="alert">
                {errorMessage(error, t, 'errors.failedToLoadWalletBalances')}
              </p>
              <p className="balance-menu-placeholder-note">{t('notificationCentre.balancesFallback.note')}</p>
              <ul className="balance-menu-list" aria-label={t('notificationCentre.balancesFallback.note')}>
                {PLACEHOLDER_BALANCE_CURRENCIES.map((currency) => (
                  <li key={currency} className="balance-menu-item">
                    <span className="balance-menu-currency">{currency}</span>
                    <span className="tabular">{MISSING_VALUE}</span>
                  </li>
                ))}
              </ul>
              <p className="balance-menu-placeholder-total">
                <span>{t('notificationCentre.balancesFallback.total')}</span>
                <span className="tabular">{formatUsdPrice(PLACEHOLDER_BALANCE_TOTAL)}</span>
              </p>
            </div>
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
          <Link className="menu-item" to="/wallet?action=buy" onClick={close} data-testid="balances-menu-buy">
            <CreditCard size={16} aria-hidden="true" />
            {t('wallet.balances.buy')}
          </Link>
          <Link className="menu-item" to="/wallet?action=convert" onClick={close} data-testid="balances-menu-convert">
            <Repeat size={16} aria-hidden="true" />
            {t('wallet.balances.convert')}
          </Link>
          <Link className="menu-item" to="/wallet" onClick={close} data-testid="balances-menu-open-wallet">
            <Wallet size={16} aria-hidden="true" />
            {t('wallet.balances.openWallet')}
          </Link>
        </>
      )}
    </MenuButton>
  );
}
