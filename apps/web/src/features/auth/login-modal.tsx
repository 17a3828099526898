import { zodResolver } from '@hookform/resolvers/zod';
import {
  LOGIN_MODAL_MAX_WIDTH_PX,
  loginFormSchema,
  TWO_FACTOR_CODE_LENGTH,
  twoFactorFormSchema,
  type WalletType,
} from '@platform/contracts';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
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

/** Signing in with a wallet: the wallet being connected, and the attempt. */
function useWalletLogin(finish: (message: string) => void) {
  const { t } = useTranslation();
  const [walletBusy, setWalletBusy] = useState<WalletType | null>(null);
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
  return { walletBusy, loginWith };
}

type Credentials = { email: string; password: string };

/** The second step of a sign-in that asked for it: the app's code, or a recovery code. */
function useTwoFactorLogin(pendingCredentials: RefObject<Credentials | null>, finish: (message: string) => void) {
  const { t } = useTranslation();
  const twoFactorForm = useForm({
    resolver: zodResolver(twoFactorFormSchema),
    defaultValues: { twoFactorCode: '' },
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

  return { twoFactorForm, submitTwoFactor, submitRecoveryCode };
}

/** The sign-in's views and steps; closing the modal starts it over. */
function useLoginFlow() {
  const { t } = useTranslation();
  const open = useAppStore((state) => state.showLoginModal);
  const closeModals = useAppStore((state) => state.closeModals);
  const [view, setView] = useState<View>('credentials');
  /** The two-factor view takes a recovery code instead of the app's code. */
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  /** The parsed credentials of the attempt that asked for a code. */
  const pendingCredentials = useRef<Credentials | null>(null);

  // One toast per sign-in outcome: the same id makes a success replace an earlier failure's toast.
  const finish = (message: string) => {
    toast.success(message, { id: LOGIN_RESULT_TOAST_ID });
    closeModals();
  };

  const credentialsForm = useForm({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const { twoFactorForm, submitTwoFactor, submitRecoveryCode } = useTwoFactorLogin(pendingCredentials, finish);
  const { walletBusy, loginWith } = useWalletLogin(finish);

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

  const backToCredentials = () => {
    twoFactorForm.reset({ twoFactorCode: '' });
    setUseRecoveryCode(false);
    setView('credentials');
  };

  return {
    ...{ open, closeModals, view, setView, useRecoveryCode, setUseRecoveryCode, walletBusy, loginWith },
    ...{ credentialsForm, twoFactorForm, submitCredentials, submitTwoFactor, submitRecoveryCode, backToCredentials },
  };
}

type LoginFlow = ReturnType<typeof useLoginFlow>;

export function LoginModal() {
  const flow = useLoginFlow();
  const { view } = flow;
  return (
    <Modal
      open={flow.open}
      onClose={flow.closeModals}
      labelledBy="login-modal-title"
      maxWidthPx={LOGIN_MODAL_MAX_WIDTH_PX}
      testId="login-modal"
    >
      {view === 'credentials' ? (
        <CredentialsView flow={flow} />
      ) : view === 'forgot' ? (
        <ForgotPasswordView
          initialEmail={flow.credentialsForm.getValues('email')}
          onBack={() => flow.setView('credentials')}
        />
      ) : (
        <TwoFactorView flow={flow} />
      )}
    </Modal>
  );
}

function CredentialsView({ flow }: { flow: LoginFlow }) {
  const { t } = useTranslation();
  const openModal = useAppStore((state) => state.openModal);
  const errors = flow.credentialsForm.formState.errors;
  return (
    <div className="auth-body">
      <div className="auth-header">
        <span className="brand-mark" aria-hidden="true">
          M
        </span>
        <h2 id="login-modal-title" className="auth-title">
          {t('auth.login.title')}
        </h2>
        <p className="auth-subtitle">{t('auth.login.subtitle')}</p>
      </div>
      <WalletButtons testIdPrefix="wallet-login" busy={flow.walletBusy} onSelect={flow.loginWith} />
      <div className="divider">
        <span>{t('auth.login.divider')}</span>
      </div>
      <form className="auth-form" noValidate onSubmit={flow.submitCredentials}>
        <TextField
          label={t('auth.login.email')}
          type="email"
          autoComplete="email"
          placeholder={t('auth.login.emailPlaceholder')}
          data-testid="login-email"
          error={errors.email?.message && translateMessage(t, errors.email.message)}
          {...flow.credentialsForm.register('email')}
        />
        <PasswordField
          label={t('auth.login.password')}
          autoComplete="current-password"
          placeholder={t('auth.login.passwordPlaceholder')}
          data-testid="login-password"
          error={errors.password?.message && translateMessage(t, errors.password.message)}
          {...flow.credentialsForm.register('password')}
        />
        <div className="auth-row-end">
          <button
            type="button"
            className="link-button"
            data-testid="forgot-password-link"
            onClick={() => flow.setView('forgot')}
          >
            {t('auth.login.forgotPassword')}
          </button>
        </div>
        <Button
          type="submit"
          block
          size="lg"
          loading={flow.credentialsForm.formState.isSubmitting}
          disabled={flow.walletBusy !== null}
          data-testid="login-submit"
        >
          {flow.credentialsForm.formState.isSubmitting ? t('auth.login.submitting') : t('auth.login.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        {t('auth.login.noAccount')}{' '}
        <button type="button" className="link-button" data-testid="register-link" onClick={() => openModal('register')}>
          {t('auth.login.switchToRegister')}
        </button>
      </p>
    </div>
  );
}

function TwoFactorView({ flow }: { flow: LoginFlow }) {
  const { t } = useTranslation();
  const codeError = flow.twoFactorForm.formState.errors.twoFactorCode?.message;
  return (
    <div className="auth-body">
      <div className="auth-header">
        <span className="brand-mark brand-mark-icon" aria-hidden="true">
          <ShieldCheck size={20} />
        </span>
        <h2 id="login-modal-title" className="auth-title">
          {t('auth.twoFactor.title')}
        </h2>
        <p className="auth-subtitle" role="status">
          {t('errors.twoFactorRequired')}.{' '}
          {flow.useRecoveryCode ? t('auth.twoFactor.recoveryInstructions') : t('auth.twoFactor.instructions')}
        </p>
      </div>
      {flow.useRecoveryCode ? (
        <RecoveryCodeForm onSubmit={flow.submitRecoveryCode} />
      ) : (
        <form className="auth-form" noValidate onSubmit={flow.submitTwoFactor}>
          <TextField
            label={t('auth.twoFactor.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={TWO_FACTOR_CODE_LENGTH}
            className="code-field"
            data-testid="two-factor-code"
            error={codeError && translateMessage(t, codeError)}
            {...flow.twoFactorForm.register('twoFactorCode')}
          />
          <Button
            type="submit"
            block
            size="lg"
            loading={flow.twoFactorForm.formState.isSubmitting}
            data-testid="two-factor-submit"
          >
            {flow.twoFactorForm.formState.isSubmitting ? t('auth.twoFactor.submitting') : t('auth.twoFactor.submit')}
          </Button>
        </form>
      )}
      <button
        type="button"
        className="link-button"
        data-testid="two-factor-recovery-toggle"
        onClick={() => flow.setUseRecoveryCode((current) => !current)}
      >
        {flow.useRecoveryCode ? t('auth.twoFactor.useAuthenticatorCode') : t('auth.twoFactor.useRecoveryCode')}
      </button>
      <button
        type="button"
        className="link-button back-link"
        data-testid="two-factor-back"
        onClick={flow.backToCredentials}
      >
        <ArrowLeft size={14} aria-hidden="true" className="flip-rtl" /> {t('auth.twoFactor.back')}
      </button>
    </div>
  );
}
