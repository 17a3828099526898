import type { FuturesMarket } from '@platform/contracts';
import clsx from 'clsx';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { percentDirection } from '../../lib/format.ts';
import {
  countdown,
  formatChangePercent,
  formatFuturesPrice,
  formatRatePercent,
  formatSize,
  marketBase,
  marketPrecision,
} from './futures-format.ts';
import { FuturesMarketSelector } from './futures-market-selector.tsx';
import { useMarkPrice } from './futures-queries.ts';

interface FuturesHeaderProps {
  marketId: string;
  market: FuturesMarket | undefined;
  onSelectMarket: (marketId: string) => void;
}

/** Now, once a second, for the funding countdown. */
function useNow(intervalMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The perpetual's strip: the market (its selector), mark and index price (live on mark.{MARKET},
 * polled behind it), last price, the funding rate with a live countdown to the next round, the 24 h
 * change and the open interest.
 */
export function FuturesHeader({ marketId, market, onSelectMarket }: FuturesHeaderProps) {
  const { t } = useTranslation();
  const mark = useMarkPrice(marketId).data;
  const now = useNow();
  const precision = marketPrecision(market);
  const base = market?.base_currency ?? marketBase(marketId);
  const markPrice = mark?.mark_price ?? market?.mark_price ?? null;
  const nextFunding = mark?.next_funding_time ?? market?.next_funding_time ?? null;
  const change = market?.price_change_percent_24h ?? null;
  const direction = percentDirection(change);

  return (
    <section className="trade-ticker fut-header" aria-label={t('futures.header.label')} data-testid="futures-header">
      <FuturesMarketSelector marketId={marketId} market={market} onSelect={onSelectMarket} />
      <div className="trade-ticker-price">
        <span className="visually-hidden">{t('futures.header.mark')}</span>
        <span className="trade-last-price tabular" data-testid="futures-mark-price">
          {formatFuturesPrice(markPrice, precision.price)}
        </span>
      </div>
      <dl className="trade-ticker-stats">
        <Stat label={t('futures.header.index')} testId="futures-index-price">
          {formatFuturesPrice(mark?.index_price ?? market?.index_price, precision.price)}
        </Stat>
        <Stat label={t('futures.header.last')} testId="futures-last-price">
          {formatFuturesPrice(market?.last_price, precision.price)}
        </Stat>
        <Stat label={t('futures.header.funding')} testId="futures-funding">
          <span className="fut-funding-rate">{formatRatePercent(mark?.funding_rate ?? market?.funding_rate)}</span>
          {' / '}
          <span data-testid="futures-funding-countdown">
            {nextFunding === null ? '—' : countdown(nextFunding, now)}
          </span>
        </Stat>
        <Stat label={t('futures.header.change')} testId="futures-change">
          <span className={clsx(direction > 0 && 'up', direction < 0 && 'down')}>{formatChangePercent(change)}</span>
        </Stat>
        <Stat label={t('futures.header.openInterest', { currency: base })} testId="futures-open-interest">
          {formatSize(market?.open_interest, precision.size)}
        </Stat>
      </dl>
    </section>
  );
}

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="trade-ticker-stat">
      <dt title={label}>{label}</dt>
      <dd className="tabular" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
