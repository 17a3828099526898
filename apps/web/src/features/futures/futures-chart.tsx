import type { FuturesMarket } from '@platform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../api/futures.ts';
import type { CandleFeed } from '../market-data/index.ts';
import { PriceChartSlot } from '../trade/market-slots.tsx';
import { formatFuturesPrice, marketLabel, marketPrecision } from './futures-format.ts';
import { useMarkPrice } from './futures-queries.ts';

/**
 * The perpetual's chart: its own last-price candles (GET /v1/futures/markets/{market}/candles,
 * kept live from `trades.{MARKET}`), with the mark price as a dashed line and axis label, and
 * written out above the chart. A perpetual nobody has traded yet says so instead of candles.
 */
export function FuturesChart({ marketId, market }: { marketId: string; market: FuturesMarket | undefined }) {
  const { t } = useTranslation();
  const mark = useMarkPrice(marketId).data?.mark_price ?? market?.mark_price ?? null;
  const { price, size } = marketPrecision(market);
  const markText = formatFuturesPrice(mark, price);
  const title = t('futures.chart.markLabel', { price: '' }).trim();
  const priceLine = useMemo(() => (mark ? { price: mark, title } : null), [mark, title]);
  const feed = useMemo<CandleFeed>(() => ({ fetchRange: (range) => futuresApi.candles(marketId, range) }), [marketId]);
  const precision = useMemo(() => ({ price, quantity: size }), [price, size]);
  return (
    <div className="fut-chart">
      <div className="fut-chart-notes">
        <span className="fut-mark-label tabular" data-testid="futures-chart-mark">
          {t('futures.chart.markLabel', { price: markText })}
        </span>
      </div>
      <PriceChartSlot
        pairId={marketId}
        priceLine={priceLine}
        feed={feed}
        precision={precision}
        symbol={marketLabel(marketId, market)}
        emptyText={t('futures.chart.noTrades')}
      />
    </div>
  );
}
