import { type Candle, type ChartRange, chartRanges } from '@platform/contracts';
import { compare } from '@platform/money';
import clsx from 'clsx';
import {
  type CandlestickData,
  CandlestickSeries,
  ColorType,
  createChart,
  type HistogramData,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/ui/spinner.tsx';
import { toAmount } from '../../lib/format.ts';
import { formatLocale } from '../../lib/format-locale.ts';
import { formatQuantity, formatTickPrice } from '../../lib/number-format.ts';
import { type CandleFeed, type LiveCandles, useCandles } from '../market-data/index.ts';
import { axisPrice, axisTickmarks } from './chart-price-format.ts';
import { type ChartColors, useChartColors } from './chart-theme.ts';
import { chartTickMark, chartTimeLabel } from './chart-time-format.ts';
import { type PanelPrecision, pairCurrencies, useTradingPair } from './market-format.ts';
import '../../theme/trade-market.css';

export interface PriceChartProps {
  pairId: string;
  initialRange?: ChartRange;
  /** A horizontal line with an axis label over the candles (a perpetual's mark price). */
  priceLine?: PriceLineMark | null;
  /** A series that is not a spot pair's (a perpetual's own candles), named by `pairId`. */
  feed?: CandleFeed | undefined;
  /** Decimals of a market the spot pairs list does not hold (a perpetual's tick and lot). */
  precision?: PanelPrecision | undefined;
  /** The market's name for the chart's label, when not the pair's BASE/QUOTE. */
  symbol?: string | undefined;
  /** What the chart says with no candle to draw, when the spot text does not fit. */
  emptyText?: string | undefined;
}

export interface PriceLineMark {
  /** Exact decimal text; a number only to draw. */
  price: string;
  title: string;
}

/** The widest a candle's slot gets, zoomed in or fitted to a short history. */
const MAX_BAR_SPACING_PX = 48;

/** LineStyle.Dashed of lightweight-charts, by value (its enum is not needed to draw one line). */
const DASHED_LINE = 2;

/**
 * The optional price line, drawn on the candle series and moved with each new price. The chart is
 * made again when the language changes (`chartLocale`), so the line is drawn again on the new one.
 * A chart's removal takes its lines with it: the clean-up only removes a line from a chart still
 * alive (a removed chart throws 'Object is disposed').
 */
function usePriceLine(
  partsRef: RefObject<ChartParts | null>,
  line: PriceLineMark | null | undefined,
  color: string,
  chartLocale: string,
) {
  const price = line?.price ?? null;
  const title = line?.title ?? '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ref is PriceChart's, stable for its life; chartLocale stands for the chart it holds
  useEffect(() => {
    const series = partsRef.current?.candles;
    const value = price === null ? Number.NaN : Number(price);
    if (!series || typeof series.createPriceLine !== 'function' || !Number.isFinite(value)) return;
    const drawn = series.createPriceLine({
      price: value,
      title,
      color,
      lineStyle: DASHED_LINE,
      axisLabelVisible: true,
    });
    return () => {
      if (partsRef.current?.candles === series) series.removePriceLine(drawn);
    };
  }, [price, title, color, chartLocale]);
}

/**
 * Chart geometry is the one place prices become JavaScript numbers: lightweight-charts draws
 * numbers. Every value shown as text (the legend) is the candle's decimal string.
 */
const toTime = (timeMs: number) => Math.floor(timeMs / 1000) as UTCTimestamp;

function toBar(candle: Candle): CandlestickData<Time> {
  return {
    time: toTime(candle.time),
    open: Number(candle.open),
    high: Number(candle.high),
    low: Number(candle.low),
    close: Number(candle.close),
  };
}

function toVolume(candle: Candle, colors: ChartColors): HistogramData<Time> {
  const up = Number(candle.close) >= Number(candle.open);
  return { time: toTime(candle.time), value: Number(candle.volume), color: up ? colors.upVolume : colors.downVolume };
}

/** The candle that opened at `timeMs`, by binary search over candles oldest first. */
function candleAt(candles: readonly Candle[], timeMs: number): Candle | undefined {
  let low = 0;
  let high = candles.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candle = candles[middle];
    if (!candle) return undefined;
    if (candle.time === timeMs) return candle;
    if (candle.time < timeMs) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

function themeOptions(colors: ChartColors) {
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.background },
      textColor: colors.text,
      fontFamily: colors.font,
      fontSize: 11,
      // The library's licence asks for attribution; the logo gives it.
      attributionLogo: true,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
    timeScale: { borderColor: colors.border },
    crosshair: {
      vertLine: { color: colors.crosshair, labelBackgroundColor: colors.crosshair },
      horzLine: { color: colors.crosshair, labelBackgroundColor: colors.crosshair },
    },
  };
}

function candleColors(colors: ChartColors) {
  return {
    upColor: colors.up,
    downColor: colors.down,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
    borderVisible: false,
  };
}

interface ChartParts {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
}

