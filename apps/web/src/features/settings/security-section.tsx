import type { Account } from '@platform/contracts';
import { MailCheck, MailWarning } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../api/accounts.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import '../../theme/account-security.css';
import { ChangePasswordPanel } from './change-password-panel.tsx';
import { SessionsPanel } from './sessions-panel.tsx';
import { TwoFactorPanel } from './two-factor-panel.tsx';

export function SecuritySection({ account }: { account: Account }) {
  const { t } = useTranslation();
  return (
    <section className="settings-card" aria-labelledby="settings-security-title">
      <h2 id="settings-security-title" className="settings-card-title">
        {t('settings.security.heading')}
      </h2>
      <ChangePasswordPanel account={account} />
      <hr className="settings-rule" />
      <TwoFactorPanel account={account} />
      <hr className="settings-rule" />
      <SessionsPanel />
      <hr className="settings-rule" />
      <EmailVerificationPanel account={account} />
    </section>
  );
}

function EmailVerificationPanel({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const verified = account.email_verified;

  const send = async () => {
    setSending(true);
    try {
      await accountsApi.sendVerificationEmail(account.id);
      toast.success(t('settings.security.verificationSent'));
    } catch (error) {
      toast.error(errorMessage(error, t, 'settings.security.verificationFailed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="security-block">
      <div className="security-block-head">
        <span className="status-icon" data-tone={verified ? 'success' : 'warning'} aria-hidden="true">
          {verified ? <MailCheck size={18} /> : <MailWarning size={18} />}
        </span>
        <div>
          <h3 className="security-block-title">
            {t('settings.security.email')}{' '}
            <span className="badge" data-tone={verified ? 'success' : 'warning'} data-testid="settings-email-status">
              {verified ? t('settings.security.verified') : t('settings.security.unverified')}
            </span>
          </h3>
          <p className="muted">
            {verified
              ? t('settings.security.emailVerified', { email: account.email })
              : t('settings.security.emailUnverified', { email: account.email })}
          </p>
        </div>
      </div>
      {verified ? null : (
        <Button variant="secondary" loading={sending} onClick={send} data-testid="settings-send-verification">
          {sending ? t('settings.security.sending') : t('settings.security.sendVerification')}
        </Button>
      )}
    </div>
  );
}
