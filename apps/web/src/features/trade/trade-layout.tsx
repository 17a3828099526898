import clsx from 'clsx';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../components/ui/segmented.tsx';

/** What the centre panel draws. */
export const CHART_VIEWS = ['chart', 'depth'] as const;
export type ChartView = (typeof CHART_VIEWS)[number];

/** The phone's market tabs (one market panel at a time under 720px of page width). */
export const PHONE_TABS = ['chart', 'book', 'trades'] as const;
export type PhoneTab = (typeof PHONE_TABS)[number];
const PINNED_PHONE_TABS = ['book', 'trades'] as const;

export interface TradeLayoutSlots {
  ticker: ReactNode;
  book: ReactNode;
  trades: ReactNode;
  chart: ReactNode;
  depth: ReactNode;
  account: ReactNode;
  orderForm: ReactNode;
  strategies: ReactNode;
  /**
   * On a phone, keep the chart in view above the order form, with only Book / Trades behind the
   * tabs (the futures screen: header, chart, form, book/trades, positions).
   */
  pinChartOnPhone?: boolean;
}

/**
 * The trade page's frame, with named slots (spec §2.6). Wide (>= 880px of page, a 1280px window
 * with both sidebars): the book down the left, the chart (or depth) over the account tabs in the
 * centre, the order form over the recent trades on the right, the strategies in a row below (the
 * area wrappers give way to a grid of panels, theme/trade.css). Medium: chart and form side by side, book and trades under
 * them. Phone: one column with a Chart / Book / Trades tab bar; every panel stays mounted (hidden
 * ones keep their live data), and the order form follows.
 */
export function TradeLayout({
  ticker,
  book,
  trades,
  chart,
  depth,
  account,
  orderForm,
  strategies,
  pinChartOnPhone = false,
}: TradeLayoutSlots) {
  const { t } = useTranslation();
  const [chartView, setChartView] = useState<ChartView>('chart');
  const phoneTabs = pinChartOnPhone ? PINNED_PHONE_TABS : PHONE_TABS;
  const [phoneTab, setPhoneTab] = useState<PhoneTab>(phoneTabs[0]);
  const tabsId = useId();
  const panelLabel: Record<PhoneTab, string> = {
    chart: t('trade.panels.chart'),
    book: t('trade.panels.orderBook'),
    trades: t('trade.panels.recentTrades'),
  };

  return (
    <div className="trade-layout" data-phone-tab={phoneTab} data-pin-chart={pinChartOnPhone || undefined}>
      <div className="trade-area-ticker">{ticker}</div>

      <div className="trade-phone-tabs" role="tablist" aria-label={t('trade.panels.label')}>
        {phoneTabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`${tabsId}-${tab}`}
            aria-selected={phoneTab === tab}
            aria-controls={`${tabsId}-${tab}-panel`}
            className={clsx('trade-phone-tab', phoneTab === tab && 'active')}
            onClick={() => setPhoneTab(tab)}
            data-testid={`trade-tab-${tab}`}
          >
            {t(`trade.panels.${tab}`)}
          </button>
        ))}
      </div>

      <div className="trade-area-market">
        {/* The panel inside is the landmark, named by its own heading. */}
        <div className="trade-panel trade-panel-book" id={`${tabsId}-book-panel`} data-testid="trade-slot-book">
          {book}
        </div>
        {/* The panel inside is the landmark, named by its own heading. */}
        <div className="trade-panel trade-panel-trades" id={`${tabsId}-trades-panel`} data-testid="trade-slot-trades">
          {trades}
        </div>
      </div>

      <section
        className="trade-panel trade-panel-chart"
        id={`${tabsId}-chart-panel`}
        aria-label={panelLabel.chart}
        data-testid="trade-slot-chart"
      >
        <div className="trade-chart-toolbar">
          <Segmented<ChartView>
            legend={t('trade.panels.chartKind')}
            options={CHART_VIEWS}
            value={chartView}
            onChange={setChartView}
            label={(view) => t(`trade.panels.${view}`)}
            testId={(view) => `trade-chart-view-${view}`}
            className="trade-chart-views"
          />
        </div>
        <div className="trade-chart-body">{chartView === 'chart' ? chart : depth}</div>
      </section>

      <div className="trade-area-entry">
        {orderForm}
        {strategies}
      </div>

      <section
        className="trade-panel trade-panel-account"
        aria-label={t('trade.panels.account')}
        data-testid="trade-slot-account"
      >
        {account}
      </section>
    </div>
  );
}
