import type { FuturesMarket } from '@platform/contracts';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../theme/trade.css';
import '../../theme/futures.css';
import { MarketKindSwitch } from '../trade/market-kind-switch.tsx';
import { DepthChartSlot, OrderBookSlot, RecentTradesSlot } from '../trade/market-slots.tsx';
import type { PriceFill } from '../trade/order-form-panel.tsx';
import { TradeLayout } from '../trade/trade-layout.tsx';
import { FuturesAccountTabs } from './account/futures-account-tabs.tsx';
import { FuturesChart } from './futures-chart.tsx';
import { marketLabel, marketPrecision } from './futures-format.ts';
import { FuturesHeader } from './futures-header.tsx';
import { useFuturesMarkets } from './futures-queries.ts';
import { LoadState } from './load-state.tsx';
import { FuturesOrderPanel } from './order-form/futures-order-panel.tsx';
import { useFuturesLive } from './use-futures-live.ts';
import { useFuturesRoute } from './use-futures-route.ts';

/**
 * The perpetual futures screen: the spot screen's frame (TradeLayout: book, chart, trades, form,
 * account tabs; one column with Chart / Book / Trades tabs on a phone), with the perpetual's own
 * header, order form and account tabs.
 */
export function FuturesPage() {
  const { t } = useTranslation();
  const marketsQuery = useFuturesMarkets();
  const { marketId, selectMarket } = useFuturesRoute(marketsQuery.data);
  const market = marketsQuery.data?.find((candidate) => candidate.id === marketId);
  const precision = usePanelPrecision(market);
  useFuturesLive(marketId);
  const [priceFill, setPriceFill] = useState<PriceFill | null>(null);
  const onPriceClick = useCallback(
    (price: string) => setPriceFill((previous) => ({ price, seq: (previous?.seq ?? 0) + 1 })),
    [],
  );

  return (
    <div className="trade-page futures-page" data-testid="futures-page" data-market={marketId}>
      <h1 className="visually-hidden">{t('futures.pageTitle', { market: marketLabel(marketId, market) })}</h1>
      <MarketKindSwitch current="futures" />
      <TradeLayout
        ticker={<FuturesHeader marketId={marketId} market={market} onSelectMarket={selectMarket} />}
        book={<OrderBookSlot pairId={marketId} onPriceClick={onPriceClick} precision={precision} />}
        trades={<RecentTradesSlot pairId={marketId} onPriceClick={onPriceClick} precision={precision} />}
        chart={<FuturesChart marketId={marketId} market={market} />}
        depth={<DepthChartSlot pairId={marketId} />}
        account={<FuturesAccountTabs marketId={marketId} market={market} />}
        orderForm={<OrderFormSlot market={market} query={marketsQuery} priceFill={priceFill} />}
        strategies={null}
        pinChartOnPhone
      />
    </div>
  );
}

/** The market's tick and lot decimals for the shared book and trades panels (stable while they hold). */
function usePanelPrecision(market: FuturesMarket | undefined) {
  const { price, size } = marketPrecision(market);
  const known = market !== undefined;
  return useMemo(() => (known ? { price, quantity: size } : undefined), [known, price, size]);
}

interface OrderFormSlotProps {
  market: FuturesMarket | undefined;
  query: { isError: boolean; refetch: () => unknown };
  priceFill: PriceFill | null;
}

function OrderFormSlot({ market, query, priceFill }: OrderFormSlotProps) {
  if (market) return <FuturesOrderPanel market={market} priceFill={priceFill} />;
  return (
    <div className="trade-card trade-form-card">
      <LoadState failed={query.isError} onRetry={() => void query.refetch()} failedText="futures.loadFailed" />
    </div>
  );
}
