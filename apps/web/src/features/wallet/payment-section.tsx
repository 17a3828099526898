import { type LightningPayment, PAYMENT_DESCRIPTION_MAX_LENGTH, type Payment } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { ArrowLeft, CreditCard, Plus, Receipt, Zap } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentsApi } from '../../api/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { translateMessage } from '../../lib/translate.ts';
import { coinName } from '../markets/markets-model.ts';
import { formatDateTime, formatExactAmount } from './history-model.ts';
import { LightningCard, PaymentCard, StatusBadge } from './payment-card.tsx';
import { serviceErrorText } from './payment-error-text.ts';
import {
  type FieldProblem,
  LIGHTNING_STATUS_TONE,
  lightningFormProblems,
  PAYMENT_STATUS_TONE,
  type PaymentKind,
  paymentFormProblems,
  paymentKinds,
} from './payment-model.ts';
import { type RememberedRow, useRememberedPayments } from './payment-queries.ts';
import { createIdempotencyKey, normalizeAmountText, WALLET_CURRENCY_FALLBACK } from './transfer-form.ts';
import { useWalletBalances } from './use-wallet.ts';

/** The order currency a payment starts in. */
const PREFERRED_ORDER_CURRENCY = 'USD';

type Opened =
  | { kind: 'payment'; id: string; payment?: Payment }
  | { kind: 'lightning'; id: string; lightning?: LightningPayment };

/**
 * Spec §2.7's Create Payment tab (§3.5, §7.4): a payment through the provider's checkout (payable
 * with a Lightning invoice too) or a Lightning-only invoice; each is followed until it is final.
 */
export function PaymentSection() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<PaymentKind>('payment');
  const [opened, setOpened] = useState<Opened | null>(null);
  const remembered = useRememberedPayments();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const open = (next: Opened) => {
    setOpened(next);
    remembered.remember({ kind: next.kind, id: next.id });
  };

  return (
    <div className="wallet-sections" data-testid="payment-section">
      <section className="wallet-card" aria-labelledby="payment-title">
        <header className="wallet-card-header">
          <div>
            <h2 id="payment-title" className="wallet-card-title" ref={headingRef} tabIndex={-1}>
              {t('wallet.payment.title')}
            </h2>
            <p className="wallet-card-description">{t('wallet.payment.description')}</p>
          </div>
          {opened ? null : (
            <fieldset className="segmented funds-segmented">
              <legend className="visually-hidden">{t('wallet.payment.kindLabel')}</legend>
              {paymentKinds.map((option) => (
                <button
                  key={option}
                  type="button"
                  className={clsx('segment', kind === option && 'active')}
                  aria-pressed={kind === option}
                  onClick={() => setKind(option)}
                  data-testid={`payment-kind-${option}`}
                >
                  {option === 'payment' ? (
                    <CreditCard size={15} aria-hidden="true" />
                  ) : (
                    <Zap size={15} aria-hidden="true" />
                  )}
                  {t(`wallet.payment.kinds.${option}`)}
                </button>
              ))}
            </fieldset>
          )}
        </header>
        <div className="funds-layout">
          <div className="funds-main">
            {opened ? (
              <>
                <div>
                  <Button
                    variant="ghost"
                    size="sm"
                    icon={<ArrowLeft size={15} aria-hidden="true" className="flip-rtl" />}
                    onClick={() => {
                      setOpened(null);
                      headingRef.current?.focus();
                    }}
                    data-testid="payment-new"
                  >
                    {t('wallet.payment.newPayment')}
                  </Button>
                </div>
                {opened.kind === 'payment' ? (
                  <PaymentCard key={opened.id} id={opened.id} initial={opened.payment} />
                ) : (
                  <LightningCard key={opened.id} id={opened.id} initial={opened.lightning} />
                )}
              </>
            ) : kind === 'payment' ? (
              <PaymentForm onCreated={(payment) => open({ kind: 'payment', id: payment.id, payment })} />
            ) : (
              <LightningForm onCreated={(lightning) => open({ kind: 'lightning', id: lightning.id, lightning })} />
            )}
          </div>
          <RecentPayments
            rows={remembered.rows.data}
            loading={remembered.list.length > 0 && remembered.rows.isPending}
            count={remembered.list.length}
            openedId={opened?.id ?? null}
            onOpen={(row) => setOpened({ kind: row.kind, id: row.id })}
          />
        </div>
      </section>
    </div>
  );
}

function useFieldMessage() {
  const { t } = useTranslation();
  return (problem: FieldProblem | undefined, show: boolean) =>
    problem && show ? translateMessage(t, problem.key, problem.values) : undefined;
}

