import { type Account, TWO_FACTOR_CODE_LENGTH, twoFactorCodeSchema } from '@platform/contracts';
import { MailCheck, MailWarning, ShieldCheck, ShieldOff } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountsApi } from '../../api/accounts.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';

interface TwoFactorSetup {
  secret: string;
  qrCode: string;
}

/** Checks a code with the contracts schema; returns the error key or null. */
function codeProblem(code: string): string | null {
  const parsed = twoFactorCodeSchema.safeParse(code);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

export function SecuritySection({ account }: { account: Account }) {
  const { t } = useTranslation();
  return (
    <section className="settings-card" aria-labelledby="settings-security-title">
      <h2 id="settings-security-title" className="settings-card-title">
        {t('settings.security.heading')}
      </h2>
      <TwoFactorPanel account={account} />
      <hr className="settings-rule" />
      <EmailVerificationPanel account={account} />
    </section>
  );
}

function TwoFactorPanel({ account }: { account: Account }) {
  const { t } = useTranslation();
  const setUser = useAppStore((state) => state.setUser);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'start' | 'confirm' | 'disable' | null>(null);
  const enabled = account.two_factor_enabled;

  const run = async (step: 'start' | 'confirm' | 'disable', action: () => Promise<void>) => {
    setBusy(step);
    try {
      await action();
    } catch (error) {
      toast.error(errorMessage(error, t, 'settings.security.failed'));
    } finally {
      setBusy(null);
    }
  };

  const start = () =>
    run('start', async () => {
      const answer = await accountsApi.startTwoFactorSetup(account.id);
      setSetup({ secret: answer.secret, qrCode: answer.qr_code });
      setCode('');
      setCodeError(null);
    });

  const submitCode = (event: FormEvent, step: 'confirm' | 'disable') => {
    event.preventDefault();
    const problem = codeProblem(code);
    setCodeError(problem);
    if (problem) return;
    void run(step, async () => {
      const answer =
        step === 'confirm'
          ? await accountsApi.confirmTwoFactor(account.id, code.trim())
          : await accountsApi.disableTwoFactor(account.id, code.trim());
      setUser({ ...account, two_factor_enabled: answer.two_factor_enabled });
      setSetup(null);
      setCode('');
      toast.success(answer.two_factor_enabled ? t('settings.security.enabled') : t('settings.security.disabled'));
    });
  };

  const codeField = (
    <TextField
      label={t('settings.security.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={TWO_FACTOR_CODE_LENGTH}
      className="field-narrow code-field"
      data-testid="settings-2fa-code"
      value={code}
      error={codeError ? translateMessage(t, codeError) : undefined}
      onChange={(event) => setCode(event.target.value)}
    />
  );

  return (
    <div className="security-block">
      <div className="security-block-head">
        <span className={enabled ? 'status-icon status-good' : 'status-icon'} aria-hidden="true">
          {enabled ? <ShieldCheck size={18} /> : <ShieldOff size={18} />}
        </span>
        <div>
          <h3 className="security-block-title">{t('settings.security.twoFactor')}</h3>
          <p className="muted" data-testid="settings-2fa-status">
            {enabled ? t('settings.security.twoFactorOn') : t('settings.security.twoFactorOff')}
          </p>
        </div>
      </div>

      {enabled ? (
        <form className="inline-form" noValidate onSubmit={(event) => submitCode(event, 'disable')}>
          <p className="muted">{t('settings.security.disableHint')}</p>
          {codeField}
          <Button type="submit" variant="danger" loading={busy === 'disable'} data-testid="settings-2fa-disable">
            {busy === 'disable' ? t('settings.security.disabling') : t('settings.security.disable')}
          </Button>
        </form>
      ) : setup ? (
        <form className="two-factor-setup" noValidate onSubmit={(event) => submitCode(event, 'confirm')}>
          <p className="muted">{t('settings.security.scanQr')}</p>
          <div className="two-factor-setup-grid">
            <img
              src={setup.qrCode}
              alt={t('settings.security.qrAlt')}
              className="qr-image"
              width={168}
              height={168}
              data-testid="settings-2fa-qr"
            />
            <div className="two-factor-setup-fields">
              <p className="field-label">{t('settings.security.secret')}</p>
              <code className="secret" data-testid="settings-2fa-secret">
                {setup.secret}
              </code>
              {codeField}
              <Button type="submit" loading={busy === 'confirm'} data-testid="settings-2fa-confirm">
                {busy === 'confirm' ? t('settings.security.confirming') : t('settings.security.confirm')}
              </Button>
            </div>
          </div>
        </form>
      ) : (
        <Button loading={busy === 'start'} onClick={start} data-testid="settings-2fa-enable">
          {busy === 'start' ? t('settings.security.starting') : t('settings.security.enable')}
        </Button>
      )}
    </div>
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
        <span className={verified ? 'status-icon status-good' : 'status-icon status-warn'} aria-hidden="true">
          {verified ? <MailCheck size={18} /> : <MailWarning size={18} />}
        </span>
        <div>
          <h3 className="security-block-title">
            {t('settings.security.email')}{' '}
            <span className={verified ? 'badge badge-good' : 'badge badge-warn'} data-testid="settings-email-status">
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
