import type { FuturesMarket, FuturesOrderPreview } from '@platform/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/error-message.ts';
import { formatFuturesPrice, formatSize, formatUsd, marketPrecision } from '../futures-format.ts';
import type { OrderPreviewResult } from './use-order-preview.ts';

/**
 * What the order would cost and leave, from the server's preview, before anything is sent: cost,
 * initial margin, fee, the position after it and its liquidation price; or the preview's refusal
 * in its own words.
 */
export function OrderPreviewView({
  result,
  market,
  hasRequest,
}: {
  result: OrderPreviewResult;
  market: FuturesMarket;
  hasRequest: boolean;
}) {
  const { t } = useTranslation();
  const { preview, pending, error } = result;
  if (!hasRequest) return <p className="fut-preview-note">{t('futures.preview.waiting')}</p>;
  if (error) {
    return (
      <p className="fut-preview-error" role="alert" data-testid="futures-preview-error">
        {t('futures.preview.failed', { message: errorMessage(error, t, 'errors.failedToPlaceOrder') })}
      </p>
    );
  }
  if (!preview) {
    return (
      <p className="fut-preview-note" aria-busy="true">
        {t('futures.preview.loading')}
      </p>
    );
  }
  return <PreviewFigures preview={preview} market={market} stale={pending} />;
}

function PreviewFigures({
  preview,
  market,
  stale,
}: {
  preview: FuturesOrderPreview;
  market: FuturesMarket;
  stale: boolean;
}) {
  const { t } = useTranslation();
  const precision = marketPrecision(market);
  const side = preview.resulting_side ? t(`futures.positions.${preview.resulting_side}`) : t('futures.preview.none');
  return (
    <div className="fut-preview" data-testid="futures-preview" data-stale={stale || undefined}>
      {preview.error ? (
        <p className="fut-preview-error" role="alert" data-testid="futures-preview-error">
          {preview.error.message}
        </p>
      ) : null}
      <dl className="fut-preview-figures tabular">
        <Figure term={t('futures.preview.cost')} value={`${formatUsd(preview.cost)} USD`} testId="preview-cost" />
        <Figure
          term={t('futures.preview.margin')}
          value={`${formatUsd(preview.initial_margin)} USD`}
          testId="preview-margin"
        />
        <Figure term={t('futures.preview.fee')} value={`${formatUsd(preview.fee)} USD`} testId="preview-fee" />
        <Figure
          term={t('futures.preview.resulting')}
          value={preview.resulting_side ? `${side} ${formatSize(preview.resulting_size, precision.size)}` : side}
          testId="preview-resulting"
        />
        <Figure
          term={t('futures.preview.liquidation')}
          value={formatFuturesPrice(preview.liquidation_price, precision.price)}
          testId="preview-liquidation"
          strong
        />
      </dl>
    </div>
  );
}

function Figure({ term, value, testId, strong }: { term: string; value: string; testId: string; strong?: boolean }) {
  return (
    <div className={strong ? 'fut-figure fut-figure-strong' : 'fut-figure'}>
      <dt>{term}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
