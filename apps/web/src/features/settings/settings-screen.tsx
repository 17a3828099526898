import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { Bell, Languages, Palette, Shield, SlidersHorizontal, User } from 'lucide-react';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { accountsApi } from '../../api/accounts.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { settingsTexts } from '../../i18n/locales/en-settings.ts';
import { addScreenTexts } from '../../i18n/screen-texts.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useAppStore } from '../../state/app-store.ts';
import { clearPendingEmailVerification } from '../auth/post-login-redirect.ts';
import { AppearanceSection } from './appearance-section.tsx';
import { LanguageSection } from './language-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { PreferencesSection } from './preferences-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { settingsQueryKeys } from './query-keys.ts';
import { SecuritySection } from './security-section.tsx';

// This module is the /settings route's: its texts come with it.
addScreenTexts({ settings: settingsTexts });

const sections = [
  { id: 'profile', icon: User },
  { id: 'appearance', icon: Palette },
  { id: 'language', icon: Languages },
  { id: 'security', icon: Shield },
  { id: 'notifications', icon: Bell },
  { id: 'preferences', icon: SlidersHorizontal },
] as const;
type SectionId = (typeof sections)[number]['id'];

function isSectionId(value: string | null): value is SectionId {
  return sections.some((section) => section.id === value);
}

/** Keeps the stored account fresh while settings are open (2FA and verification flags change). */
function useFreshAccount() {
  const user = useAppStore((state) => state.user);
  const setUser = useAppStore((state) => state.setUser);
  useQuery({
    queryKey: settingsQueryKeys.account(user?.id ?? 'anonymous'),
    enabled: user !== null,
    queryFn: async () => {
      if (!user) return null;
      const account = await accountsApi.get(user.id);
      setUser(account);
      return account;
    },
  });
  return user;
}

/** Handles the link of the verification mail: /settings?verify=TOKEN. */
function useEmailVerificationLink() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const user = useAppStore((state) => state.user);
  const setUser = useAppStore((state) => state.setUser);
  const handledToken = useRef<string | null>(null);
  const token = params.get('verify');

  useEffect(() => {
    if (!token || !user || handledToken.current === token) return;
    handledToken.current = token;
    // This link is being handled now; a later login must not replay it.
    clearPendingEmailVerification();
    const toastId = toast.loading(t('settings.security.verifyingEmail'));
    accountsApi
      .verifyEmail(user.id, token)
      .then((answer) => {
        setUser({ ...user, email_verified: answer.email_verified });
        toast.success(t('settings.security.emailVerifiedToast'), { id: toastId });
      })
      .catch((error: unknown) => {
        toast.error(errorMessage(error, t, 'settings.security.verificationFailed'), { id: toastId });
      })
      .finally(() => {
        setParams({ section: 'security' }, { replace: true });
      });
  }, [token, user, setUser, setParams, t]);
}

export function Component() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const account = useFreshAccount();
  const requested = params.get('section');
  const active: SectionId = params.has('verify') ? 'security' : isSectionId(requested) ? requested : 'profile';
  useEmailVerificationLink();

  if (!account) return null;
  return (
    <div className="screen">
      <PageHeader title={t('settings.title')} />
      <div className="settings-layout">
        <nav className="settings-nav" aria-label={t('settings.sectionsLabel')}>
          {sections.map((section) => (
            <button
              key={section.id}
              type="button"
              className={clsx('settings-nav-item', active === section.id && 'active')}
              aria-current={active === section.id ? 'page' : undefined}
              data-testid={`settings-tab-${section.id}`}
              onClick={() => setParams({ section: section.id }, { replace: true })}
            >
              <section.icon size={16} aria-hidden="true" />
              {t(`settings.sections.${section.id}`)}
            </button>
          ))}
        </nav>
        <div className="settings-content">
          {active === 'profile' ? <ProfileSection account={account} /> : null}
          {active === 'appearance' ? <AppearanceSection /> : null}
          {active === 'language' ? <LanguageSection /> : null}
          {active === 'security' ? <SecuritySection account={account} /> : null}
          {active === 'notifications' ? <NotificationsSection /> : null}
          {active === 'preferences' ? <PreferencesSection /> : null}
        </div>
      </div>
    </div>
  );
}
