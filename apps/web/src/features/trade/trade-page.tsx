import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pairSymbol } from '../../lib/format.ts';
import { usePairs, usePriceUpdate } from '../market-data/index.ts';
import '../../theme/trade.css';
import { MarketKindSwitch } from './market-kind-switch.tsx';
import { AccountOrdersSlot, DepthChartSlot, OrderBookSlot, PriceChartSlot, RecentTradesSlot } from './market-slots.tsx';
import { OrderFormPanel, type PriceFill } from './order-form-panel.tsx';
import { StrategiesCard } from './strategies-card.tsx';
import { TradeLayout } from './trade-layout.tsx';
import { TradeTicker } from './trade-ticker.tsx';
import { useTradeRoute } from './use-trade-route.ts';

/** Spec §2.6: the trading page of one pair. */
export function TradePage() {
  const { t } = useTranslation();
  const pairsQuery = usePairs();
  const { pairId, side, selectPair } = useTradeRoute(pairsQuery.data);
  const pair = pairsQuery.data?.find((candidate) => candidate.id === pairId);
  const quote = usePriceUpdate(pairId);
  const lastPrice = quote?.price ?? pair?.current_price ?? null;
  const [priceFill, setPriceFill] = useState<PriceFill | null>(null);
  const onPriceClick = useCallback(
    (price: string) => setPriceFill((previous) => ({ price, seq: (previous?.seq ?? 0) + 1 })),
    [],
  );

  return (
    <div className="trade-page" data-testid="trade-page">
      <h1 className="visually-hidden">{t('trade.pageTitle', { pair: pairSymbol(pairId) })}</h1>
      <MarketKindSwitch current="spot" />
      <TradeLayout
        ticker={<TradeTicker pairId={pairId} pair={pair} quote={quote} onSelectPair={selectPair} />}
        book={<OrderBookSlot pairId={pairId} onPriceClick={onPriceClick} />}
        trades={<RecentTradesSlot pairId={pairId} onPriceClick={onPriceClick} />}
        chart={<PriceChartSlot pairId={pairId} />}
        depth={<DepthChartSlot pairId={pairId} />}
        account={<AccountOrdersSlot pairId={pairId} />}
        orderForm={
          pair ? (
            <OrderFormPanel pair={pair} lastPrice={lastPrice} side={side} priceFill={priceFill} />
          ) : (
            <OrderFormPlaceholder failed={pairsQuery.isError} onRetry={() => void pairsQuery.refetch()} />
          )
        }
        strategies={<StrategiesCard />}
      />
    </div>
  );
}

function OrderFormPlaceholder({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!failed) {
    return (
      <div className="trade-card trade-form-card trade-form-loading" aria-busy="true">
        <span className="skeleton-line" />
        <span className="skeleton-line" />
        <span className="skeleton-line" />
      </div>
    );
  }
  return (
    <div className="trade-card trade-form-card" role="alert">
      <p>{t('trade.loadFailed')}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
