import clsx from 'clsx';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useFeedStatus } from '../market-data/index.ts';

/** Live, reconnecting, or offline with REST polling (spec §4), with a manual reconnect when offline. */
export function FeedStatusBadge() {
  const { t } = useTranslation();
  const { status, reconnect } = useFeedStatus();
  const state = status === 'open' ? 'live' : status === 'failed' ? 'offline' : 'connecting';
  return (
    <div className="feed-status" data-testid="feed-status" data-state={state}>
      <span className={clsx('feed-dot', `feed-dot-${state}`)} aria-hidden="true" />
      <span>{t(`feed.${state}`)}</span>
      {state === 'offline' ? (
        <button type="button" className="link-button feed-reconnect" onClick={reconnect}>
          <RefreshCw size={12} aria-hidden="true" />
          {t('feed.reconnect')}
        </button>
      ) : null}
    </div>
  );
}
