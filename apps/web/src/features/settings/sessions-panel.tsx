import type { ActiveSession, SessionsRevokedResponse } from '@platform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LogOut, Monitor, MonitorSmartphone, Smartphone } from 'lucide-react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountSecurityApi } from '../../api/account-security.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { formatLocale } from '../../lib/format-locale.ts';
import { useAppStore } from '../../state/app-store.ts';
import { settingsQueryKeys } from './query-keys.ts';
import { describeUserAgent } from './user-agent.ts';

const SESSIONS_KEY = settingsQueryKeys.sessions();

/** Ending a session voids every access token of the account: this device goes on with the one answered. */
function keepThisDevice(answer: SessionsRevokedResponse): void {
  if (answer.token) useAppStore.getState().setAccessToken(answer.token);
}

export function SessionsPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: accountSecurityApi.sessions });
  const refetch = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  const revokeOne = useMutation({
    mutationFn: (sessionId: string) => accountSecurityApi.revokeSession(sessionId),
    onSuccess: (answer) => {
      keepThisDevice(answer);
      toast.success(t('settings.security.sessions.revoked'));
    },
    onError: (error) => toast.error(errorMessage(error, t, 'settings.security.sessions.revokeFailed')),
    onSettled: refetch,
  });
  const revokeOthers = useMutation({
    mutationFn: accountSecurityApi.revokeOtherSessions,
    onSuccess: (answer) => {
      keepThisDevice(answer);
      toast.success(t('settings.security.sessions.revokedOthers', { count: answer.revoked }));
    },
    onError: (error) => toast.error(errorMessage(error, t, 'settings.security.sessions.revokeFailed')),
    onSettled: refetch,
  });

  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;
  return (
    <div className="security-block">
      <div className="security-block-head">
        <span className="status-icon" aria-hidden="true">
          <MonitorSmartphone size={18} />
        </span>
        <div>
          <h3 className="security-block-title">{t('settings.security.sessions.title')}</h3>
          <p className="muted">{t('settings.security.sessions.description')}</p>
        </div>
      </div>
      {sessions.isPending ? (
        <p className="muted session-status">
          <Spinner size={14} label={t('settings.security.sessions.loading')} />
          <span aria-hidden="true">{t('settings.security.sessions.loading')}</span>
        </p>
      ) : sessions.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(sessions.error, t, 'settings.security.sessions.loadFailed')}
        </p>
      ) : (
        <ul className="session-list" data-testid="session-list">
          {list.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={revokeOne.isPending && revokeOne.variables === session.id}
              onRevoke={() => revokeOne.mutate(session.id)}
            />
          ))}
        </ul>
      )}
      {sessions.isSuccess && others === 0 ? <p className="muted">{t('settings.security.sessions.empty')}</p> : null}
      <Button
        variant="secondary"
        icon={<LogOut size={16} />}
        disabled={others === 0}
        loading={revokeOthers.isPending}
        onClick={() => revokeOthers.mutate()}
        data-testid="sessions-revoke-others"
      >
        {revokeOthers.isPending
          ? t('settings.security.sessions.revokingOthers')
          : t('settings.security.sessions.revokeOthers')}
      </Button>
    </div>
  );
}

const dateTime = (value: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));

function SessionRow({ session, busy, onRevoke }: { session: ActiveSession; busy: boolean; onRevoke: () => void }) {
  const { t } = useTranslation();
  const device = describeUserAgent(session.user_agent);
  const name =
    device.browser && device.os
      ? t('settings.security.sessions.deviceOn', { browser: device.browser, os: device.os })
      : (device.browser ?? device.os ?? t('settings.security.sessions.unknownDevice'));
  const Icon = device.mobile ? Smartphone : Monitor;
  return (
    <li className="session-row" data-testid="session-row" data-current={session.current ? 'true' : undefined}>
      <span className="session-icon" aria-hidden="true">
        <Icon size={18} />
      </span>
      <div className="session-text">
        <p className="session-name" title={session.user_agent ?? undefined}>
          {name}
          {session.current ? (
            <span className="badge" data-tone="success" data-testid="session-current">
              {t('settings.security.sessions.current')}
            </span>
          ) : null}
        </p>
        <p className="session-meta muted">
          {session.ip ? <span>{t('settings.security.sessions.address', { ip: session.ip })}</span> : null}
          <span>
            {t('settings.security.sessions.signedIn', { time: dateTime(session.created_at, formatLocale()) })}
          </span>
          <span>
            {t('settings.security.sessions.lastActive', { time: dateTime(session.last_used_at, formatLocale()) })}
          </span>
        </p>
      </div>
      {session.current ? null : (
        <Button variant="ghost" size="sm" loading={busy} onClick={onRevoke} data-testid="session-revoke">
          {busy ? t('settings.security.sessions.revoking') : t('settings.security.sessions.revoke')}
        </Button>
      )}
    </li>
  );
}
