import { useTranslation } from 'react-i18next';

type FailedTextKey = 'futures.loadFailed' | 'futures.states.failed' | 'futures.leverage.tiersFailed';

/** A skeleton while a read is under way, or its failure in plain words with a retry. */
export function LoadState({
  failed,
  onRetry,
  failedText = 'futures.states.failed',
  lines = 3,
}: {
  failed: boolean;
  onRetry: () => void;
  failedText?: FailedTextKey;
  lines?: number;
}) {
  const { t } = useTranslation();
  if (!failed) {
    return (
      <div className="fut-skeleton" aria-busy="true">
        <span className="visually-hidden">{t('futures.states.loading')}</span>
        {Array.from({ length: lines }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder lines
          <span key={index} className="skeleton-line" />
        ))}
      </div>
    );
  }
  return (
    <div className="fut-load-failed" role="alert">
      <p>{t(failedText)}</p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {t('futures.states.retry')}
      </button>
    </div>
  );
}

/** An empty table's line ("No open positions"). */
export function EmptyState({ text, testId }: { text: string; testId?: string }) {
  return (
    <p className="fut-empty" data-testid={testId}>
      {text}
    </p>
  );
}
