import { useTranslation } from 'react-i18next';
import { LiveAnnouncement, useThrottledAnnouncement } from '../../components/ui/live-announcement.tsx';
import { formatTickPrice } from '../../lib/number-format.ts';
import { useOrderBook, useRecentTrades } from '../market-data/index.ts';

/** A screen reader hears the market at most this often (docs/accessibility.md). */
export const MARKET_ANNOUNCE_INTERVAL_MS = 10_000;

/**
 * The order book's and the tape's summary for screen readers: best bid, best ask and last trade, in
 * a polite live region that changes at most every MARKET_ANNOUNCE_INTERVAL_MS, never on every tick.
 */
export function MarketAnnouncer({ pairId, pricePrecision }: { pairId: string; pricePrecision: number }) {
  const { t } = useTranslation();
  const book = useOrderBook(pairId, 1);
  const { trades } = useRecentTrades(pairId, 1);
  const bid = book.bids[0]?.priceAmount;
  const ask = book.asks[0]?.priceAmount;
  const last = trades[0]?.price;
  const message =
    bid || ask || last
      ? t('tradeMarket.book.announce', {
          bid: bid ? formatTickPrice(bid, pricePrecision) : '—',
          ask: ask ? formatTickPrice(ask, pricePrecision) : '—',
          last: last ? formatTickPrice(last, pricePrecision) : '—',
        })
      : null;
  const said = useThrottledAnnouncement(message, MARKET_ANNOUNCE_INTERVAL_MS);
  return <LiveAnnouncement text={said} testId="market-announcer" />;
}