function PaymentForm({ onCreated }: { onCreated: (payment: Payment) => void }) {
  const { t } = useTranslation();
  const balances = useWalletBalances();
  const message = useFieldMessage();
  const currencies = useMemo(
    () =>
      balances.data ? balances.data.map((balance) => balance.currency.toUpperCase()) : [...WALLET_CURRENCY_FALLBACK],
    [balances.data],
  );
  const cryptos = currencies.filter((currency) => currency !== 'USD');
  const [values, setValues] = useState({
    description: '',
    amount: '',
    currency: PREFERRED_ORDER_CURRENCY,
    payWith: '',
  });
  const [touched, setTouched] = useState({ description: false, amount: false });
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(createIdempotencyKey);
  const sending = useRef(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const currencyId = useId();
  const payWithId = useId();
  const problems = paymentFormProblems(values);

  const mutation = useMutation({
    mutationFn: (key: string) =>
      paymentsApi.create(
        {
          description: values.description.trim(),
          amount: normalizeAmountText(values.amount),
          currency: values.currency,
          ...(values.payWith ? { crypto_currency: values.payWith } : {}),
        },
        key,
      ),
    onSuccess: (payment) => onCreated(payment),
    onSettled: () => {
      sending.current = false;
    },
  });

  const edit = (field: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setIdempotencyKey(createIdempotencyKey());
    if (mutation.isError) mutation.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    setSubmitAttempted(true);
    if (problems.description) return descriptionRef.current?.focus();
    if (problems.amount) return amountRef.current?.focus();
    sending.current = true;
    mutation.mutate(idempotencyKey);
  };

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="payment-form">
      <TextField
        ref={descriptionRef}
        label={t('wallet.payment.form.description')}
        placeholder={t('wallet.payment.form.descriptionPlaceholder')}
        maxLength={PAYMENT_DESCRIPTION_MAX_LENGTH}
        value={values.description}
        error={message(problems.description, touched.description || submitAttempted)}
        data-testid="payment-description"
        onChange={(event) => edit('description', event.target.value)}
        onBlur={() => setTouched((current) => ({ ...current, description: true }))}
      />
      <div className="wallet-amount-row payment-amount-row">
        <TextField
          ref={amountRef}
          label={t('wallet.payment.form.amount')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={values.amount}
          error={message(problems.amount, touched.amount || submitAttempted)}
          data-testid="payment-amount"
          onChange={(event) => edit('amount', event.target.value)}
          onBlur={() => setTouched((current) => ({ ...current, amount: true }))}
        />
        <div className="field">
          <label className="field-label" htmlFor={currencyId}>
            {t('wallet.payment.form.currency')}
          </label>
          <select
            id={currencyId}
            className="input select"
            value={values.currency}
            data-testid="payment-currency"
            onChange={(event) => edit('currency', event.target.value)}
          >
            {currencies.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={payWithId}>
          {t('wallet.payment.form.payWith')}
        </label>
        <select
          id={payWithId}
          className="input select"
          value={values.payWith}
          aria-describedby={`${payWithId}-hint`}
          data-testid="payment-pay-with"
          onChange={(event) => edit('payWith', event.target.value)}
        >
          <option value="">{t('wallet.payment.form.payWithAny')}</option>
          {cryptos.map((currency) => (
            <option key={currency} value={currency}>
              {currency} · {coinName(currency)}
            </option>
          ))}
        </select>
        <p id={`${payWithId}-hint`} className="field-hint">
          {t('wallet.payment.form.payWithHint')}
        </p>
      </div>
      {mutation.isError ? (
        <p className="form-error" role="alert" data-testid="payment-form-error">
          {serviceErrorText(mutation.error, t, 'wallet.payment.errors.createFailed')}
        </p>
      ) : null}
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={mutation.isPending}
          icon={<Plus size={15} aria-hidden="true" />}
          data-testid="payment-submit"
        >
          {mutation.isPending ? t('wallet.payment.form.submitting') : t('wallet.payment.form.submit')}
        </Button>
      </div>
      <p className="wallet-note">{t('wallet.payment.form.note')}</p>
    </form>
  );
}

function LightningForm({ onCreated }: { onCreated: (lightning: LightningPayment) => void }) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const [values, setValues] = useState({ description: '', amount: '' });
  const [touched, setTouched] = useState({ description: false, amount: false });
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(createIdempotencyKey);
  const sending = useRef(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const problems = lightningFormProblems(values);

  const mutation = useMutation({
    mutationFn: (key: string) => {
      const description = values.description.trim();
      return paymentsApi.createLightning(
        { amount: normalizeAmountText(values.amount), ...(description ? { description } : {}) },
        key,
      );
    },
    onSuccess: (lightning) => onCreated(lightning),
    onSettled: () => {
      sending.current = false;
    },
  });

  const edit = (field: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setIdempotencyKey(createIdempotencyKey());
    if (mutation.isError) mutation.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    setSubmitAttempted(true);
    if (problems.amount) return amountRef.current?.focus();
    if (problems.description) return descriptionRef.current?.focus();
    sending.current = true;
    mutation.mutate(idempotencyKey);
  };

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="lightning-form">
      <TextField
        ref={amountRef}
        label={t('wallet.payment.lightning.amount')}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00010000"
        value={values.amount}
        error={message(problems.amount, touched.amount || submitAttempted)}
        trailing={<span className="funds-unit">BTC</span>}
        className="funds-amount-field"
        data-testid="lightning-amount"
        onChange={(event) => edit('amount', event.target.value)}
        onBlur={() => setTouched((current) => ({ ...current, amount: true }))}
      />
      <TextField
        ref={descriptionRef}
        label={t('wallet.payment.lightning.description')}
        placeholder={t('wallet.payment.form.descriptionPlaceholder')}
        maxLength={PAYMENT_DESCRIPTION_MAX_LENGTH}
        value={values.description}
        error={message(problems.description, touched.description || submitAttempted)}
        data-testid="lightning-description"
        onChange={(event) => edit('description', event.target.value)}
        onBlur={() => setTouched((current) => ({ ...current, description: true }))}
      />
      {mutation.isError ? (
        <p className="form-error" role="alert" data-testid="lightning-form-error">
          {serviceErrorText(mutation.error, t, 'wallet.payment.errors.createFailed')}
        </p>
      ) : null}
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={mutation.isPending}
          icon={<Zap size={15} aria-hidden="true" />}
          data-testid="lightning-submit"
        >
          {mutation.isPending ? t('wallet.payment.form.submitting') : t('wallet.payment.lightning.submit')}
        </Button>
      </div>
      <p className="wallet-note">{t('wallet.payment.lightning.note')}</p>
    </form>
  );
}

function RecentPayments({
  rows,
  loading,
  count,
  openedId,
  onOpen,
}: {
  rows: RememberedRow[] | undefined;
  loading: boolean;
  count: number;
  openedId: string | null;
  onOpen: (row: RememberedRow) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <aside className="funds-side" aria-labelledby="payment-recent-title" data-testid="payment-recent">
      <h3 id="payment-recent-title" className="funds-side-title">
        {t('wallet.payment.recent.title')}
      </h3>
      {loading ? (
        <div className="wallet-table-skeleton" aria-busy="true">
          <span className="skeleton-block skeleton-line" />
          <span className="skeleton-block skeleton-line" />
          <span className="visually-hidden">{t('app.loading')}</span>
        </div>
      ) : count === 0 || !rows || rows.length === 0 ? (
        <div className="wallet-empty funds-empty" data-testid="payment-recent-empty">
          <Receipt size={20} aria-hidden="true" className="wallet-empty-icon" />
          <p>{t('wallet.payment.recent.empty')}</p>
        </div>
      ) : (
        <ul className="funds-list">
          {rows.map((row) => {
            const summary = rowSummary(row);
            const when = summary ? formatDateTime(summary.created, i18n.language) : null;
            return (
              <li key={`${row.kind}-${row.id}`}>
                <button
                  type="button"
                  className={clsx('funds-row funds-row-button', openedId === row.id && 'active')}
                  aria-current={openedId === row.id ? 'true' : undefined}
                  onClick={() => onOpen(row)}
                  data-testid={`payment-row-${row.id}`}
                >
                  <span className="funds-row-main">
                    <span className="funds-row-amount tabular">
                      {row.kind === 'lightning' ? (
                        <Zap size={13} aria-hidden="true" className="lightning-icon" />
                      ) : null}
                      {summary ? `${formatExactAmount(summary.amount)} ${summary.currency}` : row.id.slice(0, 8)}
                    </span>
                    <span className="funds-row-meta">
                      {summary?.description || t(`wallet.payment.kinds.${row.kind}`)}
                      {when ? ` · ${when.date} ${when.time}` : ''}
                    </span>
                  </span>
                  <span className="funds-row-status">
                    {summary ? (
                      <StatusBadge tone={summary.tone}>
                        {summary.kind === 'payment'
                          ? t(`wallet.payment.statuses.${summary.status}`)
                          : t(`wallet.payment.lightningStatuses.${summary.status}`)}
                      </StatusBadge>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </aside>
  );
}

function rowSummary(row: RememberedRow) {
  if (row.kind === 'payment') {
    const payment = row.payment;
    if (!payment) return null;
    return {
      amount: payment.amount,
      currency: payment.currency,
      description: payment.description,
      created: payment.created_at,
      tone: PAYMENT_STATUS_TONE[payment.status],
      kind: 'payment' as const,
      status: payment.status,
    };
  }
  const invoice = row.lightning;
  if (!invoice) return null;
  return {
    amount: invoice.amount,
    currency: 'BTC',
    description: invoice.description,
    created: invoice.created_at,
    tone: LIGHTNING_STATUS_TONE[invoice.status],
    kind: 'lightning' as const,
    status: invoice.status,
  };
}
