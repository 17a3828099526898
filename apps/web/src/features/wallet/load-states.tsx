import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';

/**
 * The wallet's lists and cards while they load and when they could not be read: grey lines with
 * a label for screen readers, or the reason with a retry.
 */

export function LoadingLines({
  lines = 2,
  label,
  busy = true,
}: {
  lines?: 1 | 2;
  /** What is loading, for a screen reader; 'Loading…' when left out. */
  label?: string;
  /** False where the card around the lines says it is busy itself. */
  busy?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="wallet-table-skeleton" aria-busy={busy ? 'true' : undefined}>
      <span className="skeleton-block skeleton-line" />
      {lines === 2 ? <span className="skeleton-block skeleton-line" /> : null}
      <span className="visually-hidden">{label ?? t('app.loading')}</span>
    </div>
  );
}

export function LoadFailed({ message, onRetry, testId }: { message: ReactNode; onRetry: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="wallet-empty" role="alert" data-testid={testId}>
      <p>{message}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}
