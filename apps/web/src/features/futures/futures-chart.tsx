import type { FuturesMarket } from '@platform/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { pairSymbol } from '../../lib/format.ts';
import { PriceChartSlot } from '../trade/market-slots.tsx';
import { formatFuturesPrice, marketPrecision } from './futures-format.ts';
import { useMarkPrice } from './futures-queries.ts';
import { spotPairOf } from './futures-route.ts';

/**
 * The perpetual's chart: the last-price candles of the spot pair of its base ({BASE}_USD; the perp
 * has no candle series of its own yet), with the mark price as a dashed line and axis label, and
 * written out above the chart.
 */
export function FuturesChart({ marketId, market }: { marketId: string; market: FuturesMarket | undefined }) {
  const { t } = useTranslation();
  const mark = useMarkPrice(marketId).data?.mark_price ?? market?.mark_price ?? null;
  const spotPair = spotPairOf(marketId);
  const markText = formatFuturesPrice(mark, marketPrecision(market).price);
  const title = t('futures.chart.markLabel', { price: '' }).trim();
  const priceLine = useMemo(() => (mark ? { price: mark, title } : null), [mark, title]);
  return (
    <div className="fut-chart">
      <div className="fut-chart-notes">
        <span className="fut-mark-label tabular" data-testid="futures-chart-mark">
          {t('futures.chart.markLabel', { price: markText })}
        </span>
        <span className="fut-chart-source">{t('futures.chart.spotCandles', { pair: pairSymbol(spotPair) })}</span>
      </div>
      <PriceChartSlot pairId={spotPair} priceLine={priceLine} />
    </div>
  );
}
