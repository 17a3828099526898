import { type Account, TWO_FACTOR_CODE_LENGTH, twoFactorCodeSchema } from '@platform/contracts';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountSecurityApi } from '../../api/account-security.ts';
import { accountsApi } from '../../api/accounts.ts';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import { RecoveryCodesNotice } from './recovery-codes-notice.tsx';

interface TwoFactorSetup {
  secret: string;
  qrCode: string;
}

type Step = 'start' | 'confirm' | 'disable' | 'renew';

/** Checks a code with the contracts schema; returns the error key or null. */
function codeProblem(code: string): string | null {
  const parsed = twoFactorCodeSchema.safeParse(code);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

/** A wrong code is the user's typo: it shows at the field, and the session is untouched. */
const isWrongCode = (error: unknown) =>
  error instanceof ApiError && (error.code === 'TWO_FACTOR_CODE_INVALID' || error.code === 'TWO_FACTOR_INVALID');

/** The code being typed (an authenticator code, or a recovery code to turn 2FA off) and its error. */
function useCodeEntry() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [withRecoveryCode, setWithRecoveryCode] = useState(false);

  const resetCode = () => {
    setCode('');
    setCodeError(null);
  };

  /** The code as the server takes it, or null after showing why it cannot be one. */
  const checkedCode = (): string | null => {
    if (withRecoveryCode) {
      if (code.trim() === '') {
        setCodeError(t('validation.recoveryCodeRequired'));
        return null;
      }
      return code.trim();
    }
    const problem = codeProblem(code);
    setCodeError(problem);
    return problem ? null : code.trim();
  };

  return { code, setCode, codeError, setCodeError, withRecoveryCode, setWithRecoveryCode, resetCode, checkedCode };
}

type CodeEntry = ReturnType<typeof useCodeEntry>;

/** Two-factor's steps (start, confirm, disable, renew), each with its busy state and its errors. */
function useTwoFactor(account: Account, entry: CodeEntry) {
  const { t } = useTranslation();
  const setUser = useAppStore((state) => state.setUser);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<Step | null>(null);
  const { withRecoveryCode, resetCode, checkedCode } = entry;

  const run = async (step: Step, action: () => Promise<void>) => {
    setBusy(step);
    try {
      await action();
    } catch (error) {
      if (isWrongCode(error)) entry.setCodeError(errorMessage(error, t, 'settings.security.failed'));
      else toast.error(errorMessage(error, t, 'settings.security.failed'));
    } finally {
      setBusy(null);
    }
  };

  const start = () =>
    run('start', async () => {
      const answer = await accountsApi.startTwoFactorSetup(account.id);
      setSetup({ secret: answer.secret, qrCode: answer.qr_code });
      resetCode();
    });

  const submitCode = (event: FormEvent, step: 'confirm' | 'disable') => {
    event.preventDefault();
    const value = checkedCode();
    if (value === null) return;
    void run(step, async () => {
      const answer =
        step === 'confirm'
          ? await accountsApi.confirmTwoFactor(account.id, value)
          : withRecoveryCode
            ? await accountSecurityApi.disableTwoFactorWithRecoveryCode(account.id, value)
            : await accountsApi.disableTwoFactor(account.id, value);
      setUser({ ...account, two_factor_enabled: answer.two_factor_enabled });
      setSetup(null);
      entry.setWithRecoveryCode(false);
      resetCode();
      if (answer.recovery_codes) setRecoveryCodes(answer.recovery_codes);
      toast.success(answer.two_factor_enabled ? t('settings.security.enabled') : t('settings.security.disabled'));
    });
  };

  const renew = () => {
    const value = checkedCode();
    if (value === null) return;
    void run('renew', async () => {
      const answer = await accountSecurityApi.renewRecoveryCodes(account.id, value);
      resetCode();
      setRecoveryCodes(answer.recovery_codes);
    });
  };

  return { setup, recoveryCodes, clearRecoveryCodes: () => setRecoveryCodes(null), busy, start, submitCode, renew };
}

type TwoFactor = ReturnType<typeof useTwoFactor>;

export function TwoFactorPanel({ account }: { account: Account }) {
  const entry = useCodeEntry();
  const twoFactor = useTwoFactor(account, entry);
  const enabled = account.two_factor_enabled;

  if (twoFactor.recoveryCodes) {
    return <RecoveryCodesNotice codes={twoFactor.recoveryCodes} onDone={twoFactor.clearRecoveryCodes} />;
  }

  return (
    <div className="security-block">
      <TwoFactorStatus enabled={enabled} />
      {enabled ? (
        <DisableTwoFactorForm entry={entry} twoFactor={twoFactor} />
      ) : twoFactor.setup ? (
        <TwoFactorSetupForm setup={twoFactor.setup} entry={entry} twoFactor={twoFactor} />
      ) : (
        <EnableTwoFactorButton twoFactor={twoFactor} />
      )}
    </div>
  );
}

