import type { Trade } from '@platform/contracts';
import clsx from 'clsx';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatTime } from '../../lib/date-format.ts';
import { formatQuantity, formatTickPrice, formatTickPriceFull } from '../../lib/number-format.ts';
import { useRecentTrades } from '../market-data/index.ts';
import { ColumnHeading } from './column-heading.tsx';
import { type PanelPrecision, pairCurrencies, useTradingPair } from './market-format.ts';
import { useRovingRows } from './use-roving-rows.ts';
import '../../theme/trade-market.css';

export interface RecentTradesPanelProps {
  pairId: string;
  onPriceClick?: (price: string) => void;
  /** Trades shown, newest first. */
  limit?: number;
  /** Decimals of a market the spot pairs list does not hold (a perpetual's tick and lot). */
  precision?: PanelPrecision | undefined;
}

/** The market's latest trades: price coloured by the taker's side, amount and time. */
export function RecentTradesPanel({ pairId, onPriceClick, limit, precision }: RecentTradesPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const pair = useTradingPair(pairId);
  const { base, quote } = pairCurrencies(pairId, pair);
  const scales = pair ? { price: pair.price_precision, quantity: pair.quantity_precision } : precision;
  const { trades, status, reload } = useRecentTrades(pairId, limit);
  const { tabIndexOf, containerProps } = useRovingRows(
    trades.map((trade) => trade.id),
    trades[0]?.id,
  );

  return (
    <section className="tm-panel recent-trades" aria-labelledby={titleId} data-testid="recent-trades">
      <header className="tm-panel-head">
        <h2 id={titleId} className="tm-panel-title">
          {t('tradeMarket.trades.title')}
        </h2>
      </header>
      <div className="rt-columns" aria-hidden="true">
        <ColumnHeading label={t('tradeMarket.trades.price')} unit={quote} />
        <ColumnHeading label={t('tradeMarket.trades.amount')} unit={base} />
        <ColumnHeading label={t('tradeMarket.trades.time')} />
      </div>
      {trades.length > 0 ? (
        // biome-ignore lint/a11y/useSemanticElements: a fieldset relays out slowly in Chromium (about 20 ms for 50 rows), too slow for a live list.
        <div className="tm-rows rt-list" role="group" aria-labelledby={titleId} {...containerProps}>
          {trades.map((trade) => (
            <TradeRow
              key={trade.id}
              trade={trade}
              priceText={scales ? formatTickPrice(trade.price, scales.price) : trade.price}
              priceFull={scales ? formatTickPriceFull(trade.price, scales.price) : trade.price}
              amountText={scales ? formatQuantity(trade.quantity, scales.quantity, { compact: true }) : trade.quantity}
              amountFull={scales ? formatQuantity(trade.quantity, scales.quantity) : trade.quantity}
              timeText={formatTime(trade.timestamp)}
              tabIndex={tabIndexOf(trade.id)}
              sideText={trade.side === 'buy' ? t('tradeMarket.trades.buy') : t('tradeMarket.trades.sell')}
              onPriceClick={onPriceClick}
            />
          ))}
        </div>
      ) : (
        <div className="tm-state">
          {status === 'loading' && <Spinner label={t('tradeMarket.trades.loading')} />}
          {status === 'ready' && <p className="muted">{t('tradeMarket.trades.empty')}</p>}
          {status === 'error' && (
            <>
              <p role="alert">{t('tradeMarket.trades.failed')}</p>
              <button type="button" className="tm-link-button" onClick={reload}>
                {t('common.retry')}
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}

interface TradeRowProps {
  trade: Trade;
  priceText: string;
  priceFull: string;
  amountText: string;
  amountFull: string;
  timeText: string;
  sideText: string;
  tabIndex: number;
  onPriceClick: ((price: string) => void) | undefined;
}

const TradeRow = memo(function TradeRow({
  trade,
  priceText,
  priceFull,
  amountText,
  amountFull,
  timeText,
  sideText,
  tabIndex,
  onPriceClick,
}: TradeRowProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={clsx('rt-row', trade.side === 'buy' ? 'is-buy' : 'is-sell')}
      tabIndex={tabIndex}
      // Named by what it shows (WCAG 2.5.3); the full amounts are its description.
      title={t('tradeMarket.trades.rowLabel', {
        side: sideText,
        amount: amountFull,
        price: priceFull,
        time: timeText,
      })}
      data-testid="recent-trade-row"
      data-price={trade.price}
      data-side={trade.side}
      data-row-key={trade.id}
      onClick={() => onPriceClick?.(trade.price)}
    >
      <span className="visually-hidden">{sideText}</span> <span className="rt-price">{priceText}</span>{' '}
      <span className="rt-amount">{amountText}</span> <span className="rt-time">{timeText}</span>
    </button>
  );
});