/** The chart and its two series, made once per language (the library fixes its locale when made). */
function useChartParts(
  containerRef: RefObject<HTMLElement | null>,
  language: string,
  colorsRef: RefObject<ChartColors>,
  liveRef: RefObject<LiveCandles | null>,
  setHovered: (candle: Candle | null) => void,
): RefObject<ChartParts | null> {
  const partsRef = useRef<ChartParts | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are PriceChart's, stable for its life
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = createChart(container, {
      autoSize: true,
      ...themeOptions(colorsRef.current),
      localization: { locale: language, timeFormatter: chartTimeLabel(true) },
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        // A new market with one or two candles would otherwise draw each as wide as the pane.
        maxBarSpacing: MAX_BAR_SPACING_PX,
        borderColor: colorsRef.current.border,
        tickMarkFormatter: chartTickMark,
      },
      rightPriceScale: { borderColor: colorsRef.current.border, scaleMargins: { top: 0.1, bottom: 0.25 } },
    });
    const candles = chart.addSeries(CandlestickSeries, candleColors(colorsRef.current));
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    partsRef.current = { chart, candles, volume };
    const onCrosshair = (param: MouseEventParams<Time>) => {
      const current = liveRef.current;
      if (param.time === undefined || !current) {
        setHovered(null);
        return;
      }
      setHovered(candleAt(current.getCandles(), (param.time as number) * 1000) ?? null);
    };
    chart.subscribeCrosshairMove(onCrosshair);
    return () => {
      chart.unsubscribeCrosshairMove(onCrosshair);
      partsRef.current = null;
      chart.remove();
    };
  }, [language]);
  return partsRef;
}

/**
 * Keeps the chart's colours, price format and candles in step with the theme, the pair and the feed.
 * Each effect also runs again for a chart made anew for another language (`chartLocale`), which
 * starts empty: effects run in order, so they find the new chart that useChartParts made first.
 */
function useChartUpdates(
  partsRef: RefObject<ChartParts | null>,
  chartLocale: string,
  colors: ChartColors,
  colorsRef: RefObject<ChartColors>,
  liveRef: RefObject<LiveCandles | null>,
  pricePrecision: number,
  live: LiveCandles | null,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are PriceChart's, stable for its life; chartLocale stands for the chart they hold
  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    parts.chart.applyOptions(themeOptions(colors));
    parts.candles.applyOptions(candleColors(colors));
    const current = liveRef.current;
    if (current) parts.volume.setData(current.getCandles().map((candle) => toVolume(candle, colors)));
  }, [colors, chartLocale]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are PriceChart's, stable for its life; chartLocale stands for the chart they hold
  useEffect(() => {
    const parts = partsRef.current;
    if (!parts) return;
    const formatter = (price: number) => axisPrice(price, pricePrecision);
    const tickmarksFormatter = (prices: readonly number[]) => axisTickmarks(prices, pricePrecision);
    // `base` (1 / tick) rather than minMove alone: a BABYDOGE tick of 1e-14 is past where
    // 1 / minMove is exact in floating point, which the library's docs warn about.
    parts.candles.applyOptions({
      priceFormat: {
        type: 'custom',
        formatter,
        tickmarksFormatter,
        minMove: 10 ** -pricePrecision,
        base: 10 ** pricePrecision,
      },
    });
    parts.chart.applyOptions({ localization: { priceFormatter: formatter } });
  }, [pricePrecision, chartLocale]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are PriceChart's, stable for its life; chartLocale stands for the chart they hold
  useEffect(() => {
    const parts = partsRef.current;
    if (!parts || !live) return;
    const history = live.getCandles();
    parts.candles.setData(history.map(toBar));
    parts.volume.setData(history.map((candle) => toVolume(candle, colorsRef.current)));
    parts.chart.timeScale().fitContent();
    return live.subscribe((candle) => {
      parts.candles.update(toBar(candle));
      parts.volume.update(toVolume(candle, colorsRef.current));
    });
  }, [live, chartLocale]);
}

/** Candles of a day or longer start at midnight: the crosshair gives their date alone. */
const DAY_OR_LONGER: ReadonlySet<string> = new Set(['1d', '1w']);

/** The crosshair's time label for the candles' interval, on the chart of the current language. */
function useCrosshairTime(partsRef: RefObject<ChartParts | null>, interval: string, chartLocale: string) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ref is PriceChart's, stable for its life; chartLocale stands for the chart it holds
  useEffect(() => {
    partsRef.current?.chart.applyOptions({
      localization: { timeFormatter: chartTimeLabel(!DAY_OR_LONGER.has(interval)) },
    });
  }, [interval, chartLocale]);
}

