import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PlaceholderScreen } from './placeholder-screen.tsx';

const pairPattern = /^[A-Z0-9]{2,10}\/[A-Z]{3,5}$/;
const carriedActions = new Set(['buy', 'sell']);

/** Spec §2.1: /trade takes an optional pair (BTC/USD) and a carried action (buy or sell). */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const pair = params.get('pair')?.toUpperCase() ?? null;
  const action = params.get('action');
  return (
    <PlaceholderScreen page="trade">
      {pair && pairPattern.test(pair) ? (
        <p className="context-chip" data-testid="trade-pair">
          {t('pages.trade.selectedPair', { pair })}
        </p>
      ) : null}
      {action && carriedActions.has(action) ? (
        <p className="context-chip">{t('pages.trade.selectedAction', { action })}</p>
      ) : null}
    </PlaceholderScreen>
  );
}
