import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { LoadFailed, LoadingLines } from '../wallet/load-states.tsx';

/**
 * The side list of a money tab (the latest deposits, withdrawals or payments): loading, failed
 * with a retry, empty, or its rows (`<li>`s).
 */
export function RecentList({
  testId,
  title,
  loading,
  failure = null,
  isEmpty,
  emptyIcon: EmptyIcon,
  emptyText,
  children,
}: {
  /** Names the list for tests; its title and empty state are named after it. */
  testId: string;
  title: string;
  loading: boolean;
  failure?: { message: string; onRetry: () => void } | null;
  isEmpty: boolean;
  emptyIcon: LucideIcon;
  emptyText: string;
  children: ReactNode;
}) {
  return (
    <section className="funds-side" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h3 id={`${testId}-title`} className="funds-side-title">
        {title}
      </h3>
      {loading ? (
        <LoadingLines />
      ) : failure ? (
        <LoadFailed message={failure.message} onRetry={failure.onRetry} />
      ) : isEmpty ? (
        <div className="wallet-empty funds-empty" data-testid={`${testId}-empty`}>
          <EmptyIcon size={20} aria-hidden="true" className="wallet-empty-icon" />
          <p>{emptyText}</p>
        </div>
      ) : (
        <ul className="funds-list">{children}</ul>
      )}
    </section>
  );
}
