import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
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
