import type { PortfolioSummary } from '@platform/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../components/ui/segmented.tsx';
import { type DonutSlice, donutSlices, formatShare, formatUsdValue, OTHER_SLICE_KEY } from './portfolio-model.ts';

const VIEWS = ['asset', 'product'] as const;
type AllocationView = (typeof VIEWS)[number];

/**
 * Slice colours, told apart on both themes (mid lightness, strong saturation); "other" is grey.
 * The ring's own background is the theme's border colour, so an empty ring still reads as a ring.
 */
const SLICE_COLOURS = ['#4f7cff', '#16c784', '#f5b942', '#e0569b', '#8b5cf6', '#22b8cf', '#f0803c'];
const OTHER_COLOUR = '#8a94a6';

export function sliceColour(slice: DonutSlice, index: number): string {
  return slice.key === OTHER_SLICE_KEY ? OTHER_COLOUR : (SLICE_COLOURS[index % SLICE_COLOURS.length] ?? OTHER_COLOUR);
}

/** Allocation by asset or by product: a donut with its legend (the legend carries the figures). */
export function AllocationCard({ summary }: { summary: PortfolioSummary }) {
  const { t } = useTranslation();
  const [view, setView] = useState<AllocationView>('asset');
  const items = view === 'asset' ? summary.allocation.by_asset : summary.allocation.by_product;
  const slices = donutSlices(items);
  const name = (key: string) => sliceName(key, view, (textKey) => t(textKey));
  const description = t('portfolio.allocation.chart', {
    view: view === 'asset' ? t('portfolio.allocation.byAsset') : t('portfolio.allocation.byProduct'),
    parts: slices
      .map((slice) => t('portfolio.allocation.part', { name: name(slice.key), share: formatShare(slice.sharePercent) }))
      .join(', '),
  });
  return (
    <section
      className="wallet-card pf-allocation"
      aria-labelledby="pf-allocation-title"
      data-testid="portfolio-allocation"
    >
      <header className="wallet-card-header">
        <h2 id="pf-allocation-title" className="wallet-card-title">
          {t('portfolio.allocation.title')}
        </h2>
        <Segmented
          legend={t('portfolio.allocation.view')}
          options={VIEWS}
          value={view}
          onChange={setView}
          label={(option) =>
            option === 'asset' ? t('portfolio.allocation.byAsset') : t('portfolio.allocation.byProduct')
          }
          testId={(option) => `portfolio-allocation-${option}`}
        />
      </header>
      <div className="pf-allocation-body">
        <Donut slices={slices} label={description} />
        <ul className="pf-legend" data-testid="portfolio-legend">
          {slices.map((slice, index) => (
            <li key={slice.key} data-testid={`portfolio-legend-${slice.key}`}>
              <span className="pf-swatch" style={{ background: sliceColour(slice, index) }} aria-hidden="true" />
              <span className="pf-legend-name">{name(slice.key)}</span>
              <span className="pf-legend-share tabular">{formatShare(slice.sharePercent)}</span>
              <span className="pf-legend-value tabular muted">{formatUsdValue(slice.value)}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

type AllocationTextKey = 'portfolio.allocation.other' | 'portfolio.allocation.futures' | 'portfolio.allocation.spot';

function sliceName(key: string, view: AllocationView, t: (textKey: AllocationTextKey) => string): string {
  if (key === OTHER_SLICE_KEY) return t('portfolio.allocation.other');
  if (view === 'product') return key === 'futures' ? t('portfolio.allocation.futures') : t('portfolio.allocation.spot');
  return key;
}

/** Circumference units of the ring: each slice's length is its share in percent (pathLength=100). */
const RING = 100;
/** The gap between two slices, in percent of the ring, so neighbours of one colour family stay apart. */
const SLICE_GAP = 0.6;

/** The ring: one stroked circle per slice, dashed to its share and rotated to where it starts. */
export function Donut({ slices, label }: { slices: readonly DonutSlice[]; label: string }) {
  const drawn = slices.filter((slice) => slice.lengthPercent > 0);
  const gap = drawn.length > 1 ? SLICE_GAP : 0;
  return (
    <svg className="pf-donut" viewBox="0 0 42 42" role="img" aria-label={label} data-testid="portfolio-donut">
      <circle className="pf-donut-track" cx="21" cy="21" r="15.9" pathLength={RING} />
      {slices.map((slice, index) =>
        slice.lengthPercent > 0 ? (
          <circle
            key={slice.key}
            className="pf-donut-slice"
            cx="21"
            cy="21"
            r="15.9"
            pathLength={RING}
            stroke={sliceColour(slice, index)}
            strokeDasharray={`${Math.max(slice.lengthPercent - gap, 0.2)} ${RING}`}
            strokeDashoffset={-slice.startPercent}
            data-slice={slice.key}
          />
        ) : null,
      )}
    </svg>
  );
}
