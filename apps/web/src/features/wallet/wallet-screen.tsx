import clsx from 'clsx';
import { ArrowDownToLine, ArrowUpFromLine, CreditCard, Repeat, X } from 'lucide-react';
import { type KeyboardEvent, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { walletScreenTexts } from '../../i18n/locales/en-wallet.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { ConvertPanel } from '../conversions/convert-section.tsx';
import { KycSection } from '../kyc/kyc-section.tsx';
import { BuySection } from '../payments/buy-section.tsx';
import { DepositSection } from '../payments/deposit-section.tsx';
import { PaymentSection } from '../payments/payment-section.tsx';
import { WithdrawSection } from '../withdrawals/withdraw-section.tsx';
import { BalancesSection } from './balances-section.tsx';
import { HistorySection } from './history-section.tsx';
import { LegacyWallet } from './legacy-wallet.tsx';
import { SendSection } from './send-section.tsx';
import {
  parseWalletAction,
  parseWalletTab,
  tabAfterKey,
  type WalletAction,
  type WalletTab,
  walletTabLabelKey,
  walletTabs,
} from './wallet-tabs.ts';
import '../../theme/wallet-actions.css';

addScreenTexts({ wallet: walletScreenTexts });

/** The router's lazy module for /wallet (routes/route-modules.ts). */
export { WalletScreen as Component };

const tabId = (tab: WalletTab) => `wallet-tab-${tab}`;
const panelId = (tab: WalletTab) => `wallet-panel-${tab}`;

/** Spec §2.1 and §2.7: /wallet, login required, with a carried action (?action=deposit|withdraw|buy|convert). */
export function WalletScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const action = parseWalletAction(params.get('action'));
  const active = parseWalletTab(params.get('tab'), params.get('action'));
  const tabRefs = useRef(new Map<WalletTab, HTMLButtonElement>());

  const select = (tab: WalletTab) => setParams(tab === 'triple-a' ? {} : { tab }, { replace: true });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const rightToLeft = getComputedStyle(event.currentTarget).direction === 'rtl';
    const next = tabAfterKey(active, event.key, rightToLeft);
    if (!next) return;
    event.preventDefault();
    select(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <div className="screen wallet-screen">
      <PageHeader
        title={t('pages.wallet.title')}
        description={t('pages.wallet.description')}
        actions={
          <div className="wallet-header-actions">
            <Link className="btn btn-primary btn-sm" to="/wallet?action=buy" data-testid="wallet-buy-link">
              <CreditCard size={15} aria-hidden="true" />
              {t('wallet.actions.buy')}
            </Link>
            <Link className="btn btn-secondary btn-sm" to="/wallet?action=convert" data-testid="wallet-convert-link">
              <Repeat size={15} aria-hidden="true" />
              {t('wallet.actions.convert')}
            </Link>
            <Link className="btn btn-secondary btn-sm" to="/wallet?action=deposit" data-testid="wallet-deposit-link">
              <ArrowDownToLine size={15} aria-hidden="true" />
              {t('wallet.actions.deposit')}
            </Link>
            <Link className="btn btn-secondary btn-sm" to="/wallet?action=withdraw" data-testid="wallet-withdraw-link">
              <ArrowUpFromLine size={15} aria-hidden="true" />
              {t('wallet.actions.withdraw')}
            </Link>
          </div>
        }
      />
      <div
        className="wallet-tabs"
        role="tablist"
        aria-label={t('wallet.tabsLabel')}
        onKeyDown={onKeyDown}
        tabIndex={-1}
      >
        {walletTabs.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              if (element) tabRefs.current.set(tab, element);
              else tabRefs.current.delete(tab);
            }}
            type="button"
            role="tab"
            id={tabId(tab)}
            aria-selected={active === tab}
            aria-controls={panelId(tab)}
            tabIndex={active === tab ? 0 : -1}
            className={clsx('wallet-tab', active === tab && 'active')}
            data-testid={tabId(tab)}
            onClick={() => select(tab)}
          >
            {t(`wallet.tabs.${walletTabLabelKey[tab]}`)}
          </button>
        ))}
      </div>
      <div className="wallet-panel" role="tabpanel" id={panelId(active)} aria-labelledby={tabId(active)}>
        {active === 'triple-a' ? (
          <TripleAWallet action={action} />
        ) : active === 'legacy' ? (
          <LegacyWallet />
        ) : active === 'kyc' ? (
          <KycSection />
        ) : (
          <PaymentSection />
        )}
      </div>
    </div>
  );
}

function TripleAWallet({ action }: { action: WalletAction | null }) {
  const [params] = useSearchParams();
  return (
    <div className="wallet-sections">
      {action ? <ActionSection key={`${action}-${params.toString()}`} action={action} params={params} /> : null}
      <BalancesSection />
      <div className="wallet-columns">
        <SendSection />
        <HistorySection />
      </div>
    </div>
  );
}

/** The carried action's own section (deposit or withdraw), focused where the user was sent. */
function ActionSection({ action, params }: { action: WalletAction; params: URLSearchParams }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    headingRef.current?.focus();
  }, []);
  const title = t(`wallet.${action}.title`);
  return (
    <section className="wallet-card" aria-labelledby="wallet-action-title" data-testid={`wallet-action-${action}`}>
      <header className="wallet-card-header">
        <h2 id="wallet-action-title" className="wallet-card-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h2>
        <Link
          className="icon-button icon-button-sm"
          to="/wallet"
          replace
          aria-label={t('wallet.actions.close', { action: title })}
          title={t('wallet.actions.close', { action: title })}
        >
          <X size={15} aria-hidden="true" />
        </Link>
      </header>
      {action === 'deposit' ? (
        <DepositSection />
      ) : action === 'withdraw' ? (
        <WithdrawSection />
      ) : action === 'buy' ? (
        <BuySection initialCurrency={params.get('currency')} />
      ) : (
        <ConvertPanel initialFrom={params.get('from')} initialTo={params.get('to')} />
      )}
    </section>
  );
}
