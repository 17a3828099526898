import { type Amount, compare, formatDecimal } from '@platform/money';
import clsx from 'clsx';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { type CSSProperties, memo, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMediaQuery } from '../../hooks/use-media-query.ts';
import { toAmount } from '../../lib/format.ts';
import { formatTickPrice, formatTickPriceFull } from '../../lib/number-format.ts';
import { compressZeros } from '../../lib/subscript-zeros.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import { type BookSide, groupingSteps, useOrderBook, usePriceUpdate, useRecentTrades } from '../market-data/index.ts';
import { ColumnHeading } from './column-heading.tsx';
import { MarketAnnouncer } from './market-announcer.tsx';
import { deepestScale, type PanelPrecision, pairCurrencies, useTradingPair } from './market-format.ts';
import { type BookRow, buildBookRows } from './order-book-rows.ts';
import { useRovingRows } from './use-roving-rows.ts';
import '../../theme/trade-market.css';

export interface OrderBookPanelProps {
  pairId: string;
  /** A row's exact price ('67202.73'), e.g. to fill the order form. */
  onPriceClick?: (price: string) => void;
  /** Decimals of a market the spot pairs list does not hold (a perpetual's tick and lot). */
  precision?: PanelPrecision | undefined;
}

/** Levels a side: enough to read the book on a desktop, few enough for a phone's screen. */
const DESKTOP_LEVELS = 15;
const PHONE_LEVELS = 8;
const PHONE_QUERY = '(max-width: 640px)';

/** Best-guess precisions while the pairs list loads: the book's own strings tell them. */
function fallbackScales(picture: { bids: readonly { priceAmount: Amount; quantityAmount: Amount }[] }) {
  const sample = picture.bids.slice(0, 5);
  return {
    price: deepestScale(
      sample.map((level) => level.priceAmount),
      2,
    ),
    quantity: deepestScale(
      sample.map((level) => level.quantityAmount),
      4,
    ),
  };
}

/**
 * The live order book (spec §2.6): asks above with the lowest nearest the middle, bids below,
 * cumulative totals with depth bars, the spread and last price between them, and price grouping.
 */
