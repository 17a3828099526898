import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import type { PriceChartProps } from './price-chart.tsx';
import '../../theme/trade-market.css';

/**
 * The chart library is only for the trade page and sits in its own `charts` chunk: the module that
 * imports it loads when a chart first renders, not with the panels' index.
 */
const LoadedPriceChart = lazy(async () => ({ default: (await import('./price-chart.tsx')).PriceChart }));

export function PriceChart(props: PriceChartProps) {
  return (
    <Suspense fallback={<ChartPlaceholder />}>
      <LoadedPriceChart {...props} />
    </Suspense>
  );
}

function ChartPlaceholder() {
  const { t } = useTranslation();
  return (
    <div className="tm-panel price-chart pc-placeholder">
      <Spinner label={t('tradeMarket.chart.loading')} />
    </div>
  );
}