/** Candles of the chosen range with volume (spec §2.6 ranges), live from trades and prices. */
export function PriceChart({
  pairId,
  initialRange = '1h',
  priceLine,
  feed,
  precision,
  symbol,
  emptyText,
}: PriceChartProps) {
  const { t } = useTranslation();
  const colors = useChartColors();
  const pair = useTradingPair(pairId);
  const { base } = pairCurrencies(pairId, pair);
  const pricePrecision = pair?.price_precision ?? precision?.price ?? 2;
  const quantityPrecision = pair?.quantity_precision ?? precision?.quantity ?? 2;
  const [range, setRange] = useState<ChartRange>(initialRange);
  const { live, interval, isLoading, error, refetch } = useCandles(pairId, range, feed);
  const containerRef = useRef<HTMLElement>(null);
  const colorsRef = useRef(colors);
  colorsRef.current = colors;
  const liveRef = useRef(live);
  liveRef.current = live;
  const [hovered, setHovered] = useState<Candle | null>(null);
  const lastCandle = useLastCandle(live);
  const titleId = useId();

  const chartLocale = formatLocale();
  const partsRef = useChartParts(containerRef, chartLocale, colorsRef, liveRef, setHovered);
  useChartUpdates(partsRef, chartLocale, colors, colorsRef, liveRef, pricePrecision, live);
  usePriceLine(partsRef, priceLine, colors.text, chartLocale);
  useCrosshairTime(partsRef, interval, chartLocale);

  const legend = hovered ?? lastCandle;
  const failed = Boolean(error) && !live;
  const empty = live !== null && live.getCandles().length === 0;

  return (
    <section
      className="tm-panel price-chart"
      aria-labelledby={titleId}
      data-testid="price-chart"
      data-last-close={lastCandle?.close}
    >
      <header className="tm-panel-head pc-head">
        <h2 id={titleId} className="visually-hidden">
          {t('tradeMarket.chart.title')}
        </h2>
        <fieldset className="pc-ranges">
          <legend className="visually-hidden">{t('tradeMarket.chart.ranges')}</legend>
          {chartRanges.map((option) => (
            <button
              key={option}
              type="button"
              className={clsx('pc-range', option === range && 'active')}
              aria-pressed={option === range}
              onClick={() => setRange(option)}
              data-testid={`chart-range-${option}`}
            >
              {t(`tradeMarket.chart.range.${option}`)}
            </button>
          ))}
        </fieldset>
      </header>
      {legend && (
        <dl className="pc-legend tabular" aria-live="off">
          <LegendValue term={t('tradeMarket.chart.open')} value={formatTickPrice(legend.open, pricePrecision)} />
          <LegendValue term={t('tradeMarket.chart.high')} value={formatTickPrice(legend.high, pricePrecision)} />
          <LegendValue term={t('tradeMarket.chart.low')} value={formatTickPrice(legend.low, pricePrecision)} />
          <LegendValue
            term={t('tradeMarket.chart.close')}
            value={formatTickPrice(legend.close, pricePrecision)}
            tone={candleTone(legend)}
          />
          <LegendValue
            term={t('tradeMarket.chart.volume')}
            value={`${formatQuantity(legend.volume, quantityPrecision, { compact: true })} ${base}`}
          />
        </dl>
      )}
      <div className="pc-body">
        {/* A figure, not an image: the chart library draws its own link inside. */}
        <figure
          ref={containerRef}
          className="pc-canvas"
          aria-label={t('tradeMarket.chart.label', { symbol: symbol ?? pairId.replace('_', '/'), interval })}
        />
        {isLoading && (
          <div className="pc-overlay">
            <Spinner label={t('tradeMarket.chart.loading')} />
          </div>
        )}
        {failed && (
          <div className="pc-overlay">
            <p role="alert">{t('errors.failedToLoadChart')}</p>
            <button type="button" className="tm-link-button" onClick={refetch}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {empty && !isLoading && (
          <div className="pc-overlay">
            <p className="muted" data-testid="price-chart-empty">
              {emptyText ?? t('tradeMarket.chart.empty')}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}

/** Whether a candle closed above or below its open, compared exactly. */
function candleTone(candle: Candle): 'up' | 'down' | undefined {
  const open = toAmount(candle.open);
  const close = toAmount(candle.close);
  if (!open || !close) return undefined;
  const moved = compare(close, open);
  return moved === 0 ? undefined : moved > 0 ? 'up' : 'down';
}

function LegendValue({ term, value, tone }: { term: string; value: string; tone?: 'up' | 'down' | undefined }) {
  return (
    <div className="pc-legend-item">
      <dt>{term}</dt>
      <dd className={clsx(tone === 'up' && 'is-up', tone === 'down' && 'is-down')}>{value}</dd>
    </div>
  );
}

/** The newest candle, re-read at most once a frame as trades and prices move it. */
function useLastCandle(live: LiveCandles | null): Candle | null {
  const [last, setLast] = useState<Candle | null>(null);
  useEffect(() => {
    if (!live) return;
    setLast(live.getCandles().at(-1) ?? null);
    let frame: number | null = null;
    const leave = live.subscribe(() => {
      if (frame !== null) return;
      frame = requestAnimationFrame(() => {
        frame = null;
        setLast(live.getCandles().at(-1) ?? null);
      });
    });
    return () => {
      leave();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [live]);
  return last;
}
