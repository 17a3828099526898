import { TWO_FACTOR_CODE_LENGTH, type Withdrawal, withdrawalNetworksOf } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { AlertTriangle, ArrowLeft, ArrowUpFromLine, CheckCircle2, Clock, ShieldCheck, XCircle } from 'lucide-react';
import { type FormEvent, useEffect, useId, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { withdrawalsApi } from '../../api/withdrawals.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatBalance } from '../../lib/format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { shortenAddress } from '../../lib/wallet-format.ts';
import { StatusBadge } from '../payments/payment-card.tsx';
import { CurrencySelect } from '../payments/payment-currency-select.tsx';
import { serviceErrorText } from '../payments/payment-error-text.ts';
import { STATUS_TONE_THEME } from '../payments/payment-model.ts';
import { RecentList } from '../payments/recent-list.tsx';
import { availableByCurrency } from '../wallet/balances-model.ts';
import { formatDateTime, formatExactAmount } from '../wallet/history-model.ts';
import { walletCryptoCurrencies } from '../wallet/transfer-form.ts';
import { useInvalidateWallet, useWalletBalances } from '../wallet/use-wallet.ts';
import {
  createWithdrawFormReducer,
  EXTRA_ID_MAX_LENGTH,
  feeableAmount,
  initialWithdrawFormState,
  localWithdrawalFee,
  maxWithdrawalAmount,
  type WithdrawField,
  type WithdrawFormError,
  withdrawErrorFromFailure,
  withdrawFormSummary,
} from './withdraw-form.ts';
import {
  useRecentWithdrawals,
  useTwoFactorEnabled,
  useWithdrawalFee,
  useWithdrawalLimits,
  useWithdrawalMinimums,
  useWithdrawalStatus,
} from './withdraw-queries.ts';

const withdrawFormReducer = createWithdrawFormReducer();

/** The currency the form starts on. */
const PREFERRED_WITHDRAW_CURRENCY = 'BTC';

type Step = 'edit' | 'confirm';

/** Spec §2.7 withdraw (/wallet?action=withdraw): to an outside address, with §5's checks and 2FA. */
export function WithdrawSection() {
  const [submitted, setSubmitted] = useState<Withdrawal | null>(null);
  return (
    <div className="funds-layout" data-testid="withdraw-section">
      <div className="funds-main">
        {submitted ? (
          <WithdrawalTracker key={submitted.id} initial={submitted} onDone={() => setSubmitted(null)} />
        ) : (
          <WithdrawForm onSubmitted={setSubmitted} />
        )}
      </div>
      <RecentWithdrawals />
    </div>
  );
}

function WithdrawForm({ onSubmitted }: { onSubmitted: (withdrawal: Withdrawal) => void }) {
  const form = useWithdrawForm(onSubmitted);
  return form.step === 'confirm' && form.summary.amount ? (
    <WithdrawConfirm form={form} />
  ) : (
    <WithdrawEdit form={form} />
  );
}

type WithdrawFormModel = ReturnType<typeof useWithdrawForm>;

/** The form's state and data: the reducer's values (withdraw-form.ts), the network, the fee and the sending. */
function useWithdrawForm(onSubmitted: (withdrawal: Withdrawal) => void) {
  const balances = useWalletBalances();
  const currencies = useMemo(() => walletCryptoCurrencies(balances.data), [balances.data]);
  const available = useMemo(() => (balances.data ? availableByCurrency(balances.data) : null), [balances.data]);
  const minimum = useWithdrawalMinimums();
  const twoFactorEnabled = useTwoFactorEnabled();
  const limits = useWithdrawalLimits();
  const [state, dispatch] = useReducer(withdrawFormReducer, PREFERRED_WITHDRAW_CURRENCY, (currency) =>
    initialWithdrawFormState(currency),
  );
  const [step, setStep] = useState<Step>('edit');
  const twoFactorRequired = twoFactorEnabled || state.twoFactorAsked;
  const currency = state.values.currency.trim().toUpperCase();
  const { networks, network, setChosenNetwork } = useWithdrawNetwork(currency);
  const { typedAmount, fee, feeQuery } = useWithdrawFee(currency, state.values.amount, network);
  const summary = withdrawFormSummary(state, {
    supportedCurrencies: currencies,
    available,
    network,
    minimum: (code) => (network && !network.is_default ? network.minimum : minimum(code)),
    fee: fee?.fee ?? null,
    twoFactorRequired,
  });
  const fields = useRef(new Map<WithdrawField, HTMLElement>());
  const formErrorId = useId();
  const { mutation, sending } = useSendWithdrawal(dispatch, setStep, fields, onSubmitted);
  const actions = useWithdrawActions({ state, dispatch, summary, setStep, fields, mutation, sending });
  return {
    ...{ state, dispatch, step, setStep, currency, currencies, available, limits, twoFactorRequired },
    ...{ networks, network, setChosenNetwork, typedAmount, fee, feeQuery, summary, fields, formErrorId, mutation },
    ...actions,
  };
}

/** A currency on several networks (USDT: Tron, Ethereum, BSC, Solana...) is sent on the one chosen. */
function useWithdrawNetwork(currency: string) {
  const networks = withdrawalNetworksOf(currency);
  const [chosenNetwork, setChosenNetwork] = useState<string | null>(null);
  const network =
    networks.find((entry) => entry.network === chosenNetwork) ??
    networks.find((entry) => entry.is_default) ??
    networks[0] ??
    null;
  return { networks, network, setChosenNetwork };
}

/** The fee of the amount as typed: the server's estimate once it has come, §9's rule until then. */
function useWithdrawFee(currency: string, amount: string, network: ReturnType<typeof useWithdrawNetwork>['network']) {
  const typedAmount = feeableAmount(currency, amount);
  const feeQuery = useWithdrawalFee(currency, typedAmount, network);
  const serverFee = feeQuery.data && feeQuery.data.amount === typedAmount ? feeQuery.data : null;
  const localFee = typedAmount ? localWithdrawalFee(currency, typedAmount, network) : null;
  const fee = serverFee ?? (localFee ? { ...localFee, source: 'local' as const } : null);
  return { typedAmount, fee, feeQuery };
}

type WithdrawRequest = NonNullable<ReturnType<typeof withdrawFormSummary>['request']>;
type WithdrawDispatch = (action: Parameters<typeof withdrawFormReducer>[1]) => void;
type FieldElements = { current: Map<WithdrawField, HTMLElement> };

function useSendWithdrawal(
  dispatch: WithdrawDispatch,
  setStep: (step: Step) => void,
  fields: FieldElements,
  onSubmitted: (withdrawal: Withdrawal) => void,
) {
  const invalidateWallet = useInvalidateWallet();
  const sending = useRef(false);
  const mutation = useMutation({
    mutationFn: (variables: { request: WithdrawRequest; idempotencyKey: string }) =>
      withdrawalsApi.create(variables.request, variables.idempotencyKey),
    onSuccess: (withdrawal) => {
      // No toast here: the server's 'Withdrawal submitted' notification is the one message (issue 13).
      dispatch({ type: 'sent' });
      invalidateWallet();
      onSubmitted(withdrawal);
    },
    onError: (error, variables) => {
      const failure = withdrawErrorFromFailure(error, variables.request);
      dispatch({ type: 'failed', error: failure.error, twoFactorAsked: failure.twoFactorAsked });
      // A problem with what was typed sends the user back to it; a code problem stays here.
      const field = failure.error.field;
      if (field !== 'form' && field !== 'twoFactorCode') setStep('edit');
      if (field === 'twoFactorCode') setTimeout(() => fields.current.get('twoFactorCode')?.focus(), 0);
    },
    onSettled: () => {
      sending.current = false;
    },
  });
  return { mutation, sending };
}

/** The two submits (review, then confirm) and the fields' bindings and messages. */
function useWithdrawActions({
  state,
  dispatch,
  summary,
  setStep,
  fields,
  mutation,
  sending,
}: {
  state: ReturnType<typeof withdrawFormReducer>;
  dispatch: WithdrawDispatch;
  summary: ReturnType<typeof withdrawFormSummary>;
  setStep: (step: Step) => void;
  fields: FieldElements;
  mutation: ReturnType<typeof useSendWithdrawal>['mutation'];
  sending: { current: boolean };
}) {
  const { t } = useTranslation();
  const [confirmAttempted, setConfirmAttempted] = useState(false);
  const focusField = (field: WithdrawField | 'form' | undefined) => {
    if (field && field !== 'form') fields.current.get(field)?.focus();
  };

  const onReview = (event: FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'submitAttempted' });
    const blocking = summary.errors.filter((error) => error.field !== 'twoFactorCode');
    if (blocking.length > 0) {
      focusField(blocking[0]?.field);
      return;
    }
    setConfirmAttempted(false);
    setStep('confirm');
  };

  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    setConfirmAttempted(true);
    dispatch({ type: 'submitAttempted' });
    if (!summary.request) {
      const first = summary.errors[0];
      if (first?.field === 'twoFactorCode') focusField('twoFactorCode');
      else setStep('edit');
      return;
    }
    sending.current = true;
    mutation.mutate({ request: summary.request, idempotencyKey: state.idempotencyKey });
  };

  const register = (field: WithdrawField) => ({
    ref: (element: HTMLInputElement | null) => {
      if (element) fields.current.set(field, element);
      else fields.current.delete(field);
    },
    value: state.values[field],
    onChange: (event: { target: { value: string } }) => dispatch({ type: 'edit', field, value: event.target.value }),
    onBlur: () => dispatch({ type: 'blur', field }),
    'data-testid': `withdraw-${field}`,
  });
  const message = (error: WithdrawFormError | undefined) =>
    error ? translateMessage(t, error.key, error.values) : undefined;
  const codeError =
    state.serverError?.field === 'twoFactorCode'
      ? state.serverError
      : confirmAttempted || state.touched.twoFactorCode
        ? summary.errors.find((error) => error.field === 'twoFactorCode')
        : undefined;
  return { onReview, onConfirm, register, message, codeError };
}

