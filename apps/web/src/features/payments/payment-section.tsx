import { type LightningPayment, PAYMENT_DESCRIPTION_MAX_LENGTH, type Payment } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { ArrowLeft, CreditCard, Plus, Receipt, Zap } from 'lucide-react';
import { type FormEvent, type RefObject, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentsApi } from '../../api/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { Segmented } from '../../components/ui/segmented.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { translateMessage } from '../../lib/translate.ts';
import { coinName } from '../markets/markets-model.ts';
import { formatDateTime, formatExactAmount } from '../wallet/history-model.ts';
import { createIdempotencyKey, normalizeAmountText, walletCurrencies } from '../wallet/transfer-form.ts';
import { useWalletBalances } from '../wallet/use-wallet.ts';
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
import { RecentList } from './recent-list.tsx';

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
            <Segmented
              legend={t('wallet.payment.kindLabel')}
              options={paymentKinds}
              value={kind}
              onChange={setKind}
              label={(option) => (
                <>
                  {option === 'payment' ? (
                    <CreditCard size={15} aria-hidden="true" />
                  ) : (
                    <Zap size={15} aria-hidden="true" />
                  )}
                  {t(`wallet.payment.kinds.${option}`)}
                </>
              )}
              testId={(option) => `payment-kind-${option}`}
              className="funds-segmented"
            />
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

/**
 * What both create forms keep: the values, the fields the user has left, one Idempotency-Key per
 * payload (any edit takes a fresh one, a refused send keeps it) and one send at a time.
 */
function useCreateForm<Values extends Record<string, string>, Created>(
  initial: Values,
  create: (values: Values, idempotencyKey: string) => Promise<Created>,
  onCreated: (created: Created) => void,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(createIdempotencyKey);
  const sending = useRef(false);

  const mutation = useMutation({
    mutationFn: (key: string) => create(values, key),
    onSuccess: (created: Created) => onCreated(created),
    onSettled: () => {
      sending.current = false;
    },
  });

  const edit = (field: keyof Values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setIdempotencyKey(createIdempotencyKey());
    if (mutation.isError) mutation.reset();
  };

  /** A text field's props; its rule's message shows once the field was left or a send was tried. */
  const field = (name: keyof Values, problem: FieldProblem | undefined) => ({
    value: values[name],
    error: problem && (touched[name] || submitAttempted) ? translateMessage(t, problem.key, problem.values) : undefined,
    onChange: (event: { target: { value: string } }) => edit(name, event.target.value),
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
  });

  /** Sends, unless a field must be fixed first (`fieldToFix`): that one gets the focus instead. */
  const submit = (event: FormEvent, fieldToFix: RefObject<HTMLInputElement | null> | null) => {
    event.preventDefault();
    if (sending.current) return;
    setSubmitAttempted(true);
    if (fieldToFix) return fieldToFix.current?.focus();
    sending.current = true;
    mutation.mutate(idempotencyKey);
  };

  return { values, edit, field, submit, mutation };
}

function PaymentForm({ onCreated }: { onCreated: (payment: Payment) => void }) {
  const { t } = useTranslation();
  const balances = useWalletBalances();
  const currencies = useMemo(() => walletCurrencies(balances.data), [balances.data]);
  const cryptos = currencies.filter((currency) => currency !== 'USD');
  const form = useCreateForm(
    { description: '', amount: '', currency: PREFERRED_ORDER_CURRENCY, payWith: '' },
    (values, key) =>
      paymentsApi.create(
        {
          description: values.description.trim(),
          amount: normalizeAmountText(values.amount),
          currency: values.currency,
          ...(values.payWith ? { crypto_currency: values.payWith } : {}),
        },
        key,
      ),
    onCreated,
  );
  const amountRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const problems = paymentFormProblems(form.values);
  const { mutation } = form;

  const onSubmit = (event: FormEvent) =>
    form.submit(event, problems.description ? descriptionRef : problems.amount ? amountRef : null);

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="payment-form">
      <TextField
        ref={descriptionRef}
        label={t('wallet.payment.form.description')}
        placeholder={t('wallet.payment.form.descriptionPlaceholder')}
        maxLength={PAYMENT_DESCRIPTION_MAX_LENGTH}
        data-testid="payment-description"
        {...form.field('description', problems.description)}
      />
      <div className="wallet-amount-row payment-amount-row">
        <TextField
          ref={amountRef}
          label={t('wallet.payment.form.amount')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          data-testid="payment-amount"
          {...form.field('amount', problems.amount)}
        />
        <SelectField
          label={t('wallet.payment.form.currency')}
          value={form.values.currency}
          data-testid="payment-currency"
          onChange={(event) => form.edit('currency', event.target.value)}
        >
          {currencies.map((currency) => (
            <option key={currency} value={currency}>
              {currency}
            </option>
          ))}
        </SelectField>
      </div>
      <SelectField
        label={t('wallet.payment.form.payWith')}
        hint={t('wallet.payment.form.payWithHint')}
        value={form.values.payWith}
        data-testid="payment-pay-with"
        onChange={(event) => form.edit('payWith', event.target.value)}
      >
        <option value="">{t('wallet.payment.form.payWithAny')}</option>
        {cryptos.map((currency) => (
          <option key={currency} value={currency}>
            {currency} · {coinName(currency)}
          </option>
        ))}
      </SelectField>
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
  const form = useCreateForm(
    { description: '', amount: '' },
    (values, key) => {
      const description = values.description.trim();
      return paymentsApi.createLightning(
        { amount: normalizeAmountText(values.amount), ...(description ? { description } : {}) },
        key,
      );
    },
    onCreated,
  );
  const amountRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const problems = lightningFormProblems(form.values);
  const { mutation } = form;

  const onSubmit = (event: FormEvent) =>
    form.submit(event, problems.amount ? amountRef : problems.description ? descriptionRef : null);

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="lightning-form">
      <TextField
        ref={amountRef}
        label={t('wallet.payment.lightning.amount')}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00010000"
        trailing={<span className="funds-unit">BTC</span>}
        className="funds-amount-field"
        data-testid="lightning-amount"
        {...form.field('amount', problems.amount)}
      />
      <TextField
        ref={descriptionRef}
        label={t('wallet.payment.lightning.description')}
        placeholder={t('wallet.payment.form.descriptionPlaceholder')}
        maxLength={PAYMENT_DESCRIPTION_MAX_LENGTH}
        data-testid="lightning-description"
        {...form.field('description', problems.description)}
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
  const { t } = useTranslation();
  return (
    <RecentList
      testId="payment-recent"
      title={t('wallet.payment.recent.title')}
      loading={loading}
      isEmpty={count === 0 || !rows || rows.length === 0}
      emptyIcon={Receipt}
      emptyText={t('wallet.payment.recent.empty')}
    >
      {rows?.map((row) => {
        const summary = rowSummary(row);
        const when = summary ? formatDateTime(summary.created) : null;
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
                  {row.kind === 'lightning' ? <Zap size={13} aria-hidden="true" className="lightning-icon" /> : null}
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
    </RecentList>
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
