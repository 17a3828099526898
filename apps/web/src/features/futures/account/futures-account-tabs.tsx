import type { FuturesMarket } from '@platform/contracts';
import clsx from 'clsx';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignedInAccountId } from '../../wallet/use-wallet.ts';
import { formatUsd } from '../futures-format.ts';
import { useFuturesAccount, useFuturesMarkets, useOpenFuturesOrders, usePositions } from '../futures-queries.ts';
import { EmptyState } from '../load-state.tsx';
import { FillsPanel, IncomePanel } from './history-tables.tsx';
import { OpenOrdersPanel, OrderHistoryPanel } from './orders-tables.tsx';
import { PnlText } from './position-cells.tsx';
import { PositionsPanel } from './positions-table.tsx';
import { TransferButton } from './transfer-dialog.tsx';

const TABS = ['positions', 'openOrders', 'orderHistory', 'tradeHistory', 'income'] as const;
type Tab = (typeof TABS)[number];

/** Positions, open orders, order and trade history, funding and income, over the futures wallet. */
export function FuturesAccountTabs(_props: { marketId: string; market: FuturesMarket | undefined }) {
  const { t } = useTranslation();
  const accountId = useSignedInAccountId();
  if (accountId === null) {
    return (
      <div className="fut-signed-out">
        <EmptyState text={t('futures.states.signIn')} />
      </div>
    );
  }
  return <SignedInTabs />;
}

function SignedInTabs() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('positions');
  const tabsId = useId();
  const markets = useFuturesMarkets().data ?? [];
  const marketOf = (id: string) => markets.find((market) => market.id === id);
  const counts = {
    positions: usePositions().data?.length ?? 0,
    openOrders: useOpenFuturesOrders().data?.orders.length ?? 0,
  };
  const tabLabel = (name: Tab) =>
    name === 'positions' || name === 'openOrders'
      ? t(`futures.tabs.${name}`, { count: counts[name] })
      : t(`futures.tabs.${name}`);
  return (
    <div className="fut-account" data-testid="futures-account-tabs">
      <WalletStrip />
      <div className="fut-tabs" role="tablist" aria-label={t('futures.tabs.label')}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${tabsId}-${name}`}
            aria-selected={tab === name}
            className={clsx('fut-tab', tab === name && 'active')}
            onClick={() => setTab(name)}
            data-testid={`futures-tab-${name}`}
          >
            {tabLabel(name)}
          </button>
        ))}
      </div>
      <div className="fut-tab-panel" role="tabpanel" aria-labelledby={`${tabsId}-${tab}`}>
        {tab === 'positions' ? <PositionsPanel markets={markets} /> : null}
        {tab === 'openOrders' ? <OpenOrdersPanel marketOf={marketOf} /> : null}
        {tab === 'orderHistory' ? <OrderHistoryPanel marketOf={marketOf} /> : null}
        {tab === 'tradeHistory' ? <FillsPanel marketOf={marketOf} /> : null}
        {tab === 'income' ? <IncomePanel marketOf={marketOf} /> : null}
      </div>
    </div>
  );
}

function WalletStrip() {
  const { t } = useTranslation();
  const account = useFuturesAccount().data;
  return (
    <section className="fut-wallet" aria-label={t('futures.account.title')} data-testid="futures-wallet">
      <dl className="fut-wallet-values">
        <div>
          <dt>{t('futures.account.margin')}</dt>
          <dd className="tabular">{formatUsd(account?.margin_balance)} USD</dd>
        </div>
        <div>
          <dt>{t('futures.account.available')}</dt>
          <dd className="tabular">{formatUsd(account?.available_balance)} USD</dd>
        </div>
        <div>
          <dt>{t('futures.account.unrealised')}</dt>
          <dd>{account ? <PnlText pnl={account.unrealised_pnl} /> : '—'}</dd>
        </div>
      </dl>
      <div className="fut-wallet-action">
        <TransferButton />
      </div>
    </section>
  );
}
