import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { TransferStatusPopups } from '../../features/wallet/transfer-status-popup.tsx';
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

/**
 * Spec §2.2: transfer status popups, stacked and offset vertically above the AI toggle, newest at
 * the bottom. The region is always in the page so screen readers hear popups as they arrive.
 */
export function TransferPopupsOverlay() {
  const { t } = useTranslation();
  return (
    <section className="transfer-popups" aria-label={t('wallet.transferPopup.region')} data-testid="transfer-popups">
      <TransferStatusPopups />
    </section>
  );
}