export function OrderBookPanel({ pairId, onPriceClick, precision }: OrderBookPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const groupingId = useId();
  const pair = useTradingPair(pairId);
  const book = useOrderBook(pairId);
  const isPhone = useMediaQuery(PHONE_QUERY);
  const levels = isPhone ? PHONE_LEVELS : DESKTOP_LEVELS;
  const { base, quote } = pairCurrencies(pairId, pair);
  const guessed = fallbackScales(book);
  const pricePrecision = pair?.price_precision ?? precision?.price ?? guessed.price;
  const quantityPrecision = pair?.quantity_precision ?? precision?.quantity ?? guessed.quantity;
  const steps = useMemo(() => groupingSteps(pricePrecision), [pricePrecision]);
  const [stepIndex, setStepIndex] = useState(0);
  const step = steps[stepIndex] ?? steps[0] ?? { units: 1n, scale: pricePrecision };
  const rows = useMemo(
    () => buildBookRows(book, step, levels, quantityPrecision),
    [book, step, levels, quantityPrecision],
  );

  return (
    <section
      className="tm-panel order-book"
      aria-labelledby={titleId}
      data-testid="order-book"
      data-sequence={book.live && book.sequence !== null ? book.sequence : undefined}
      data-status={book.status}
    >
      <MarketAnnouncer pairId={pairId} pricePrecision={pricePrecision} />
      <header className="tm-panel-head">
        <h2 id={titleId} className="tm-panel-title">
          {t('tradeMarket.book.title')}
        </h2>
        <span
          className={clsx('tm-live-dot', book.live && 'is-live')}
          title={book.live ? t('tradeMarket.book.live') : t('tradeMarket.book.notLive')}
        >
          <span className="visually-hidden">
            {book.live ? t('tradeMarket.book.live') : t('tradeMarket.book.notLive')}
          </span>
        </span>
        <label className="visually-hidden" htmlFor={groupingId}>
          {t('tradeMarket.book.grouping')}
        </label>
        <select
          id={groupingId}
          className="tm-select ob-grouping"
          value={stepIndex}
          onChange={(event) => setStepIndex(Number(event.target.value))}
          data-testid="order-book-grouping"
          title={t('tradeMarket.book.grouping')}
        >
          {steps.map((option, index) => (
            <option key={formatDecimal(option)} value={index} aria-label={formatDecimal(option)}>
              {compressZeros(formatDecimal(option))}
            </option>
          ))}
        </select>
      </header>
      <div className="ob-columns" aria-hidden="true">
        <ColumnHeading label={t('tradeMarket.book.price')} unit={quote} />
        <ColumnHeading label={t('tradeMarket.book.amount')} unit={base} />
        <ColumnHeading label={t('tradeMarket.book.total')} unit={base} />
      </div>
      {book.status === 'ready' ? (
        <>
          <BookSideRows side="ask" rows={rows.asks} levels={levels} baseCurrency={base} onPriceClick={onPriceClick} />
          <SpreadRow pairId={pairId} spread={rows.spread} pricePrecision={pricePrecision} />
          <BookSideRows side="bid" rows={rows.bids} levels={levels} baseCurrency={base} onPriceClick={onPriceClick} />
        </>
      ) : (
        <div className="tm-state ob-state">
          {book.status === 'loading' ? (
            <Spinner label={t('tradeMarket.book.loading')} />
          ) : (
            <>
              <p role="alert">{t('tradeMarket.book.failed')}</p>
              <button type="button" className="tm-link-button" onClick={book.reload}>
                {t('common.retry')}
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}

interface BookSideRowsProps {
  side: BookSide;
  rows: readonly BookRow[];
  levels: number;
  baseCurrency: string;
  onPriceClick: ((price: string) => void) | undefined;
}

function BookSideRows({ side, rows, levels, baseCurrency, onPriceClick }: BookSideRowsProps) {
  const { t } = useTranslation();
  // Asks are drawn far to near, so the best ask sits just above the spread.
  const shown = side === 'ask' ? [...rows].reverse() : rows;
  const { tabIndexOf, containerProps } = useRovingRows(
    rows.map((row) => row.price),
    rows[0]?.price,
  );
  const padding = Math.max(0, levels - rows.length);

  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset relays out slowly in Chromium, too slow for rows that change every frame.
    <div
      className={clsx('tm-rows ob-side', side === 'ask' ? 'ob-asks' : 'ob-bids')}
      role="group"
      aria-label={side === 'ask' ? t('tradeMarket.book.asks') : t('tradeMarket.book.bids')}
      data-testid={side === 'ask' ? 'order-book-asks' : 'order-book-bids'}
      {...containerProps}
    >
      {side === 'ask' && <Padding count={padding} />}
      {rows.length === 0 && <p className="ob-empty">{t('tradeMarket.book.empty')}</p>}
      {shown.map((row) => (
        <BookRowButton
          key={row.price}
          row={row}
          tabIndex={tabIndexOf(row.price)}
          baseCurrency={baseCurrency}
          onPriceClick={onPriceClick}
        />
      ))}
      {side === 'bid' && <Padding count={padding} />}
    </div>
  );
}

/** Empty rows keep the spread in place while a side is short of levels. */
function Padding({ count }: { count: number }) {
  if (count === 0) return null;
  return <div className="ob-padding" aria-hidden="true" style={{ height: `calc(${count} * var(--ob-row-height))` }} />;
}

interface BookRowButtonProps {
  row: BookRow;
  tabIndex: number;
  baseCurrency: string;
  onPriceClick: ((price: string) => void) | undefined;
}

/** Rows are rebuilt every frame; one whose drawn values did not change skips rendering. */
function sameRow(before: BookRowButtonProps, after: BookRowButtonProps): boolean {
  return (
    before.tabIndex === after.tabIndex &&
    before.baseCurrency === after.baseCurrency &&
    before.onPriceClick === after.onPriceClick &&
    before.row.side === after.row.side &&
    before.row.price === after.row.price &&
    before.row.priceText === after.row.priceText &&
    before.row.amountText === after.row.amountText &&
    before.row.totalText === after.row.totalText &&
    before.row.depth === after.row.depth
  );
}

const BookRowButton = memo(function BookRowButton({ row, tabIndex, baseCurrency, onPriceClick }: BookRowButtonProps) {
  const { t } = useTranslation();
  const sideText = row.side === 'ask' ? t('tradeMarket.book.ask') : t('tradeMarket.book.bid');
  const label = t('tradeMarket.book.rowLabel', {
    side: sideText,
    price: row.priceFull,
    amount: `${row.amountFull} ${baseCurrency}`,
    total: `${row.totalFull} ${baseCurrency}`,
  });
  return (
    <button
      type="button"
      className={clsx('ob-row', row.side === 'ask' ? 'is-ask' : 'is-bid')}
      style={{ '--depth': row.depth } as CSSProperties}
      tabIndex={tabIndex}
      // Named by what it shows (WCAG 2.5.3); the full amounts are its description.
      title={label}
      data-testid="order-book-row"
      data-price={row.price}
      data-side={row.side}
      data-row-key={row.price}
      onClick={() => onPriceClick?.(row.price)}
    >
      <span className="visually-hidden">{sideText}</span> <span className="ob-price">{row.priceText}</span>{' '}
      <span className="ob-amount">{row.amountText}</span> <span className="ob-total">{row.totalText}</span>
    </button>
  );
}, sameRow);

interface SpreadRowProps {
  pairId: string;
  spread: ReturnType<typeof buildBookRows>['spread'];
  pricePrecision: number;
}

/**
 * The last price, coloured by its last move, and the spread between the best bid and ask. The last
 * price is the market's last trade; before any trade, the price feed's.
 */
function SpreadRow({ pairId, spread, pricePrecision }: SpreadRowProps) {
  const { t } = useTranslation();
  const quote = usePriceUpdate(pairId);
  const { trades } = useRecentTrades(pairId, 2);
  const lastTrade = trades[0]?.price;
  const feedDirection = usePriceDirection(quote?.price);
  const tradeDirection = usePriceDirection(lastTrade);
  const direction = lastTrade ? tradeDirection : feedDirection;
  const lastText = lastTrade ?? quote?.price;
  const last = toAmount(lastText);
  return (
    <div className="ob-spread" data-testid="order-book-spread">
      <span
        className={clsx('ob-last tabular', direction === 1 && 'is-up', direction === -1 && 'is-down')}
        data-testid="order-book-last-price"
        data-price={lastText}
      >
        <span className="visually-hidden">{t('tradeMarket.book.lastPrice')} </span>
        <span title={last ? formatTickPriceFull(last, pricePrecision) : undefined}>
          {formatTickPrice(last, pricePrecision)}
        </span>
        {direction === 1 && <ArrowUp size={14} aria-hidden="true" />}
        {direction === -1 && <ArrowDown size={14} aria-hidden="true" />}
      </span>
      <span className="ob-spread-value tabular">
        <span className="ob-spread-label">{t('tradeMarket.book.spread')}</span>{' '}
        {spread
          ? t('tradeMarket.book.spreadValue', {
              absolute: formatTickPrice(spread.absolute, pricePrecision),
              percent: localizedNumber(formatDecimal(spread.percent)),
            })
          : '—'}
      </span>
    </div>
  );
}

/** 1 when the price last went up, -1 down, 0 before it has moved. */
function usePriceDirection(price: string | undefined): -1 | 0 | 1 {
  const previous = useRef<{ price: string | undefined; direction: -1 | 0 | 1 }>({ price, direction: 0 });
  const state = previous.current;
  if (price !== state.price) {
    const before = toAmount(state.price);
    const now = toAmount(price);
    if (before && now) {
      const moved = compare(now, before);
      if (moved !== 0) state.direction = moved;
    }
    state.price = price;
  }
  return state.direction;
}
