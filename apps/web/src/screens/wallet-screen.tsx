import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PlaceholderScreen } from './placeholder-screen.tsx';

const carriedActions = new Set(['deposit', 'withdraw']);

/** Spec §2.1: /wallet takes an optional carried action (deposit or withdraw). */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const action = params.get('action');
  return (
    <PlaceholderScreen page="wallet">
      {action && carriedActions.has(action) ? (
        <p className="context-chip">{t('pages.wallet.carriedAction', { action })}</p>
      ) : null}
    </PlaceholderScreen>
  );
}
