import { TRANSFER_MEMO_MAX_LENGTH } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { Send } from 'lucide-react';
import { type FormEvent, useId, useMemo, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { walletApi } from '../../api/wallet.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatBalance } from '../../lib/format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import { coinName } from '../markets/markets-model.ts';
import { availableByCurrency } from './balances-model.ts';
import {
  createTransferFormReducer,
  initialTransferFormState,
  maxTransferAmount,
  TRANSFER_RECIPIENT_MAX_LENGTH,
  type TransferField,
  type TransferFormError,
  transferErrorFromFailure,
  transferFormSummary,
  WALLET_CURRENCY_FALLBACK,
} from './transfer-form.ts';
import { openTransferPopup } from './transfer-popups.ts';
import { useInvalidateWallet, useWalletBalances } from './use-wallet.ts';

/** The currency the form starts on: the dollar stablecoin, which every wallet holds. */
const PREFERRED_CURRENCY = 'USDT';

const transferFormReducer = createTransferFormReducer();

/** The send form's state, rules and request (transfer-form.ts), its fields' wiring and its submit. */
function useSendForm() {
  const balances = useWalletBalances();
  const invalidateWallet = useInvalidateWallet();
  const currencies = useMemo(
    () => (balances.data ? balances.data.map((balance) => balance.currency.toUpperCase()) : WALLET_CURRENCY_FALLBACK),
    [balances.data],
  );
  const available = useMemo(() => (balances.data ? availableByCurrency(balances.data) : null), [balances.data]);
  const [state, dispatch] = useReducer(transferFormReducer, PREFERRED_CURRENCY, (currency) =>
    initialTransferFormState(currency),
  );
  const summary = transferFormSummary(state, { supportedCurrencies: currencies, available });
  const sending = useRef(false);
  const fields = useRef(new Map<TransferField, HTMLInputElement | HTMLSelectElement>());

  const mutation = useMutation({
    mutationFn: (variables: { request: NonNullable<typeof summary.request>; idempotencyKey: string }) =>
      walletApi.createTransfer(variables.request, variables.idempotencyKey),
    onSuccess: (transfer) => {
      openTransferPopup(transfer);
      dispatch({ type: 'sent' });
      // The amount is held from now on: the available balance has changed.
      invalidateWallet();
    },
    onError: (error, variables) =>
      dispatch({ type: 'failed', error: transferErrorFromFailure(error, variables.request) }),
    onSettled: () => {
      sending.current = false;
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    dispatch({ type: 'submitAttempted' });
    if (!summary.request) {
      const firstInvalid = summary.errors[0];
      if (firstInvalid && firstInvalid.field !== 'form') fields.current.get(firstInvalid.field)?.focus();
      return;
    }
    // Guards the gap before React re-renders with the pending state: a double click sends once.
    sending.current = true;
    mutation.mutate({ request: summary.request, idempotencyKey: state.idempotencyKey });
  };

  const register = (field: TransferField) => ({
    ref: (element: HTMLInputElement | HTMLSelectElement | null) => {
      if (element) fields.current.set(field, element);
      else fields.current.delete(field);
    },
    value: state.values[field],
    onChange: (event: { target: { value: string } }) => dispatch({ type: 'edit', field, value: event.target.value }),
    onBlur: () => dispatch({ type: 'blur', field }),
    'data-testid': `send-${field}`,
  });

  return { state, dispatch, summary, currencies, pending: mutation.isPending, onSubmit, register };
}

type SendForm = ReturnType<typeof useSendForm>;

function useErrorText() {
  const { t } = useTranslation();
  return (error: TransferFormError | undefined) => (error ? translateMessage(t, error.key, error.values) : undefined);
}

/** Spec §2.7 / §5: send funds to another user by username; the status popup follows the transfer. */
export function SendSection() {
  const { t } = useTranslation();
  const username = useAppStore((state) => state.user?.profile.username ?? null);
  const form = useSendForm();
  const formErrorId = useId();
  const message = useErrorText();
  const errors = form.summary.visibleErrors;

  return (
    <section className="wallet-card wallet-send" aria-labelledby="wallet-send-title" data-testid="wallet-send">
      <header className="wallet-card-header">
        <div>
          <h2 id="wallet-send-title" className="wallet-card-title">
            {t('wallet.send.title')}
          </h2>
          <p className="wallet-card-description">{t('wallet.send.description')}</p>
        </div>
      </header>
      <form
        className="wallet-form"
        noValidate
        onSubmit={form.onSubmit}
        aria-describedby={errors.form ? formErrorId : undefined}
        data-testid="send-form"
      >
        <TextField
          label={t('wallet.send.recipient')}
          placeholder={t('wallet.send.recipientPlaceholder')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={TRANSFER_RECIPIENT_MAX_LENGTH}
          error={message(errors.recipient)}
          {...form.register('recipient')}
        />
        <div className="wallet-amount-row">
          <SendCurrencyField form={form} />
          <SendAmountField form={form} />
        </div>
        <TextField
          label={t('wallet.send.memo')}
          placeholder={t('wallet.send.memoPlaceholder')}
          maxLength={TRANSFER_MEMO_MAX_LENGTH}
          error={message(errors.memo)}
          {...form.register('memo')}
        />
        {errors.form ? (
          <p id={formErrorId} className="form-error" role="alert" data-testid="send-form-error">
            {message(errors.form)}
          </p>
        ) : null}
        <SendFormFooter pending={form.pending} hasUsername={username !== null} />
      </form>
    </section>
  );
}

function SendCurrencyField({ form }: { form: SendForm }) {
  const { t } = useTranslation();
  const message = useErrorText();
  const { currencies, state } = form;
  const error = form.summary.visibleErrors.currency;
  return (
    <div className={clsx('field', error && 'field-invalid')}>
      <label className="field-label" htmlFor="send-currency">
        {t('wallet.send.currency')}
      </label>
      <select
        id="send-currency"
        className="input select"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'send-currency-error' : undefined}
        {...form.register('currency')}
      >
        {currencies.includes(state.values.currency) ? null : (
          <option value={state.values.currency}>{state.values.currency}</option>
        )}
        {currencies.map((currency) => (
          <option key={currency} value={currency} title={coinName(currency)}>
            {currency}
          </option>
        ))}
      </select>
      {error ? (
        <p id="send-currency-error" className="field-error" role="alert">
          {message(error)}
        </p>
      ) : null}
    </div>
  );
}

function SendAmountField({ form }: { form: SendForm }) {
  const { t } = useTranslation();
  const message = useErrorText();
  const { summary } = form;
  const availableText = summary.available === null ? null : formatBalance(summary.available, summary.currency);
  const maxAmount = maxTransferAmount(summary.available, summary.currency);
  const amountHint = [
    summary.minimumAmount
      ? t('wallet.send.minimum', { amount: summary.minimumAmount, currency: summary.currency })
      : '',
    availableText ? t('wallet.send.available', { amount: availableText, currency: summary.currency }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <TextField
      label={t('wallet.send.amount')}
      inputMode="decimal"
      autoComplete="off"
      placeholder="0.00"
      className="wallet-amount-field"
      error={message(summary.visibleErrors.amount)}
      hint={amountHint || undefined}
      trailing={
        maxAmount ? (
          <button
            type="button"
            className="field-action"
            title={t('wallet.send.useAvailable')}
            aria-label={t('wallet.send.useAvailable')}
            onClick={() => form.dispatch({ type: 'edit', field: 'amount', value: maxAmount })}
          >
            {t('wallet.send.max')}
          </button>
        ) : undefined
      }
      {...form.register('amount')}
    />
  );
}

function SendFormFooter({ pending, hasUsername }: { pending: boolean; hasUsername: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="wallet-form-actions">
        <Button type="submit" loading={pending} icon={<Send size={15} aria-hidden="true" />} data-testid="send-submit">
          {pending ? t('wallet.send.submitting') : t('wallet.send.submit')}
        </Button>
      </div>
      {hasUsername ? null : (
        <p className="wallet-note">
          {t('wallet.send.noUsername')} <Link to="/settings?section=profile">{t('wallet.send.setUsername')}</Link>
        </p>
      )}
    </>
  );
}
