import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema } from '@platform/contracts';
import { CircleCheck, KeyRound, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { accountSecurityApi } from '../../api/account-security.ts';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import '../../theme/account-security.css';
import { PasswordStrengthBar } from './password-strength-bar.tsx';

type Outcome = { kind: 'form' } | { kind: 'done' } | { kind: 'invalid'; message: string };

/** /reset-password?token=…: the page the reset mail links to. A new password ends every session. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>(
    token ? { kind: 'form' } : { kind: 'invalid', message: t('auth.reset.missingToken') },
  );

  return (
    <div className="reset-page">
      <div className="reset-card" data-testid="reset-password-screen">
        {outcome.kind === 'form' ? (
          <ResetForm token={token} onDone={setOutcome} />
        ) : outcome.kind === 'done' ? (
          <ResetDone />
        ) : (
          <ResetInvalid message={outcome.message} />
        )}
      </div>
    </div>
  );
}

function ResetForm({ token, onDone }: { token: string; onDone: (outcome: Outcome) => void }) {
  const { t } = useTranslation();
  const form = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const password = form.watch('password');
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    try {
      await accountSecurityApi.confirmPasswordReset(token, values.password);
      // Every session ended on the server, this browser's too.
      useAppStore.getState().clearSession();
      onDone({ kind: 'done' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'RESET_TOKEN_INVALID') {
        onDone({ kind: 'invalid', message: errorMessage(error, t, 'auth.reset.failed') });
        return;
      }
      toast.error(errorMessage(error, t, 'auth.reset.failed'));
    }
  });

  return (
    <div className="auth-body">
      <div className="auth-header">
        <span className="brand-mark brand-mark-icon" aria-hidden="true">
          <KeyRound size={20} />
        </span>
        <h1 className="auth-title">{t('auth.reset.title')}</h1>
        <p className="auth-subtitle">{t('auth.reset.instructions')}</p>
      </div>
      <form className="auth-form" noValidate onSubmit={submit}>
        <div>
          <PasswordField
            label={t('auth.reset.password')}
            autoComplete="new-password"
            data-testid="reset-password"
            error={errors.password?.message && translateMessage(t, errors.password.message)}
            {...form.register('password')}
          />
          <PasswordStrengthBar password={password} />
        </div>
        <PasswordField
          label={t('auth.reset.confirmPassword')}
          autoComplete="new-password"
          data-testid="reset-confirm-password"
          error={errors.confirmPassword?.message && translateMessage(t, errors.confirmPassword.message)}
          {...form.register('confirmPassword')}
        />
        <Button type="submit" block size="lg" loading={form.formState.isSubmitting} data-testid="reset-submit">
          {form.formState.isSubmitting ? t('auth.reset.submitting') : t('auth.reset.submit')}
        </Button>
      </form>
    </div>
  );
}

function useOpenLogin() {
  const navigate = useNavigate();
  const openModal = useAppStore((state) => state.openModal);
  return () => {
    navigate('/', { replace: true });
    openModal('login');
  };
}

function ResetDone() {
  const { t } = useTranslation();
  const openLogin = useOpenLogin();
  return (
    <div className="auth-body" data-testid="reset-done">
      <div className="auth-header">
        <span className="brand-mark brand-mark-icon reset-icon-good" aria-hidden="true">
          <CircleCheck size={20} />
        </span>
        <h1 className="auth-title">{t('auth.reset.doneTitle')}</h1>
        <p className="auth-subtitle" role="status">
          {t('auth.reset.done')}
        </p>
      </div>
      <Button block size="lg" onClick={openLogin} data-testid="reset-log-in">
        {t('auth.reset.logIn')}
      </Button>
    </div>
  );
}

function ResetInvalid({ message }: { message: string }) {
  const { t } = useTranslation();
  const openLogin = useOpenLogin();
  return (
    <div className="auth-body" data-testid="reset-invalid">
      <div className="auth-header">
        <span className="brand-mark brand-mark-icon reset-icon-warn" aria-hidden="true">
          <TriangleAlert size={20} />
        </span>
        <h1 className="auth-title">{t('auth.reset.title')}</h1>
        <p className="auth-subtitle" role="alert">
          {message}
        </p>
      </div>
      <Button block size="lg" variant="secondary" onClick={openLogin}>
        {t('auth.reset.requestNew')}
      </Button>
    </div>
  );
}
