import { zodResolver } from '@hookform/resolvers/zod';
import { recoveryCodeSchema } from '@platform/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { translateMessage } from '../../lib/translate.ts';

const recoveryFormSchema = z.object({ recoveryCode: recoveryCodeSchema });

/** The two-factor view's alternative: one of the saved recovery codes instead of the app's code. */
export function RecoveryCodeForm({ onSubmit }: { onSubmit: (recoveryCode: string) => Promise<void> }) {
  const { t } = useTranslation();
  const form = useForm({ resolver: zodResolver(recoveryFormSchema), defaultValues: { recoveryCode: '' } });
  const submit = form.handleSubmit(({ recoveryCode }) => onSubmit(recoveryCode));
  const error = form.formState.errors.recoveryCode?.message;
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <TextField
        label={t('auth.twoFactor.recoveryCode')}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={16}
        placeholder="abcde-12345"
        className="code-field"
        data-testid="recovery-code"
        error={error && translateMessage(t, error)}
        {...form.register('recoveryCode')}
      />
      <Button type="submit" block size="lg" loading={form.formState.isSubmitting} data-testid="recovery-code-submit">
        {form.formState.isSubmitting ? t('auth.twoFactor.submitting') : t('auth.twoFactor.submit')}
      </Button>
    </form>
  );
}
