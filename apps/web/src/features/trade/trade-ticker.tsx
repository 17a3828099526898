import type { TradingPair } from '@platform/contracts';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCompactNumber, MISSING_VALUE, pairSymbol, percentDirection } from '../../lib/format.ts';
import { formatPairPrice } from '../../lib/number-format.ts';
import { type LiveQuote, quoteVolume, useMarketStatistics } from '../market-data/index.ts';
import { ChangeText, LivePrice } from '../markets/live-values.tsx';
import { PairSelector } from './pair-selector.tsx';

interface TradeTickerProps {
  pairId: string;
  pair: TradingPair | undefined;
  quote: LiveQuote | undefined;
  onSelectPair: (pairId: string) => void;
}

/**
 * The ticker strip over the page: the pair (its selector), the live last price, and the 24-hour
 * change, high, low and volumes. Live values come from the price stream; the statistics call fills
 * in until the first update arrives.
 */
export function TradeTicker({ pairId, pair, quote, onSelectPair }: TradeTickerProps) {
  const { t } = useTranslation();
  const statistics = useMarketStatistics(pairId).data;
  const [baseFromId, quoteFromId] = pairSymbol(pairId).split('/');
  const base = pair?.base_currency ?? baseFromId ?? '';
  const quoteCurrency = pair?.quote_currency ?? quoteFromId ?? '';
  const price = quote?.price ?? statistics?.price ?? pair?.current_price ?? null;
  const change = quote?.changePercent24h ?? statistics?.changePercent24h ?? pair?.change_24h ?? null;
  const changeAmount = quote?.change24h ?? statistics?.change24h ?? null;
  const direction = percentDirection(change);
  const high = quote?.high24h ?? statistics?.high24h ?? null;
  const low = quote?.low24h ?? statistics?.low24h ?? null;
  const volume = quote?.volume24h ?? statistics?.volume24h ?? pair?.volume_24h ?? null;
  const volumeInQuote = statistics?.quote_volume24h ?? quoteVolume(volume, price);
  const precision = pair?.price_precision;

  return (
    <section className="trade-ticker" aria-label={t('trade.ticker.label')} data-testid="trade-ticker">
      <PairSelector pairId={pairId} onSelect={onSelectPair} />
      <div className="trade-ticker-price">
        <span className="visually-hidden">{t('trade.ticker.lastPrice')}</span>
        <LivePrice
          price={price}
          quoteCurrency={quoteCurrency}
          pricePrecision={precision}
          testId="trade-last-price"
          className="trade-last-price"
        />
        <ChangeText value={change} testId="trade-change" />
      </div>
      <dl className="trade-ticker-stats">
        <Stat label={t('trade.ticker.change')} testId="trade-change-amount">
          <span className={clsx(direction > 0 && 'up', direction < 0 && 'down')}>
            {signed(formatPairPrice(changeAmount, quoteCurrency, precision), direction)}
          </span>
        </Stat>
        <Stat label={t('trade.ticker.high')} testId="trade-high">
          {formatPairPrice(high, quoteCurrency, precision)}
        </Stat>
        <Stat label={t('trade.ticker.low')} testId="trade-low">
          {formatPairPrice(low, quoteCurrency, precision)}
        </Stat>
        <Stat label={t('trade.ticker.volumeBase', { currency: base })} testId="trade-volume">
          {formatCompactNumber(volume)}
        </Stat>
        <Stat label={t('trade.ticker.volumeQuote', { currency: quoteCurrency })} testId="trade-quote-volume">
          {formatCompactNumber(volumeInQuote)}
        </Stat>
      </dl>
    </section>
  );
}

function Stat({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div className="trade-ticker-stat">
      <dt title={label}>{label}</dt>
      <dd className="tabular" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** '+$120.50' for a rise: the sign a ticker shows (a fall already has its '-'). */
function signed(text: string, direction: -1 | 0 | 1): string {
  return direction > 0 && text !== MISSING_VALUE && !text.startsWith('-') ? `+${text}` : text;
}
