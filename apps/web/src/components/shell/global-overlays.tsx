import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { useTransferPopups } from '../../features/wallet/transfer-popups.ts';
import { useAppStore } from '../../state/app-store.ts';
import { Spinner } from '../ui/spinner.tsx';

/** Spec §2.2: the global loading overlay, shown while the state says the app is busy. */
export function LoadingOverlay() {
  const { t } = useTranslation();
  const isLoading = useAppStore((state) => state.isLoading);
  if (!isLoading) return null;
  return (
    <div className="loading-overlay" data-testid="loading-overlay">
      <Spinner label={t('app.loading')} size={32} />
    </div>
  );
}

/** A thin bar at the top while a lazy screen loads. */
export function RouteProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="route-progress" role="progressbar" aria-label={t('shell.loadingPage')} />;
}

/** A popup's code (its status poll and wording) loads with the first popup, not with the shell. */
const TransferStatusPopups = lazy(() =>
  import('../../features/wallet/transfer-status-popup.tsx').then((module) => ({
    default: module.TransferStatusPopups,
  })),
);

/**
 * Spec §2.2: transfer status popups, stacked and offset vertically above the AI toggle, newest at
 * the bottom. The region is always in the page so screen readers hear popups as they arrive.
 */
export function TransferPopupsOverlay() {
  const { t } = useTranslation();
  const open = useTransferPopups((state) => state.popups.length > 0);
  return (
    <section className="transfer-popups" aria-label={t('wallet.transferPopup.region')} data-testid="transfer-popups">
      {open ? (
        <Suspense fallback={null}>
          <TransferStatusPopups />
        </Suspense>
      ) : null}
    </section>
  );
}
