import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Account,
  changePasswordFormSchema,
  TWO_FACTOR_CODE_LENGTH,
  twoFactorCodeSchema,
} from '@platform/contracts';
import { LockKeyhole } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountSecurityApi } from '../../api/account-security.ts';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import { PasswordStrengthBar } from '../auth/password-strength-bar.tsx';

const blank = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * Change of password: the current one, the new one twice (spec §5 Register rules) and the 2FA
 * code when 2FA is on. The server ends every session and answers this device's new one.
 */
export function ChangePasswordPanel({ account }: { account: Account }) {
  const { t } = useTranslation();
  const form = useForm({ resolver: zodResolver(changePasswordFormSchema), defaultValues: blank });
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const newPassword = form.watch('newPassword');
  const errors = form.formState.errors;
  const needsCode = account.two_factor_enabled;

  if (account.wallet_address !== null) {
    return (
      <div className="security-block">
        <PanelHead description={t('settings.security.password.noPassword')} />
      </div>
    );
  }

  const submit = form.handleSubmit(async (values) => {
    const codeProblem = needsCode ? twoFactorCodeSchema.safeParse(code).error?.issues[0]?.message : undefined;
    setCodeError(codeProblem ?? null);
    if (codeProblem) return;
    try {
      const session = await accountSecurityApi.changePassword(account.id, {
        current_password: values.currentPassword,
        new_password: values.newPassword,
        ...(needsCode ? { two_factor_code: code.trim() } : {}),
      });
      // Every earlier token is void now: this device goes on with the new session.
      useAppStore.getState().setAccessToken(session.token);
      form.reset(blank);
      setCode('');
      toast.success(t('success.passwordChanged'));
    } catch (error) {
      const message = errorMessage(error, t, 'settings.security.password.failed');
      const code = error instanceof ApiError ? error.code : '';
      if (code === 'CURRENT_PASSWORD_INVALID') form.setError('currentPassword', { message });
      else if (code === 'TWO_FACTOR_CODE_INVALID' || code === 'TWO_FACTOR_CODE_REQUIRED') setCodeError(message);
      else toast.error(message);
    }
  });

  const fieldError = (message: string | undefined) => (message ? translateMessage(t, message) : undefined);
  return (
    <div className="security-block">
      <PanelHead description={t('settings.security.password.description')} />
      <form className="password-form" noValidate onSubmit={submit} data-testid="change-password-form">
        <PasswordField
          label={t('settings.security.password.current')}
          autoComplete="current-password"
          data-testid="current-password"
          error={fieldError(errors.currentPassword?.message)}
          {...form.register('currentPassword')}
        />
        <div>
          <PasswordField
            label={t('settings.security.password.new')}
            autoComplete="new-password"
            data-testid="new-password"
            error={fieldError(errors.newPassword?.message)}
            {...form.register('newPassword')}
          />
          <PasswordStrengthBar password={newPassword} />
        </div>
        <PasswordField
          label={t('settings.security.password.confirm')}
          autoComplete="new-password"
          data-testid="confirm-new-password"
          error={fieldError(errors.confirmPassword?.message)}
          {...form.register('confirmPassword')}
        />
        {needsCode ? (
          <TextField
            label={t('settings.security.password.twoFactorCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={TWO_FACTOR_CODE_LENGTH}
            className="field-narrow code-field"
            data-testid="change-password-code"
            value={code}
            error={fieldError(codeError ?? undefined)}
            onChange={(event) => setCode(event.target.value)}
          />
        ) : null}
        <div>
          <Button type="submit" loading={form.formState.isSubmitting} data-testid="change-password-submit">
            {form.formState.isSubmitting
              ? t('settings.security.password.submitting')
              : t('settings.security.password.submit')}
          </Button>
        </div>
      </form>
    </div>
  );
}

function PanelHead({ description }: { description: string }) {
  const { t } = useTranslation();
  return (
    <div className="security-block-head">
      <span className="status-icon" aria-hidden="true">
        <LockKeyhole size={18} />
      </span>
      <div>
        <h3 className="security-block-title">{t('settings.security.password.title')}</h3>
        <p className="muted">{description}</p>
      </div>
    </div>
  );
}
