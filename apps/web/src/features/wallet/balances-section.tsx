import { CreditCard, Repeat, Wallet } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/error-message.ts';
import { formatUsdPrice } from '../../lib/format.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { coinName } from '../markets/markets-model.ts';
import { balanceRows, formatBalanceRow } from './balances-model.ts';
import { LoadFailed, LoadingLines } from './load-states.tsx';
import { useSmallBalanceRule } from './use-small-balance-rule.ts';
import { useWalletBalances } from './use-wallet.ts';

/** Spec §2.7 balances: every wallet currency with available, locked and total; zeros hidden at first. */
export function BalancesSection() {
  const { t } = useTranslation();
  const balances = useWalletBalances();
  // One switch: zeros hidden at first (spec §2.7), and small ones too when Preferences say so.
  const [hideZero, setHideZero] = useState(true);
  const hideZeroId = useId();
  const small = useSmallBalanceRule();
  const rows = useMemo(
    () => balanceRows(balances.data ?? [], { hideZero, small: hideZero ? small.rule : null }).map(formatBalanceRow),
    [balances.data, hideZero, small.rule],
  );

  return (
    <section className="wallet-card" aria-labelledby="wallet-balances-title" data-testid="wallet-balances">
      <header className="wallet-card-header">
        <div>
          <h2 id="wallet-balances-title" className="wallet-card-title">
            {t('wallet.balances.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.balances.description')}</p>
        </div>
        <label className="wallet-filter" htmlFor={hideZeroId}>
          <input
            id={hideZeroId}
            type="checkbox"
            className="checkbox"
            checked={hideZero}
            onChange={(event) => setHideZero(event.target.checked)}
            data-testid="wallet-hide-zero"
          />
          {small.rule
            ? t('wallet.balances.hideSmall', { amount: formatUsdPrice(small.thresholdUsd) })
            : t('wallet.balances.hideZero')}
        </label>
      </header>
      {balances.isPending ? (
        <LoadingLines />
      ) : balances.isError && !balances.data ? (
        <LoadFailed
          message={errorMessage(balances.error, t, 'errors.failedToLoadWalletBalances')}
          onRetry={() => void balances.refetch()}
        />
      ) : rows.length === 0 ? (
        <div className="wallet-empty" data-testid="wallet-balances-empty">
          <Wallet size={22} aria-hidden="true" className="wallet-empty-icon" />
          <p>{t('errors.noBalancesAvailable')}</p>
          <p className="muted">{t('wallet.balances.emptyHint')}</p>
          <p className="wallet-empty-actions">
            <Link className="btn btn-primary btn-sm" to="/wallet?action=buy" data-testid="wallet-empty-buy">
              <CreditCard size={15} aria-hidden="true" />
              {t('wallet.actions.buy')}
            </Link>
            <Link className="btn btn-secondary btn-sm" to="/wallet?action=deposit" data-testid="wallet-empty-deposit">
              {t('wallet.actions.deposit')}
            </Link>
          </p>
          {hideZero ? (
            <button type="button" className="link-button" onClick={() => setHideZero(false)}>
              {t('wallet.balances.showAll')}
            </button>
          ) : null}
        </div>
      ) : (
        <div className="wallet-table-wrap">
          <table className="wallet-table" data-testid="wallet-balances-table">
            <thead>
              <tr>
                <th scope="col">{t('wallet.balances.currency')}</th>
                <th scope="col" className="num">
                  {t('wallet.balances.available')}
                </th>
                <th scope="col" className="num">
                  {t('wallet.balances.locked')}
                </th>
                <th scope="col" className="num">
                  {t('wallet.balances.total')}
                </th>
                <th scope="col" className="wallet-row-actions-head">
                  <span className="visually-hidden">{t('wallet.balances.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.currency} data-testid={`wallet-balance-${row.currency}`}>
                  <th scope="row">
                    <span className="wallet-currency">
                      <CoinIcon symbol={row.currency} size={26} />
                      <span className="pair-text">
                        <span className="pair-symbol">{row.currency}</span>
                        <span className="pair-name-small">{coinName(row.currency)}</span>
                      </span>
                    </span>
                  </th>
                  <td className="num tabular">{row.available}</td>
                  <td className="num tabular muted">{row.locked}</td>
                  <td className="num tabular wallet-total" title={row.exactTotal}>
                    {row.total}
                  </td>
                  <td className="wallet-row-actions">
                    <Link
                      className="btn btn-ghost btn-sm"
                      to={`/wallet?action=convert&from=${encodeURIComponent(row.currency)}`}
                      aria-label={t('wallet.balances.convertFrom', { currency: row.currency })}
                      data-testid={`wallet-balance-${row.currency}-convert`}
                    >
                      <Repeat size={14} aria-hidden="true" />
                      <span className="wallet-row-action-text">{t('wallet.actions.convert')}</span>
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
