import { zodResolver } from '@hookform/resolvers/zod';
import { REGISTER_MODAL_MAX_WIDTH_PX, registerFormSchema, type WalletType } from '@platform/contracts';
import { CircleCheck } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/checkbox-field.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { PasswordField } from '../../components/ui/password-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { translateMessage } from '../../lib/translate.ts';
import { shortenAddress } from '../../lib/wallet-format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { PasswordStrengthBar } from './password-strength-bar.tsx';
import { registerWithEmail, registerWithWallet } from './session.ts';
import { WalletButtons } from './wallet-buttons.tsx';
import { type ConnectedWallet, connectWallet } from './wallet-providers.ts';

type RegisterValues = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  termsAccepted: boolean;
  marketingConsent?: boolean | undefined;
};

const emptyForm: RegisterValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  termsAccepted: false,
  marketingConsent: false,
};

/** Server field names (snake_case) onto the form's names, for VALIDATION_ERROR issues. */
const serverFieldToFormField: Record<string, FieldPath<RegisterValues>> = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  password: 'password',
  terms_accepted: 'termsAccepted',
};

/** Creating the account with a wallet: connect one, then create with it. */
function useWalletRegistration() {
  const { t } = useTranslation();
  const closeModals = useAppStore((state) => state.closeModals);
  const openModal = useAppStore((state) => state.openModal);
  const setStoreWallet = useAppStore((state) => state.setWallet);
  const [walletBusy, setWalletBusy] = useState<WalletType | null>(null);
  const [wallet, setWallet] = useState<ConnectedWallet | null>(null);
  const [creatingWithWallet, setCreatingWithWallet] = useState(false);

  const connect = async (network: WalletType) => {
    setWalletBusy(network);
    try {
      const connected = await connectWallet(network);
      setWallet(connected);
      setStoreWallet({ address: connected.address, network: connected.network, connected: true });
      toast.success(t('success.walletConnected'));
    } catch (error) {
      toast.error(errorMessage(error, t, 'errors.walletConnectionFailedTryAgain'));
    } finally {
      setWalletBusy(null);
    }
  };

  const createWithWallet = async () => {
    if (!wallet) return;
    setCreatingWithWallet(true);
    try {
      const outcome = await registerWithWallet(wallet);
      if (outcome === 'logged-in') {
        toast.success(t('success.walletAccountCreated'));
        closeModals();
      } else {
        toast.success(t('success.walletAccountCreatedLoginManually'));
        openModal('login');
      }
    } catch (error) {
      toast.error(errorMessage(error, t, 'errors.walletRegistrationFailed'));
    } finally {
      setCreatingWithWallet(false);
    }
  };

  const reset = useCallback(() => {
    setWallet(null);
    setCreatingWithWallet(false);
  }, []);

  return { walletBusy, wallet, creatingWithWallet, connect, createWithWallet, reset };
}

type WalletRegistration = ReturnType<typeof useWalletRegistration>;

/** The e-mail registration form, its submit and the server's field errors. */
function useRegisterForm() {
  const { t } = useTranslation();
  const closeModals = useAppStore((state) => state.closeModals);
  const openModal = useAppStore((state) => state.openModal);
  const form = useForm({ resolver: zodResolver(registerFormSchema), defaultValues: emptyForm });

  const submit = form.handleSubmit(async (values) => {
    try {
      const outcome = await registerWithEmail(values);
      if (outcome === 'logged-in') {
        toast.success(t('success.accountCreated'));
        closeModals();
      } else {
        toast.success(
          t(outcome === 'check-email' ? 'success.registrationCheckEmail' : 'success.accountCreatedLoginManually'),
        );
        openModal('login');
      }
    } catch (error) {
      showServerIssues(error);
      toast.error(errorMessage(error, t, 'errors.registrationFailedTryAgain'));
    }
  });

  const showServerIssues = (error: unknown) => {
    if (!(error instanceof ApiError)) return;
    for (const issue of error.issues) {
      const field = serverFieldToFormField[issue.path];
      if (field) form.setError(field, { message: issue.key ?? issue.message });
    }
  };

  return { form, submit };
}

type RegisterFormState = ReturnType<typeof useRegisterForm>;

