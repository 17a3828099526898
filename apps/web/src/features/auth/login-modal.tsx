import { zodResolver } from '@hookform/resolvers/zod';
import {
  LOGIN_MODAL_MAX_WIDTH_PX,
  loginFormSchema,
  TWO_FACTOR_CODE_LENGTH,
  twoFactorFormSchema,
  type WalletType,
} from '@platform/contracts';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import { ForgotPasswordView } from './forgot-password-view.tsx';
import { RecoveryCodeForm } from './recovery-code-form.tsx';
import { isTwoFactorChallenge, loginWithEmail, loginWithWallet } from './session.ts';
import { WalletButtons } from './wallet-buttons.tsx';
import { walletDisplayName } from './wallet-names.ts';
import { connectWallet } from './wallet-providers.ts';

/** The toast that tells how a sign-in ended: a later outcome replaces it, so no stale error stays. */
export const LOGIN_RESULT_TOAST_ID = 'login-result';

type View = 'credentials' | 'twoFactor' | 'forgot';

export function LoginModal() {
  const { t } = useTranslation();
  const open = useAppStore((state) => state.showLoginModal);
  const closeModals = useAppStore((state) => state.closeModals);
  const openModal = useAppStore((state) => state.openModal);
  const [view, setView] = useState<View>('credentials');
  const [walletBusy, setWalletBusy] = useState<WalletType | null>(null);
  /** The two-factor view takes a recovery code instead of the app's code. */
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  /** The parsed credentials of the attempt that asked for a code. */
  const pendingCredentials = useRef<{ email: string; password: string } | null>(null);

  const credentialsForm = useForm({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const twoFactorForm = useForm({
    resolver: zodResolver(twoFactorFormSchema),
    defaultValues: { twoFactorCode: '' },
  });

  const resetAll = useCallback(() => {
    credentialsForm.reset();
    twoFactorForm.reset();
    pendingCredentials.current = null;
    setUseRecoveryCode(false);
    setView('credentials');
  }, [credentialsForm, twoFactorForm]);

  // Spec §4: closing resets the form, however the modal was closed.
  useEffect(() => {
    if (!open) resetAll();
  }, [open, resetAll]);

  // One toast per sign-in outcome: the same id makes a success replace an earlier failure's toast.
  const finish = (message: string) => {
    toast.success(message, { id: LOGIN_RESULT_TOAST_ID });
    closeModals();
  };

  const submitCredentials = credentialsForm.handleSubmit(async (values) => {
    try {
      await loginWithEmail(values);
      finish(t('success.loginSuccessful'));
    } catch (error) {
      if (isTwoFactorChallenge(error)) {
        pendingCredentials.current = values;
        setView('twoFactor');
        return;
      }
      toast.error(errorMessage(error, t, 'errors.loginFailed'), { id: LOGIN_RESULT_TOAST_ID });
    }
  });

  const submitTwoFactor = twoFactorForm.handleSubmit(async ({ twoFactorCode }) => {
    const credentials = pendingCredentials.current;
    if (!credentials) return;
    try {
      await loginWithEmail({ ...credentials, twoFactorCode });
      finish(t('success.loginSuccessful'));
    } catch (error) {
      toast.error(errorMessage(error, t, 'errors.loginFailed'), { id: LOGIN_RESULT_TOAST_ID });
    }
  });

  const submitRecoveryCode = async (recoveryCode: string) => {
    const credentials = pendingCredentials.current;
    if (!credentials) return;
    try {
      await loginWithEmail({ ...credentials, recoveryCode });
      finish(t('success.loginSuccessful'));
    } catch (error) {
      toast.error(errorMessage(error, t, 'errors.loginFailed'));
    }
  };

  const backToCredentials = () => {
    twoFactorForm.reset({ twoFactorCode: '' });
    setUseRecoveryCode(false);
    setView('credentials');
  };

  const loginWith = async (network: WalletType) => {
    setWalletBusy(network);
    try {
      const wallet = await connectWallet(network);
      await loginWithWallet(wallet);
      finish(t('success.loggedInWithWallet', { wallet: walletDisplayName(wallet, t) }));
    } catch (error) {
      toast.error(errorMessage(error, t, 'errors.walletLoginFailed'), { id: LOGIN_RESULT_TOAST_ID });
    } finally {
      setWalletBusy(null);
    }
  };

  const credentialErrors = credentialsForm.formState.errors;
  const codeError = twoFactorForm.formState.errors.twoFactorCode?.message;

  return (
    <Modal
      open={open}
      onClose={closeModals}
      labelledBy="login-modal-title"
      maxWidthPx={LOGIN_MODAL_MAX_WIDTH_PX}
      testId="login-modal"
    >
      {view === 'credentials' ? (
        <div className="auth-body">
          <header className="auth-header">
            <span className="brand-mark" aria-hidden="true">
              M
            </span>
            <h2 id="login-modal-title" className="auth-title">
              {t('auth.login.title')}
            </h2>
            <p className="auth-subtitle">{t('auth.login.subtitle')}</p>
          </header>
          <WalletButtons testIdPrefix="wallet-login" busy={walletBusy} onSelect={loginWith} />
          <div className="divider">
            <span>{t('auth.login.divider')}</span>
          </div>
          <form className="auth-form" noValidate onSubmit={submitCredentials}>
            <TextField
              label={t('auth.login.email')}
              type="email"
              autoComplete="email"
              placeholder={t('auth.login.emailPlaceholder')}
              data-testid="login-email"
              error={credentialErrors.email?.message && translateMessage(t, credentialErrors.email.message)}
              {...credentialsForm.register('email')}
            />
            <PasswordField
              label={t('auth.login.password')}
              autoComplete="current-password"
              placeholder={t('auth.login.passwordPlaceholder')}
              data-testid="login-password"
              error={credentialErrors.password?.message && translateMessage(t, credentialErrors.password.message)}
              {...credentialsForm.register('password')}
            />
            <div className="auth-row-end">
              <button
                type="button"
                className="link-button"
                data-testid="forgot-password-link"
                onClick={() => setView('forgot')}
              >
                {t('auth.login.forgotPassword')}
              </button>
            </div>
            <Button
              type="submit"
              block
              size="lg"
              loading={credentialsForm.formState.isSubmitting}
              disabled={walletBusy !== null}
              data-testid="login-submit"
            >
              {credentialsForm.formState.isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
            </Button>
          </form>
          <p className="auth-switch">
            {t('auth.login.noAccount')}{' '}
            <button
              type="button"
              className="link-button"
              data-testid="register-link"
              onClick={() => openModal('register')}
            >
              {t('auth.login.switchToRegister')}
            </button>
          </p>
        </div>
      ) : view === 'forgot' ? (
        <ForgotPasswordView initialEmail={credentialsForm.getValues('email')} onBack={() => setView('credentials')} />
      ) : (
        <div className="auth-body">
          <header className="auth-header">
            <span className="brand-mark brand-mark-icon" aria-hidden="true">
              <ShieldCheck size={20} />
            </span>
            <h2 id="login-modal-title" className="auth-title">
              {t('auth.twoFactor.title')}
            </h2>
            <p className="auth-subtitle" role="status">
              {t('errors.twoFactorRequired')}.{' '}
              {useRecoveryCode ? t('auth.twoFactor.recoveryInstructions') : t('auth.twoFactor.instructions')}
            </p>
          </header>
          {useRecoveryCode ? (
            <RecoveryCodeForm onSubmit={submitRecoveryCode} />
          ) : (
            <form className="auth-form" noValidate onSubmit={submitTwoFactor}>
              <TextField
                label={t('auth.twoFactor.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={TWO_FACTOR_CODE_LENGTH}
                className="code-field"
                data-testid="two-factor-code"
                error={codeError && translateMessage(t, codeError)}
                {...twoFactorForm.register('twoFactorCode')}
              />
              <Button
                type="submit"
                block
                size="lg"
                loading={twoFactorForm.formState.isSubmitting}
                data-testid="two-factor-submit"
              >
                {twoFactorForm.formState.isSubmitting ? t('auth.twoFactor.submitting') : t('auth.twoFactor.submit')}
              </Button>
            </form>
          )}
          <button
            type="button"
            className="link-button"
            data-testid="two-factor-recovery-toggle"
            onClick={() => setUseRecoveryCode((current) => !current)}
          >
            {useRecoveryCode ? t('auth.twoFactor.useAuthenticatorCode') : t('auth.twoFactor.useRecoveryCode')}
          </button>
          <button
            type="button"
            className="link-button back-link"
            data-testid="two-factor-back"
            onClick={backToCredentials}
          >
            <ArrowLeft size={14} aria-hidden="true" /> {t('auth.twoFactor.back')}
          </button>
        </div>
      )}
    </Modal>
  );
}
