import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordFormSchema } from '@platform/contracts';
import { ArrowLeft, KeyRound, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { accountSecurityApi } from '../../api/account-security.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';

/**
 * The login modal's "Forgot password?" view: asks for the email and mails a reset link. The answer
 * reads the same whether or not the email has an account (the server does not tell either).
 */
export function ForgotPasswordView({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const { t } = useTranslation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(forgotPasswordFormSchema), defaultValues: { email: initialEmail } });

  const submit = form.handleSubmit(async ({ email }) => {
    try {
      await accountSecurityApi.requestPasswordReset(email);
      setSentTo(email);
    } catch (error) {
      toast.error(errorMessage(error, t, 'auth.forgot.failed'));
    }
  });

  const emailError = form.formState.errors.email?.message;
  return (
    <div className="auth-body">
      <div className="auth-header">
        <span className="brand-mark brand-mark-icon" aria-hidden="true">
          {sentTo ? <MailCheck size={20} /> : <KeyRound size={20} />}
        </span>
        <h2 id="login-modal-title" className="auth-title">
          {sentTo ? t('auth.forgot.sentTitle') : t('auth.forgot.title')}
        </h2>
        <p className="auth-subtitle" role="status" data-testid="forgot-password-status">
          {sentTo ? t('auth.forgot.sent', { email: sentTo }) : t('auth.forgot.instructions')}
        </p>
      </div>
      {sentTo ? null : (
        <form className="auth-form" noValidate onSubmit={submit}>
          <TextField
            label={t('auth.forgot.email')}
            type="email"
            autoComplete="email"
            placeholder={t('auth.login.emailPlaceholder')}
            data-testid="forgot-password-email"
            error={emailError && translateMessage(t, emailError)}
            {...form.register('email')}
          />
          <Button
            type="submit"
            block
            size="lg"
            loading={form.formState.isSubmitting}
            data-testid="forgot-password-submit"
          >
            {form.formState.isSubmitting ? t('auth.forgot.submitting') : t('auth.forgot.submit')}
          </Button>
        </form>
      )}
      <button type="button" className="link-button back-link" data-testid="forgot-password-back" onClick={onBack}>
        <ArrowLeft size={14} aria-hidden="true" className="flip-rtl" /> {t('auth.forgot.back')}
      </button>
    </div>
  );
}
