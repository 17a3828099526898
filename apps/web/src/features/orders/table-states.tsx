import { ListX, LogIn } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { useAppStore } from '../../state/app-store.ts';

/** What an order or trade list shows instead of rows: loading, a failure with retry, nothing, or a login. */

export function TableLoading() {
  const { t } = useTranslation();
  return (
    <div className="orders-state orders-loading" aria-busy="true">
      <span className="skeleton-block skeleton-line" />
      <span className="skeleton-block skeleton-line" />
      <span className="skeleton-block skeleton-line" />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}

export function TableFailed({
  error,
  fallbackKey,
  onRetry,
}: {
  error: unknown;
  fallbackKey: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="orders-state" role="alert" data-testid="orders-load-failed">
      <p>{errorMessage(error, t, fallbackKey)}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

export function TableEmpty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="orders-state" data-testid={testId ?? 'orders-empty'}>
      <ListX size={20} aria-hidden="true" className="orders-state-icon" />
      <p>{children}</p>
    </div>
  );
}

/** Spec §8 'Please login to continue', with the button that opens the login and comes back here. */
export function SignInPrompt({ hint }: { hint?: string }) {
  const { t } = useTranslation();
  const requireLogin = useAppStore((state) => state.requireLogin);
  const { pathname, search, hash } = useLocation();
  return (
    <div className="orders-state orders-signed-out" data-testid="orders-signed-out">
      <p className="orders-state-title">{t('errors.pleaseLoginToContinue')}</p>
      {hint ? <p className="muted">{hint}</p> : null}
      <Button
        size="sm"
        icon={<LogIn size={16} aria-hidden="true" />}
        onClick={() => requireLogin(`${pathname}${search}${hash}`)}
        data-testid="orders-login"
      >
        {t('history.signedOut.login')}
      </Button>
    </div>
  );
}

/**
 * The body of a list: its loading, failure or empty state, else the rows. A failure while earlier
 * rows are shown keeps them (the refetch failed, the last answer still stands).
 */
export function TableBody({
  isPending,
  error,
  hasData,
  isEmpty,
  fallbackKey,
  onRetry,
  empty,
  children,
}: {
  isPending: boolean;
  error: unknown;
  hasData: boolean;
  isEmpty: boolean;
  fallbackKey: string;
  onRetry: () => void;
  empty: ReactNode;
  children: ReactNode;
}) {
  if (isPending && !hasData) return <TableLoading />;
  if (error && !hasData) return <TableFailed error={error} fallbackKey={fallbackKey} onRetry={onRetry} />;
  if (isEmpty) return <TableEmpty>{empty}</TableEmpty>;
  return children;
}