function TwoFactorStatus({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="security-block-head">
      <span className="status-icon" data-tone={enabled ? 'success' : undefined} aria-hidden="true">
        {enabled ? <ShieldCheck size={18} /> : <ShieldOff size={18} />}
      </span>
      <div>
        <h3 className="security-block-title">{t('settings.security.twoFactor')}</h3>
        <p className="muted" data-testid="settings-2fa-status">
          {enabled ? t('settings.security.twoFactorOn') : t('settings.security.twoFactorOff')}
        </p>
      </div>
    </div>
  );
}

function CodeField({ entry }: { entry: CodeEntry }) {
  const { t } = useTranslation();
  const { withRecoveryCode, code, codeError } = entry;
  return (
    <TextField
      label={withRecoveryCode ? t('settings.security.recoveryCode') : t('settings.security.code')}
      inputMode={withRecoveryCode ? 'text' : 'numeric'}
      autoComplete={withRecoveryCode ? 'off' : 'one-time-code'}
      maxLength={withRecoveryCode ? 16 : TWO_FACTOR_CODE_LENGTH}
      placeholder={withRecoveryCode ? t('settings.security.recoveryCodePlaceholder') : undefined}
      className="field-narrow code-field"
      data-testid="settings-2fa-code"
      value={code}
      error={codeError ? translateMessage(t, codeError) : undefined}
      onChange={(event) => entry.setCode(event.target.value)}
    />
  );
}

function DisableTwoFactorForm({ entry, twoFactor }: { entry: CodeEntry; twoFactor: TwoFactor }) {
  const { t } = useTranslation();
  const { withRecoveryCode } = entry;
  const { busy } = twoFactor;
  return (
    <form className="inline-form" noValidate onSubmit={(event) => twoFactor.submitCode(event, 'disable')}>
      <p className="muted">{t('settings.security.disableHint')}</p>
      <CodeField entry={entry} />
      <button
        type="button"
        className="link-button"
        data-testid="settings-2fa-recovery-toggle"
        onClick={() => {
          entry.setWithRecoveryCode((current) => !current);
          entry.resetCode();
        }}
      >
        {withRecoveryCode ? t('settings.security.useAuthenticatorCode') : t('settings.security.useRecoveryCode')}
      </button>
      <div className="security-actions">
        <Button type="submit" variant="danger" loading={busy === 'disable'} data-testid="settings-2fa-disable">
          {busy === 'disable' ? t('settings.security.disabling') : t('settings.security.disable')}
        </Button>
        {withRecoveryCode ? null : (
          <Button
            type="button"
            variant="secondary"
            loading={busy === 'renew'}
            title={t('settings.security.renewHint')}
            data-testid="settings-2fa-renew"
            onClick={twoFactor.renew}
          >
            {busy === 'renew' ? t('settings.security.renewingCodes') : t('settings.security.renewCodes')}
          </Button>
        )}
      </div>
    </form>
  );
}

interface TwoFactorSetupFormProps {
  setup: TwoFactorSetup;
  entry: CodeEntry;
  twoFactor: TwoFactor;
}

function TwoFactorSetupForm({ setup, entry, twoFactor }: TwoFactorSetupFormProps) {
  const { t } = useTranslation();
  const { busy } = twoFactor;
  return (
    <form className="two-factor-setup" noValidate onSubmit={(event) => twoFactor.submitCode(event, 'confirm')}>
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
          <CodeField entry={entry} />
          <Button type="submit" loading={busy === 'confirm'} data-testid="settings-2fa-confirm">
            {busy === 'confirm' ? t('settings.security.confirming') : t('settings.security.confirm')}
          </Button>
        </div>
      </div>
    </form>
  );
}

function EnableTwoFactorButton({ twoFactor }: { twoFactor: TwoFactor }) {
  const { t } = useTranslation();
  const { busy } = twoFactor;
  return (
    <Button loading={busy === 'start'} onClick={twoFactor.start} data-testid="settings-2fa-enable">
      {busy === 'start' ? t('settings.security.starting') : t('settings.security.enable')}
    </Button>
  );
}
