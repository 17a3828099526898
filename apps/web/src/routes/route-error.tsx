import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/ui/button.tsx';

/** Shown when a screen fails to load (a stale chunk after a deploy, a dropped connection). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="route-error" role="alert">
      <p>{t('errors.pageLoadFailed')}</p>
      <Button
        variant="secondary"
        icon={<RefreshCw size={16} aria-hidden="true" />}
        onClick={() => window.location.reload()}
      >
        {t('common.reload')}
      </Button>
    </div>
  );
}

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="page-loader" role="status">
      <span className="page-loader-bar" />
      <span className="visually-hidden">{t('shell.loadingPage')}</span>
    </div>
  );
}
