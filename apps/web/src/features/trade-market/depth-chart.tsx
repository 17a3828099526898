import type { Amount } from '@platform/money';
import { type PointerEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatQuantity, formatTickPrice, formatTickPriceFull } from '../../lib/number-format.ts';
import { type BookLevel, useOrderBook } from '../market-data/index.ts';
import { buildDepthModel, type DepthModel, type DepthPoint, toNumber } from './depth-model.ts';
import { deepestScale, pairCurrencies, useTradingPair } from './market-format.ts';
import '../../theme/trade-market.css';

export interface DepthChartProps {
  pairId: string;
}

/** The drawing's own units; the SVG stretches to its box. */
const WIDTH = 1000;
const HEIGHT = 300;
/** Headroom above the deepest total. */
const TOP_MARGIN = 0.08;

interface Geometry {
  x: (price: Amount) => number;
  y: (total: Amount) => number;
}

function geometryOf(model: DepthModel): Geometry {
  const low = toNumber(model.low);
  const width = toNumber(model.high) - low || 1;
  const maxTotal = toNumber(model.maxTotal) || 1;
  return {
    x: (price) => ((toNumber(price) - low) / width) * WIDTH,
    y: (total) => HEIGHT - (toNumber(total) / maxTotal) * HEIGHT * (1 - TOP_MARGIN),
  };
}

/** A step line from the best price outwards to the window's edge. */
function stepLine(points: readonly DepthPoint[], edge: number, { x, y }: Geometry): string {
  const first = points[0];
  if (!first) return '';
  const parts = [
    `M${x(first.price).toFixed(1)},${HEIGHT}`,
    `L${x(first.price).toFixed(1)},${y(first.total).toFixed(1)}`,
  ];
  for (let index = 1; index < points.length; index++) {
    const point = points[index];
    const previous = points[index - 1];
    if (!point || !previous) continue;
    parts.push(`L${x(point.price).toFixed(1)},${y(previous.total).toFixed(1)}`);
    parts.push(`L${x(point.price).toFixed(1)},${y(point.total).toFixed(1)}`);
  }
  const last = points[points.length - 1] ?? first;
  parts.push(`L${edge},${y(last.total).toFixed(1)}`);
  return parts.join(' ');
}

interface Pointer {
  side: 'bid' | 'ask';
  point: DepthPoint;
  x: number;
  y: number;
}

/** The point under the pointer, `fraction` of the chart's width from its left edge. */
function pointerAt(model: DepthModel, geometry: Geometry, fraction: number): Pointer | null {
  const onBidSide = fraction * WIDTH < geometry.x(model.mid);
  const points = onBidSide ? model.bids : model.asks;
  // The deepest level still inside the pointer's price: everything up to it is the total.
  let found: DepthPoint | undefined;
  for (const point of points) {
    const inside = onBidSide
      ? geometry.x(point.price) >= fraction * WIDTH
      : geometry.x(point.price) <= fraction * WIDTH;
    if (!inside) break;
    found = point;
  }
  if (!found) return null;
  return {
    side: onBidSide ? 'bid' : 'ask',
    point: found,
    x: geometry.x(found.price) / WIDTH,
    y: geometry.y(found.total) / HEIGHT,
  };
}

/** The pair's decimals, or, before the pair is known, those the book's own levels show. */
function precisionsOf(pair: ReturnType<typeof useTradingPair>, bids: readonly BookLevel[]) {
  return {
    pricePrecision:
      pair?.price_precision ??
      deepestScale(
        bids.slice(0, 1).map((level) => level.priceAmount),
        2,
      ),
    quantityPrecision:
      pair?.quantity_precision ??
      deepestScale(
        bids.slice(0, 5).map((level) => level.quantityAmount),
        4,
      ),
  };
}