export function RegisterModal() {
  const { t } = useTranslation();
  const open = useAppStore((state) => state.showRegisterModal);
  const closeModals = useAppStore((state) => state.closeModals);
  const openModal = useAppStore((state) => state.openModal);
  const registration = useWalletRegistration();
  const { form, submit } = useRegisterForm();
  const resetWallet = registration.reset;

  const resetAll = useCallback(() => {
    form.reset(emptyForm);
    resetWallet();
  }, [form, resetWallet]);

  useEffect(() => {
    if (!open) resetAll();
  }, [open, resetAll]);

  const busy = form.formState.isSubmitting || registration.creatingWithWallet;

  return (
    <Modal
      open={open}
      onClose={closeModals}
      labelledBy="register-modal-title"
      maxWidthPx={REGISTER_MODAL_MAX_WIDTH_PX}
      testId="register-modal"
    >
      <div className="auth-body">
        <div className="auth-header">
          <span className="brand-mark" aria-hidden="true">
            M
          </span>
          <h2 id="register-modal-title" className="auth-title">
            {t('auth.register.title')}
          </h2>
          <p className="auth-subtitle">{t('auth.register.subtitle')}</p>
        </div>

        <WalletSection registration={registration} busy={busy} formSubmitting={form.formState.isSubmitting} />

        <div className="divider">
          <span>{t('common.or')}</span>
        </div>

        <RegisterForm form={form} submit={submit} creatingWithWallet={registration.creatingWithWallet} />
        <p className="auth-switch">
          {t('auth.register.haveAccount')}{' '}
          <button type="button" className="link-button" data-testid="login-link" onClick={() => openModal('login')}>
            {t('auth.register.switchToLogin')}
          </button>
        </p>
      </div>
    </Modal>
  );
}

interface WalletSectionProps {
  registration: WalletRegistration;
  busy: boolean;
  formSubmitting: boolean;
}

function WalletSection({ registration, busy, formSubmitting }: WalletSectionProps) {
  const { t } = useTranslation();
  const { wallet } = registration;
  return (
    <section className="wallet-section" aria-label={t('auth.register.walletSection')}>
      <p className="section-label">{t('auth.register.walletSection')}</p>
      <WalletButtons
        testIdPrefix="wallet-register"
        busy={registration.walletBusy}
        disabled={wallet !== null || busy}
        onSelect={registration.connect}
      />
      {wallet ? (
        <div className="wallet-connected">
          <p className="wallet-connected-address" title={wallet.address}>
            <CircleCheck size={16} aria-hidden="true" />
            {t('auth.register.walletConnectedAs', { address: shortenAddress(wallet.address) })}
          </p>
          <Button
            block
            loading={registration.creatingWithWallet}
            disabled={formSubmitting}
            onClick={registration.createWithWallet}
            data-testid="wallet-create-account"
          >
            {registration.creatingWithWallet
              ? t('auth.register.creatingWithWallet')
              : t('auth.register.createWithWallet')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

interface RegisterFormProps extends RegisterFormState {
  creatingWithWallet: boolean;
}

function RegisterForm({ form, submit, creatingWithWallet }: RegisterFormProps) {
  const { t } = useTranslation();
  const errors = form.formState.errors;
  const password = form.watch('password');
  const fieldError = (message: string | undefined) => (message ? translateMessage(t, message) : undefined);
  return (
    <form className="auth-form" noValidate onSubmit={submit}>
      <div className="field-pair">
        <TextField
          label={t('auth.register.firstName')}
          autoComplete="given-name"
          data-testid="register-first-name"
          error={fieldError(errors.firstName?.message)}
          {...form.register('firstName')}
        />
        <TextField
          label={t('auth.register.lastName')}
          autoComplete="family-name"
          data-testid="register-last-name"
          error={fieldError(errors.lastName?.message)}
          {...form.register('lastName')}
        />
      </div>
      <TextField
        label={t('auth.register.email')}
        type="email"
        autoComplete="email"
        data-testid="register-email"
        error={fieldError(errors.email?.message)}
        {...form.register('email')}
      />
      <div className="field-with-meter">
        <PasswordField
          label={t('auth.register.password')}
          autoComplete="new-password"
          data-testid="register-password"
          error={fieldError(errors.password?.message)}
          {...form.register('password')}
        />
        <PasswordStrengthBar password={password} />
      </div>
      <PasswordField
        label={t('auth.register.confirmPassword')}
        autoComplete="new-password"
        data-testid="register-confirm-password"
        error={fieldError(errors.confirmPassword?.message)}
        {...form.register('confirmPassword')}
      />
      <CheckboxField
        data-testid="register-terms"
        error={fieldError(errors.termsAccepted?.message)}
        label={
          <>
            {t('auth.register.termsPrefix')}{' '}
            <a href="/terms" target="_blank" rel="noreferrer">
              {t('auth.register.terms')}
            </a>{' '}
            {t('auth.register.and')}{' '}
            <a href="/privacy" target="_blank" rel="noreferrer">
              {t('auth.register.privacy')}
            </a>
          </>
        }
        {...form.register('termsAccepted')}
      />
      <CheckboxField
        data-testid="register-marketing"
        label={t('auth.register.marketing')}
        {...form.register('marketingConsent')}
      />
      <Button
        type="submit"
        block
        size="lg"
        loading={form.formState.isSubmitting}
        disabled={creatingWithWallet}
        data-testid="register-submit"
      >
        {form.formState.isSubmitting ? t('auth.register.submitting') : t('auth.register.submit')}
      </Button>
    </form>
  );
}
