import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PlaceholderScreen } from '../../components/ui/placeholder-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <PlaceholderScreen page="social">
      {params.get('section') === 'profile' ? <p className="context-chip">{t('pages.socialProfile')}</p> : null}
    </PlaceholderScreen>
  );
}
