import { FUTURES_HIGH_LEVERAGE_WARNING, type FuturesMarket } from '@platform/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useAppStore } from '../../../state/app-store.ts';
import type { PriceFill } from '../../trade/order-form-panel.tsx';
import { useSignedInAccountId } from '../../wallet/use-wallet.ts';
import { TransferButton } from '../account/transfer-dialog.tsx';
import { useFuturesSettings, usePositions } from '../futures-queries.ts';
import { LeverageDialog } from '../leverage/leverage-dialog.tsx';
import { MarginModeSwitch } from '../leverage/margin-mode-switch.tsx';
import { LoadState } from '../load-state.tsx';
import { FuturesOrderForm } from './futures-order-form.tsx';

/**
 * The order card: margin mode and leverage over the form. Signed out it asks to log in (and comes
 * back here after).
 */
export function FuturesOrderPanel({ market, priceFill }: { market: FuturesMarket; priceFill: PriceFill | null }) {
  const { t } = useTranslation();
  const accountId = useSignedInAccountId();
  if (accountId === null) return <SignedOutCard />;
  return (
    <section className="trade-card trade-form-card fut-order-card" aria-label={t('futures.form.title')}>
      <SignedInPanel market={market} priceFill={priceFill} />
    </section>
  );
}

function SignedInPanel({ market, priceFill }: { market: FuturesMarket; priceFill: PriceFill | null }) {
  const { t } = useTranslation();
  const settingsQuery = useFuturesSettings();
  const settings = settingsQuery.data?.find((entry) => entry.market === market.id);
  const position = usePositions().data?.find((entry) => entry.market === market.id);
  const [leverageOpen, setLeverageOpen] = useState(false);
  // A market the account never configured trades at the server's default (20x, or the market's cap).
  const leverage = settingsQuery.data
    ? (settings?.leverage ?? Math.min(FUTURES_HIGH_LEVERAGE_WARNING, market.max_leverage))
    : null;
  if (!settingsQuery.data) {
    return <LoadState failed={settingsQuery.isError} onRetry={() => void settingsQuery.refetch()} lines={5} />;
  }
  return (
    <>
      <div className="fut-order-head">
        <MarginModeSwitch marketId={market.id} mode={position?.margin_mode ?? settings?.margin_mode} />
        <button
          type="button"
          className="btn btn-secondary btn-sm fut-leverage-button"
          onClick={() => setLeverageOpen(true)}
          disabled={leverage === null}
          data-testid="futures-leverage-button"
        >
          {leverage === null ? '—' : t('futures.leverage.button', { leverage })}
        </button>
        <TransferButton />
      </div>
      {leverage !== null ? <FuturesOrderForm market={market} leverage={leverage} priceFill={priceFill} /> : null}
      {leverageOpen && leverage !== null ? (
        <LeverageDialog
          market={market}
          leverage={leverage}
          notional={position?.notional ?? null}
          onClose={() => setLeverageOpen(false)}
        />
      ) : null}
    </>
  );
}

function SignedOutCard() {
  const { t } = useTranslation();
  const requireLogin = useAppStore((store) => store.requireLogin);
  const { pathname, search } = useLocation();
  return (
    <section className="trade-card trade-form-card fut-order-card">
      <p>{t('futures.signedOut')}</p>
      <button type="button" className="btn btn-primary" onClick={() => requireLogin(`${pathname}${search}`)}>
        {t('futures.login')}
      </button>
    </section>
  );
}