/** Cumulative bids and asks around the mid price, drawn from the live book. */
export function DepthChart({ pairId }: DepthChartProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const pair = useTradingPair(pairId);
  const { base } = pairCurrencies(pairId, pair);
  const book = useOrderBook(pairId);
  const model = useMemo(() => buildDepthModel(book.bids, book.asks), [book.bids, book.asks]);
  const [pointer, setPointer] = useState<Pointer | null>(null);
  const { pricePrecision, quantityPrecision } = precisionsOf(pair, book.bids);
  const geometry = model ? geometryOf(model) : null;

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!model || !geometry) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0) return;
    setPointer(pointerAt(model, geometry, (event.clientX - box.left) / box.width));
  };

  const label = model
    ? t('tradeMarket.depth.label', {
        lowest: formatTickPriceFull(model.bids.at(-1)?.price ?? model.low, pricePrecision),
        highest: formatTickPriceFull(model.asks.at(-1)?.price ?? model.high, pricePrecision),
      })
    : t('tradeMarket.depth.title');

  return (
    <section className="tm-panel depth-chart" aria-labelledby={titleId} data-testid="depth-chart">
      <header className="tm-panel-head">
        <h2 id={titleId} className="tm-panel-title">
          {t('tradeMarket.depth.title')}
        </h2>
        <span className="dc-key is-bid">{t('tradeMarket.depth.bids')}</span>
        <span className="dc-key is-ask">{t('tradeMarket.depth.asks')}</span>
      </header>
      <div className="dc-body" onPointerMove={onPointerMove} onPointerLeave={() => setPointer(null)}>
        {model && geometry ? (
          <>
            <svg
              className="dc-svg"
              viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
              preserveAspectRatio="none"
              role="img"
              aria-label={label}
            >
              <path className="dc-area is-bid" d={`${stepLine(model.bids, 0, geometry)} L0,${HEIGHT} Z`} />
              <path
                className="dc-line is-bid"
                d={stepLine(model.bids, 0, geometry)}
                vectorEffect="non-scaling-stroke"
              />
              <path className="dc-area is-ask" d={`${stepLine(model.asks, WIDTH, geometry)} L${WIDTH},${HEIGHT} Z`} />
              <path
                className="dc-line is-ask"
                d={stepLine(model.asks, WIDTH, geometry)}
                vectorEffect="non-scaling-stroke"
              />
              <line
                className="dc-mid"
                x1={geometry.x(model.mid)}
                x2={geometry.x(model.mid)}
                y1={0}
                y2={HEIGHT}
                vectorEffect="non-scaling-stroke"
              />
            </svg>
            <span className="dc-axis dc-max tabular" aria-hidden="true">
              {formatQuantity(model.maxTotal, quantityPrecision, { compact: true })} {base}
            </span>
            <div className="dc-axis dc-prices tabular" aria-hidden="true">
              <span>{formatTickPrice(model.low, pricePrecision)}</span>
              <span>{t('tradeMarket.depth.mid', { price: formatTickPrice(model.mid, pricePrecision) })}</span>
              <span>{formatTickPrice(model.high, pricePrecision)}</span>
            </div>
            {pointer && (
              <div
                className="dc-pointer"
                aria-hidden="true"
                style={{ left: `${pointer.x * 100}%`, top: `${pointer.y * 100}%` }}
              >
                <span className={pointer.side === 'bid' ? 'dc-dot is-bid' : 'dc-dot is-ask'} />
                <span className="dc-tip tabular" data-flip={pointer.x > 0.6 || undefined}>
                  {t('tradeMarket.depth.pointer', {
                    side: pointer.side === 'bid' ? t('tradeMarket.book.bid') : t('tradeMarket.book.ask'),
                    price: formatTickPrice(pointer.point.price, pricePrecision),
                    total: `${formatQuantity(pointer.point.total, quantityPrecision, { compact: true })} ${base}`,
                  })}
                </span>
              </div>
            )}
          </>
        ) : (
          <div className="tm-state">
            {book.status === 'loading' ? (
              <Spinner label={t('tradeMarket.book.loading')} />
            ) : (
              <p className="muted">{t('tradeMarket.depth.empty')}</p>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