/** The amounts as the form shows them. */
function withdrawLines(t: TFunction, form: WithdrawFormModel) {
  const { summary, currency, fee, typedAmount } = form;
  const availableText = summary.available === null ? null : formatBalance(summary.available, currency);
  const maxAmount = maxWithdrawalAmount(summary.available, currency);
  const amountHint = [
    t('wallet.withdraw.minimum', { amount: summary.minimum, currency }),
    availableText ? t('wallet.withdraw.available', { amount: availableText, currency }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const tagLabel = summary.tagLabel ? t(`wallet.withdraw.tagLabels.${summary.tagLabel}`) : null;
  const feeLine = fee ? `${formatExactAmount(fee.fee)} ${currency}` : '—';
  const totalLine = fee ? `${formatExactAmount(fee.total_amount)} ${currency}` : '—';
  const receiveLine = typedAmount ? `${formatExactAmount(typedAmount)} ${currency}` : '—';
  return { maxAmount, amountHint, tagLabel, feeLine, totalLine, receiveLine };
}

/** The second step: what will be sent where, the 2FA code, and the confirmation. */
function WithdrawConfirm({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { state, currency, twoFactorRequired, codeError, message, register, mutation, setStep, formErrorId } = form;
  return (
    <form
      className="wallet-form withdraw-confirm"
      noValidate
      onSubmit={form.onConfirm}
      aria-labelledby="withdraw-confirm-title"
      aria-describedby={state.serverError?.field === 'form' ? formErrorId : undefined}
      data-testid="withdraw-confirm"
    >
      <h3 id="withdraw-confirm-title" className="funds-step-title">
        {t('wallet.withdraw.confirmTitle')}
      </h3>
      <WithdrawReview form={form} />
      <div className="funds-alert funds-alert-warning" role="note">
        <AlertTriangle size={16} aria-hidden="true" className="funds-alert-icon" />
        <p>{t('wallet.withdraw.irreversible', { currency })}</p>
      </div>
      {twoFactorRequired ? (
        <TextField
          label={t('wallet.withdraw.twoFactorCode')}
          hint={t('wallet.withdraw.twoFactorHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={TWO_FACTOR_CODE_LENGTH}
          className="field-narrow code-field"
          error={message(codeError)}
          {...register('twoFactorCode')}
        />
      ) : null}
      {state.serverError?.field === 'form' ? (
        <p id={formErrorId} className="form-error" role="alert" data-testid="withdraw-form-error">
          {message(state.serverError)}
        </p>
      ) : null}
      <div className="funds-actions">
        <Button
          variant="secondary"
          icon={<ArrowLeft size={15} aria-hidden="true" className="flip-rtl" />}
          onClick={() => setStep('edit')}
          disabled={mutation.isPending}
          data-testid="withdraw-back"
        >
          {t('common.back')}
        </Button>
        <Button
          type="submit"
          loading={mutation.isPending}
          icon={<ShieldCheck size={15} aria-hidden="true" />}
          data-testid="withdraw-submit"
        >
          {mutation.isPending ? t('wallet.withdraw.submitting') : t('wallet.withdraw.confirm')}
        </Button>
      </div>
    </form>
  );
}

function WithdrawReview({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { state, network } = form;
  const { receiveLine, feeLine, totalLine, tagLabel } = withdrawLines(t, form);
  return (
    <dl className="funds-summary funds-review">
      <div>
        <dt>{t('wallet.withdraw.amount')}</dt>
        <dd className="tabular" data-testid="withdraw-confirm-amount">
          {receiveLine}
        </dd>
      </div>
      <div>
        <dt>{t('wallet.withdraw.fee')}</dt>
        <dd className="tabular" data-testid="withdraw-confirm-fee">
          {feeLine}
        </dd>
      </div>
      <div className="funds-summary-total">
        <dt>{t('wallet.withdraw.total')}</dt>
        <dd className="tabular" data-testid="withdraw-confirm-total">
          {totalLine}
        </dd>
      </div>
      {network ? (
        <div>
          <dt>{t('wallet.withdraw.network')}</dt>
          <dd data-testid="withdraw-confirm-network">{network.name}</dd>
        </div>
      ) : null}
      <div className="funds-review-address">
        <dt>{t('wallet.withdraw.address')}</dt>
        <dd className="mono" data-testid="withdraw-confirm-address">
          {state.values.address.trim()}
        </dd>
      </div>
      {state.values.extraId.trim() && tagLabel ? (
        <div>
          <dt>{tagLabel}</dt>
          <dd className="mono">{state.values.extraId.trim()}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The first step: the currency, network, amount and address, checked as they are typed. */
function WithdrawEdit({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { dispatch, currency, currencies, available, network, fields, message, setChosenNetwork, fee, feeQuery } = form;
  const errors = form.summary.visibleErrors;
  return (
    <form
      className="wallet-form"
      noValidate
      onSubmit={form.onReview}
      aria-describedby={errors.form ? form.formErrorId : undefined}
      data-testid="withdraw-form"
    >
      <p className="wallet-card-description">{t('wallet.withdraw.detail')}</p>
      <CurrencySelect
        ref={(element) => {
          if (element) fields.current.set('currency', element);
          else fields.current.delete('currency');
        }}
        label={t('wallet.withdraw.currency')}
        currencies={currencies}
        value={currency}
        amounts={available}
        error={message(errors.currency)}
        onChange={(next) => {
          dispatch({ type: 'edit', field: 'currency', value: next });
          setChosenNetwork(null);
        }}
        testId="withdraw-currency"
      />
      {network ? <WithdrawNetworkChoice form={form} network={network} /> : null}
      <WithdrawAmountField form={form} />
      <WithdrawAddressFields form={form} />
      <WithdrawTotals form={form} />
      {fee?.source === 'local' && !feeQuery.isFetching ? (
        <p className="field-hint">{t('wallet.withdraw.feeLocal')}</p>
      ) : null}
      {errors.form ? (
        <p id={form.formErrorId} className="form-error" role="alert" data-testid="withdraw-form-error">
          {message(errors.form)}
        </p>
      ) : null}
      <div className="wallet-form-actions">
        <Button type="submit" icon={<ArrowUpFromLine size={15} aria-hidden="true" />} data-testid="withdraw-review">
          {t('wallet.withdraw.review')}
        </Button>
      </div>
      <ul className="funds-help" data-testid="withdraw-help">
        <li>{t('wallet.withdraw.help.time')}</li>
        <li>{form.twoFactorRequired ? t('wallet.withdraw.help.twoFactorOn') : t('wallet.withdraw.help.twoFactor')}</li>
        {form.limits.data ? (
          <li data-testid="withdraw-limit">
            {t('wallet.withdraw.help.limit', {
              remaining: `$${formatBalance(form.limits.data.remaining_usd, 'USD')}`,
              limit: `$${formatBalance(form.limits.data.daily_limit_usd, 'USD')}`,
            })}
          </li>
        ) : null}
      </ul>
    </form>
  );
}

type WithdrawNetwork = NonNullable<WithdrawFormModel['network']>;

function WithdrawNetworkChoice({ form, network }: { form: WithdrawFormModel; network: WithdrawNetwork }) {
  const { t } = useTranslation();
  const { networks, setChosenNetwork, currency, summary } = form;
  const networkLabelId = useId();
  return (
    <div className="funds-choice">
      <span className="field-label" id={networkLabelId}>
        {t('wallet.withdraw.network')}
      </span>
      <div className="chip-row" role="radiogroup" aria-labelledby={networkLabelId}>
        {networks.map((option) => (
          // biome-ignore lint/a11y/useSemanticElements: a row of chips reads better than radio dots
          <button
            key={option.network}
            type="button"
            role="radio"
            aria-checked={network.network === option.network}
            className={clsx('chip', network.network === option.network && 'active')}
            onClick={() => setChosenNetwork(option.network)}
            data-testid={`withdraw-network-${option.network}`}
          >
            {option.name}
          </button>
        ))}
      </div>
      <p className="field-hint" data-testid="withdraw-network-terms">
        {t('wallet.withdraw.networkTerms', {
          network: network.name,
          fee: `${network.fee} ${currency}`,
          minimum: `${network.is_default ? summary.minimum : network.minimum} ${currency}`,
        })}
      </p>
    </div>
  );
}

function WithdrawAmountField({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { dispatch, message, register } = form;
  const errors = form.summary.visibleErrors;
  const { maxAmount, amountHint } = withdrawLines(t, form);
  return (
    <TextField
      label={t('wallet.withdraw.amount')}
      inputMode="decimal"
      autoComplete="off"
      placeholder="0.00"
      className="wallet-amount-field funds-amount-field"
      error={message(errors.amount)}
      hint={amountHint}
      trailing={
        maxAmount ? (
          <button
            type="button"
            className="field-action"
            title={t('wallet.withdraw.useMax')}
            aria-label={t('wallet.withdraw.useMax')}
            data-testid="withdraw-max"
            onClick={() => dispatch({ type: 'edit', field: 'amount', value: maxAmount })}
          >
            {t('wallet.withdraw.max')}
          </button>
        ) : undefined
      }
      {...register('amount')}
    />
  );
}

function WithdrawAddressFields({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { currency, network, message, register } = form;
  const errors = form.summary.visibleErrors;
  const { tagLabel } = withdrawLines(t, form);
  return (
    <>
      <TextField
        label={t('wallet.withdraw.addressLabel', { currency })}
        placeholder={
          network
            ? t('wallet.withdraw.addressPlaceholderNetwork', { currency, network: network.name })
            : t('wallet.withdraw.addressPlaceholder', { currency })
        }
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        className="funds-address-field"
        error={message(errors.address)}
        {...register('address')}
      />
      {tagLabel ? (
        <TextField
          label={t('wallet.withdraw.tagOptional', { label: tagLabel })}
          hint={t('wallet.withdraw.tagHint', { label: tagLabel.toLowerCase() })}
          autoComplete="off"
          spellCheck={false}
          inputMode={currency === 'XRP' ? 'numeric' : undefined}
          maxLength={EXTRA_ID_MAX_LENGTH}
          error={message(errors.extraId)}
          {...register('extraId')}
        />
      ) : null}
    </>
  );
}

/** The fee, what arrives and what leaves the balance, for the amount as typed. */
function WithdrawTotals({ form }: { form: WithdrawFormModel }) {
  const { t } = useTranslation();
  const { feeLine, receiveLine, totalLine } = withdrawLines(t, form);
  return (
    <dl className="funds-summary" aria-live="polite" data-testid="withdraw-summary">
      <div>
        <dt>{t('wallet.withdraw.fee')}</dt>
        <dd className="tabular" data-testid="withdraw-fee">
          {feeLine}
        </dd>
      </div>
      <div>
        <dt>{t('wallet.withdraw.receive')}</dt>
        <dd className="tabular">{receiveLine}</dd>
      </div>
      <div className="funds-summary-total">
        <dt>{t('wallet.withdraw.total')}</dt>
        <dd className="tabular" data-testid="withdraw-total">
          {totalLine}
        </dd>
      </div>
    </dl>
  );
}

/** The withdrawal just sent, followed to the end (§4 statuses; the provider's step beside it). */
function WithdrawalTracker({ initial, onDone }: { initial: Withdrawal; onDone: () => void }) {
  const { t } = useTranslation();
  const query = useWithdrawalStatus(initial);
  const invalidateWallet = useInvalidateWallet();
  const withdrawal = query.data ?? initial;
  const status = withdrawal.status;
  const headingRef = useRef<HTMLHeadingElement>(null);

  useLayoutEffect(() => {
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    // The hold became a debit (or went back): balances and history change.
    if (status !== 'pending') invalidateWallet();
  }, [status, invalidateWallet]);

  const Icon = status === 'completed' ? CheckCircle2 : status === 'failed' ? XCircle : Clock;
  const steps = ['requested', 'processing', 'completed'] as const;
  // Requested is done once the withdrawal exists; the provider's steps are all "processing" to the user.
  const reached = status === 'completed' ? 3 : status === 'failed' ? 0 : 1;

  return (
    <section className="withdraw-tracker" aria-labelledby="withdraw-tracker-title" data-testid="withdraw-tracker">
      <div className="withdraw-tracker-head">
        <span className="withdraw-tracker-icon" data-tone={STATUS_TONE_THEME[status]} aria-hidden="true">
          <Icon size={22} />
        </span>
        <div className="withdraw-tracker-text">
          <h3 id="withdraw-tracker-title" className="funds-step-title" ref={headingRef} tabIndex={-1}>
            {t(`wallet.withdraw.tracker.${status}`)}
          </h3>
          <p className="funds-row-amount tabular" data-testid="withdraw-tracker-amount">
            {formatExactAmount(withdrawal.amount)} {withdrawal.currency}
          </p>
        </div>
        <span
          className="badge wallet-badge"
          data-tone={STATUS_TONE_THEME[status]}
          data-testid="withdraw-status"
          aria-live="polite"
        >
          {t(`wallet.history.statuses.${status}`)}
        </span>
      </div>
      {status === 'failed' ? (
        <p className="form-error" role="alert" data-testid="withdraw-reason">
          {withdrawal.reason || t('wallet.withdraw.errors.failed')}
        </p>
      ) : (
        <ol className="withdraw-steps" aria-label={t('wallet.withdraw.tracker.progress')}>
          {steps.map((step, index) => (
            <li
              key={step}
              className={clsx(
                'withdraw-step',
                index < reached && 'done',
                index === reached && status === 'pending' && 'current',
              )}
              aria-current={index === reached && status === 'pending' ? 'step' : undefined}
            >
              {t(`wallet.withdraw.tracker.steps.${step}`)}
            </li>
          ))}
        </ol>
      )}
      <dl className="funds-summary">
        <div>
          <dt>{t('wallet.withdraw.amount')}</dt>
          <dd className="tabular">
            {formatExactAmount(withdrawal.amount)} {withdrawal.currency}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.withdraw.fee')}</dt>
          <dd className="tabular">
            {formatExactAmount(withdrawal.fee)} {withdrawal.currency}
          </dd>
        </div>
        <div className="funds-summary-total">
          <dt>{t('wallet.withdraw.total')}</dt>
          <dd className="tabular">
            {formatExactAmount(withdrawal.total_amount)} {withdrawal.currency}
          </dd>
        </div>
        <div className="funds-review-address">
          <dt>{t('wallet.withdraw.address')}</dt>
          <dd className="mono">{withdrawal.address}</dd>
        </div>
        {withdrawal.extra_id ? (
          <div>
            <dt>{t('wallet.withdraw.tracker.tag')}</dt>
            <dd className="mono">{withdrawal.extra_id}</dd>
          </div>
        ) : null}
        {withdrawal.hash ? (
          <div className="funds-review-address">
            <dt>{t('wallet.withdraw.tracker.hash')}</dt>
            <dd className="mono">{withdrawal.hash}</dd>
          </div>
        ) : null}
      </dl>
      {status === 'pending' && withdrawal.verification_required ? (
        <VerifyPayoutForm withdrawal={withdrawal} onVerified={() => void query.refetch()} />
      ) : null}
      {status === 'pending' ? <p className="field-hint">{t('wallet.withdraw.help.time')}</p> : null}
      <div className="funds-actions">
        <Button variant="secondary" onClick={onDone} data-testid="withdraw-new">
          {t('wallet.withdraw.tracker.another')}
        </Button>
      </div>
    </section>
  );
}

/** The payment provider waits for the code it sent before it pays this withdrawal out. */
function VerifyPayoutForm({ withdrawal, onVerified }: { withdrawal: Withdrawal; onVerified: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [attempted, setAttempted] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const mutation = useMutation({
    mutationFn: (value: string) => withdrawalsApi.verify(withdrawal.batch_withdrawal_id ?? withdrawal.id, value),
    onSuccess: onVerified,
  });
  const problem =
    code.trim() === ''
      ? 'wallet.withdraw.verify.required'
      : /^\d{6}$/.test(code.trim())
        ? null
        : 'validation.twoFactorCodeLength';
  const error = mutation.isError
    ? serviceErrorText(mutation.error, t, 'wallet.withdraw.verify.failed')
    : attempted && problem
      ? translateMessage(t, problem)
      : undefined;
  return (
    <form
      className="wallet-form withdraw-verify"
      noValidate
      data-testid="withdraw-verify"
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (problem) return inputRef.current?.focus();
        if (!mutation.isPending) mutation.mutate(code.trim());
      }}
    >
      <p className="wallet-note">{t('wallet.withdraw.verify.hint')}</p>
      <TextField
        ref={inputRef}
        label={t('wallet.withdraw.verify.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        className="field-narrow code-field"
        value={code}
        error={error}
        data-testid="withdraw-verify-code"
        onChange={(event) => {
          setCode(event.target.value);
          if (mutation.isError) mutation.reset();
        }}
      />
      <div>
        <Button type="submit" loading={mutation.isPending} data-testid="withdraw-verify-submit">
          {t('wallet.withdraw.verify.submit')}
        </Button>
      </div>
    </form>
  );
}

function RecentWithdrawals() {
  const { t } = useTranslation();
  const query = useRecentWithdrawals();
  const withdrawals = query.data?.withdrawals;
  return (
    <RecentList
      testId="withdraw-recent"
      title={t('wallet.withdraw.recent.title')}
      loading={query.isPending}
      failure={
        query.isError && !query.data
          ? {
              message: serviceErrorText(query.error, t, 'wallet.withdraw.recent.failed'),
              onRetry: () => void query.refetch(),
            }
          : null
      }
      isEmpty={!withdrawals || withdrawals.length === 0}
      emptyIcon={ArrowUpFromLine}
      emptyText={t('wallet.withdraw.recent.empty')}
    >
      {withdrawals?.map((withdrawal) => {
        const { date, time } = formatDateTime(withdrawal.created_at);
        return (
          <li key={withdrawal.id} className="funds-row" data-testid={`withdrawal-${withdrawal.id}`}>
            <div className="funds-row-main">
              <span className="funds-row-amount tabular">
                -{formatExactAmount(withdrawal.amount)} {withdrawal.currency}
              </span>
              <span className="funds-row-meta">
                {t('wallet.withdraw.recent.fee', {
                  fee: `${formatExactAmount(withdrawal.fee)} ${withdrawal.currency}`,
                })}{' '}
                ·{' '}
                <span className="mono" title={withdrawal.address}>
                  {t('wallet.withdraw.recent.to', { address: shortenAddress(withdrawal.address) })}
                </span>{' '}
                ·{' '}
                <time dateTime={withdrawal.created_at}>
                  {date} {time}
                </time>
              </span>
              {withdrawal.status === 'failed' && withdrawal.reason ? (
                <span className="funds-row-reason">{withdrawal.reason}</span>
              ) : null}
            </div>
            <div className="funds-row-status">
              <StatusBadge tone={withdrawal.status}>{t(`wallet.history.statuses.${withdrawal.status}`)}</StatusBadge>
            </div>
          </li>
        );
      })}
    </RecentList>
  );
}
