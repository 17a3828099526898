import type { DepositHistoryItem, DepositStatus } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import {
  AlertTriangle,
  ArrowDownToLine,
  CheckCircle2,
  Clock,
  ExternalLink,
  Info,
  Link2,
  QrCode as QrIcon,
  X,
  XCircle,
} from 'lucide-react';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { depositsApi } from '../../api/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { translateMessage } from '../../lib/translate.ts';
import { formatDateTime, formatExactAmount } from '../wallet/history-model.ts';
import { LoadFailed } from '../wallet/load-states.tsx';
import { createIdempotencyKey, normalizeAmountText, walletCryptoCurrencies } from '../wallet/transfer-form.ts';
import { useInvalidateWallet, useWalletBalances } from '../wallet/use-wallet.ts';
import {
  checkoutAmountProblem,
  confirmationProgress,
  type DepositMethodChoice,
  depositMethods,
  depositNetworks,
  networkName,
  newlyCompletedDeposits,
  type PendingCheckout,
  readPendingCheckout,
  writePendingCheckout,
} from './deposit-model.ts';
import { useCheckoutDeposit, useDepositAddress, useDepositEstimate, useRecentDeposits } from './deposit-queries.ts';
import { StatusBadge } from './payment-card.tsx';
import { CopyField } from './payment-copy-field.tsx';
import { CurrencySelect } from './payment-currency-select.tsx';
import { serviceErrorText } from './payment-error-text.ts';
import { QrCode } from './qr-code.tsx';
import { RecentList } from './recent-list.tsx';

/** Where the browser goes to pay a checkout; a seam for tests (jsdom cannot navigate). */
export const checkoutNavigation = {
  open(url: string): void {
    globalThis.location.assign(url);
  },
};

/** The currency the deposit starts on. */
const PREFERRED_DEPOSIT_CURRENCY = 'BTC';

/** Spec §2.7 deposit (/wallet?action=deposit): the account's own address, or a hosted checkout. */
export function DepositSection() {
  const { t } = useTranslation();
  const balances = useWalletBalances();
  const currencies = useMemo(() => walletCryptoCurrencies(balances.data), [balances.data]);
  const [currency, setCurrency] = useState(PREFERRED_DEPOSIT_CURRENCY);
  const networks = depositNetworks(currency);
  const [chosenNetwork, setChosenNetwork] = useState<string | null>(null);
  const network = chosenNetwork && networks.includes(chosenNetwork) ? chosenNetwork : (networks[0] ?? currency);
  // The checkout sends the payer back with ?cancelled=true when they gave up there.
  const [params] = useSearchParams();
  const cancelled = params.get('cancelled') === 'true';
  const [method, setMethod] = useState<DepositMethodChoice>(cancelled ? 'checkout' : 'address');
  const networkLabelId = useId();
  // Back from the checkout: the deposit started there is followed here until it is credited.
  const [pendingCheckout, setPendingCheckout] = useState(() => (cancelled ? null : readPendingCheckout()));
  useEffect(() => {
    if (cancelled) writePendingCheckout(null);
  }, [cancelled]);

  return (
    <div className="funds-layout" data-testid="deposit-section">
      <div className="funds-main">
        <p className="wallet-card-description">{t('wallet.deposit.detail')}</p>
        {pendingCheckout ? (
          <CheckoutReturn
            pending={pendingCheckout}
            onDismiss={() => {
              writePendingCheckout(null);
              setPendingCheckout(null);
            }}
          />
        ) : null}
        {cancelled ? (
          <div className="funds-alert funds-alert-warning" role="status" data-testid="deposit-cancelled">
            <Info size={16} aria-hidden="true" className="funds-alert-icon" />
            <p>{t('wallet.deposit.cancelled')}</p>
          </div>
        ) : null}
        <CurrencySelect
          label={t('wallet.deposit.currency')}
          currencies={currencies}
          value={currency}
          onChange={(next) => {
            setCurrency(next);
            setChosenNetwork(null);
          }}
          testId="deposit-currency"
        />
        <fieldset className="funds-choice">
          <legend className="field-label">{t('wallet.deposit.method')}</legend>
          <div className="segmented funds-segmented">
            {depositMethods.map((option) => (
              <button
                key={option}
                type="button"
                className={clsx('segment', method === option && 'active')}
                aria-pressed={method === option}
                onClick={() => setMethod(option)}
                data-testid={`deposit-method-${option}`}
              >
                {option === 'address' ? (
                  <QrIcon size={15} aria-hidden="true" />
                ) : (
                  <Link2 size={15} aria-hidden="true" />
                )}
                {t(`wallet.deposit.methods.${option}`)}
              </button>
            ))}
          </div>
        </fieldset>
        {method === 'address' ? (
          <>
            {networks.length > 1 ? (
              <div className="funds-choice">
                <span className="field-label" id={networkLabelId}>
                  {t('wallet.deposit.network')}
                </span>
                <div className="chip-row" role="radiogroup" aria-labelledby={networkLabelId}>
                  {networks.map((option) => (
                    // biome-ignore lint/a11y/useSemanticElements: a row of chips reads better than radio dots
                    <button
                      key={option}
                      type="button"
                      role="radio"
                      aria-checked={network === option}
                      className={clsx('chip', network === option && 'active')}
                      onClick={() => setChosenNetwork(option)}
                      data-testid={`deposit-network-${option}`}
                    >
                      {networkName(option)}
                    </button>
                  ))}
                </div>
              </div>
            ) : null}
            <AddressPanel
              key={`${currency}-${network}`}
              currency={currency}
              network={networks.length > 1 ? network : null}
            />
          </>
        ) : (
          <CheckoutPanel key={currency} currency={currency} />
        )}
      </div>
      <RecentDeposits />
    </div>
  );
}

function AddressPanel({ currency, network }: { currency: string; network: string | null }) {
  const { t } = useTranslation();
  const query = useDepositAddress(currency, network);

  if (query.isPending) {
    return (
      <div className="deposit-address" aria-busy="true" data-testid="deposit-address-loading">
        <span className="skeleton-block deposit-qr-skeleton" />
        <div className="deposit-address-details">
          <span className="skeleton-block skeleton-line" />
          <span className="skeleton-block skeleton-line" />
          <span className="visually-hidden">{t('wallet.deposit.loadingAddress')}</span>
        </div>
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={serviceErrorText(query.error, t, 'wallet.deposit.errors.addressFailed')}
        onRetry={() => void query.refetch()}
        testId="deposit-address-error"
      />
    );
  }

  const address = query.data;
  const memoLabel = address.memo_label ?? t('wallet.deposit.memoLabel');
  return (
    <div className="funds-stack" data-testid="deposit-address-panel">
      {address.memo ? (
        <div className="funds-alert funds-alert-danger" role="note" data-testid="deposit-memo-warning">
          <AlertTriangle size={18} aria-hidden="true" className="funds-alert-icon" />
          <p>
            <strong>{t('wallet.deposit.memoWarningTitle', { label: memoLabel })}</strong>{' '}
            {t('wallet.deposit.memoWarning', { label: memoLabel.toLowerCase() })}
          </p>
        </div>
      ) : null}
      <div className="deposit-address">
        <QrCode
          value={address.address}
          label={t('wallet.deposit.qrLabel', { currency: address.currency, address: address.address })}
          testId="deposit-qr"
        />
        <div className="deposit-address-details">
          <CopyField
            label={t('wallet.deposit.address', { currency: address.currency })}
            value={address.address}
            testId="deposit-address"
          />
          {address.memo ? (
            <CopyField label={memoLabel} value={address.memo} tone="warning" testId="deposit-memo" />
          ) : null}
          <dl className="funds-facts">
            <div>
              <dt>{t('wallet.deposit.network')}</dt>
              <dd data-testid="deposit-network">{networkName(address.network)}</dd>
            </div>
            <div>
              <dt>{t('wallet.deposit.confirmations')}</dt>
              <dd className="tabular" data-testid="deposit-confirmations">
                {address.min_confirmations}
              </dd>
            </div>
            <div>
              <dt>{t('wallet.deposit.fee')}</dt>
              <dd className="funds-free">{t('wallet.deposit.free')}</dd>
            </div>
          </dl>
        </div>
      </div>
      <div className="funds-alert" role="note">
        <Info size={16} aria-hidden="true" className="funds-alert-icon" />
        <p>
          {t('wallet.deposit.networkWarning', { currency: address.currency, network: networkName(address.network) })}
        </p>
      </div>
      <ul className="funds-help" data-testid="deposit-help">
        <li>{t('wallet.deposit.help.confirmTime')}</li>
        <li>{t('wallet.deposit.help.free')}</li>
        <li>{t('wallet.deposit.help.credited', { count: address.min_confirmations })}</li>
      </ul>
    </div>
  );
}

function CheckoutPanel({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(createIdempotencyKey);
  const sending = useRef(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const problem = checkoutAmountProblem(currency, amount);
  const normalized = normalizeAmountText(amount);
  const estimate = useDepositEstimate(currency, problem ? null : normalized);

  const mutation = useMutation({
    mutationFn: (variables: { amount: string; key: string }) =>
      depositsApi.createCheckout({ currency, amount: variables.amount }, variables.key),
    onSuccess: (deposit) => {
      writePendingCheckout({ id: deposit.id, currency: deposit.currency, amount: deposit.amount });
      checkoutNavigation.open(deposit.checkout_url);
    },
    onSettled: () => {
      sending.current = false;
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    setSubmitAttempted(true);
    if (problem) {
      amountRef.current?.focus();
      return;
    }
    sending.current = true;
    mutation.mutate({ amount: normalized, key: idempotencyKey });
  };

  const shownProblem = problem && (touched || submitAttempted) ? problem : null;
  const current = estimate.data && !problem ? estimate.data : null;
  // Leaving for the checkout takes a moment after the answer: the button stays busy until then.
  const busy = mutation.isPending || mutation.isSuccess;

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="deposit-checkout-form">
      <TextField
        ref={amountRef}
        label={t('wallet.deposit.amount')}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        className="funds-amount-field"
        value={amount}
        error={shownProblem ? translateMessage(t, shownProblem.key, shownProblem.values) : undefined}
        trailing={<span className="funds-unit">{currency}</span>}
        data-testid="deposit-amount"
        onChange={(event) => {
          setAmount(event.target.value);
          setIdempotencyKey(createIdempotencyKey());
          if (mutation.isError) mutation.reset();
        }}
        onBlur={() => setTouched(true)}
      />
      <dl className="funds-summary" aria-live="polite" data-testid="deposit-estimate">
        <div>
          <dt>{t('wallet.deposit.youPay')}</dt>
          <dd className="tabular">{current ? `${formatExactAmount(current.amount)} ${currency}` : '—'}</dd>
        </div>
        <div>
          <dt>{t('wallet.deposit.fee')}</dt>
          <dd className="tabular">
            {current ? (
              isZeroText(current.fee) ? (
                <span className="funds-free">{t('wallet.deposit.free')}</span>
              ) : (
                `${formatExactAmount(current.fee)} ${currency}`
              )
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div className="funds-summary-total">
          <dt>{t('wallet.deposit.youReceive')}</dt>
          <dd className="tabular" data-testid="deposit-estimate-receive">
            {current ? `${formatExactAmount(current.estimated_amount)} ${currency}` : '—'}
          </dd>
        </div>
      </dl>
      {current?.source === 'local' ? <p className="field-hint">{t('wallet.deposit.estimateLocal')}</p> : null}
      {mutation.isError ? (
        <p className="form-error" role="alert" data-testid="deposit-checkout-error">
          {serviceErrorText(mutation.error, t, 'wallet.deposit.errors.checkoutFailed')}
        </p>
      ) : null}
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={busy}
          icon={<ExternalLink size={15} aria-hidden="true" />}
          data-testid="deposit-checkout-submit"
        >
          {busy ? t('wallet.deposit.checkoutSubmitting') : t('wallet.deposit.checkoutSubmit')}
        </Button>
      </div>
      <ul className="funds-help">
        <li>{t('wallet.deposit.checkoutNote')}</li>
        <li>{t('wallet.deposit.help.free')}</li>
      </ul>
    </form>
  );
}

/** The checkout deposit the payer just came back from, followed until it is credited or fails. */
function CheckoutReturn({ pending, onDismiss }: { pending: PendingCheckout; onDismiss: () => void }) {
  const { t } = useTranslation();
  const query = useCheckoutDeposit(pending.id);
  const deposit = query.data;
  const status = deposit?.status ?? 'pending';
  const amount = `${formatExactAmount(deposit?.credited_amount ?? deposit?.amount ?? pending.amount)} ${
    deposit?.currency ?? pending.currency
  }`;
  const Icon = status === 'completed' ? CheckCircle2 : status === 'failed' ? XCircle : Clock;
  return (
    <div
      className={clsx('checkout-return', `checkout-return-${status}`)}
      role="status"
      data-testid="deposit-checkout-return"
    >
      <Icon size={18} aria-hidden="true" className="checkout-return-icon" />
      <p>
        {status === 'completed'
          ? t('wallet.deposit.return.completed', { amount })
          : status === 'failed'
            ? t('wallet.deposit.return.failed', {
                amount,
                status: t(`wallet.payment.statuses.${deposit?.payment_status ?? 'failed'}`).toLowerCase(),
              })
            : deposit?.payment_status === 'waiting'
              ? t('wallet.deposit.return.waiting', { amount })
              : t('wallet.deposit.return.confirming', { amount })}
      </p>
      <button
        type="button"
        className="icon-button icon-button-sm"
        onClick={onDismiss}
        aria-label={t('common.close')}
        title={t('common.close')}
      >
        <X size={15} aria-hidden="true" />
      </button>
    </div>
  );
}

function isZeroText(value: string): boolean {
  return /^0*(\.0*)?$/.test(value.trim());
}

/** The latest deposits; a pending one is followed until it is credited ('Deposit confirmed'). */
function RecentDeposits() {
  const { t } = useTranslation();
  const query = useRecentDeposits();
  const invalidateWallet = useInvalidateWallet();
  const seen = useRef<Map<string, DepositStatus> | null>(null);
  const deposits = query.data?.deposits;

  useEffect(() => {
    if (!deposits) return;
    const before = seen.current;
    seen.current = new Map(deposits.map((deposit) => [deposit.id, deposit.status]));
    if (!before) return;
    // The balances are read again; the server's 'Deposit confirmed' notification is the one toast.
    if (newlyCompletedDeposits(before, deposits).length > 0) invalidateWallet();
  }, [deposits, invalidateWallet]);

  return (
    <RecentList
      testId="deposit-recent"
      title={t('wallet.deposit.recent.title')}
      loading={query.isPending}
      failure={
        query.isError && !query.data
          ? {
              message: serviceErrorText(query.error, t, 'wallet.deposit.recent.failed'),
              onRetry: () => void query.refetch(),
            }
          : null
      }
      isEmpty={!deposits || deposits.length === 0}
      emptyIcon={ArrowDownToLine}
      emptyText={t('wallet.deposit.recent.empty')}
    >
      {deposits?.map((deposit) => (
        <DepositRow key={deposit.id} deposit={deposit} />
      ))}
    </RecentList>
  );
}

function DepositRow({ deposit }: { deposit: DepositHistoryItem }) {
  const { t } = useTranslation();
  const { date, time } = formatDateTime(deposit.created_at);
  const progress =
    deposit.status === 'pending' ? confirmationProgress(deposit.confirmations, deposit.required_confirmations) : null;
  const how =
    deposit.method === 'address'
      ? deposit.network
        ? t('wallet.deposit.recent.viaNetwork', { network: networkName(deposit.network) })
        : t('wallet.deposit.methods.address')
      : t('wallet.deposit.recent.viaCheckout');
  return (
    <li className="funds-row" data-testid={`deposit-${deposit.id}`}>
      <div className="funds-row-main">
        <span className="funds-row-amount tabular wallet-amount-in">
          +{formatExactAmount(deposit.amount)} {deposit.currency}
        </span>
        <span className="funds-row-meta">
          {how} ·{' '}
          <time dateTime={deposit.created_at}>
            {date} {time}
          </time>
        </span>
      </div>
      <div className="funds-row-status">
        <StatusBadge tone={deposit.status} testId={`deposit-${deposit.id}-status`}>
          {t(`wallet.history.statuses.${deposit.status}`)}
        </StatusBadge>
        {progress ? (
          <span className="funds-row-meta tabular">
            {t('wallet.deposit.recent.confirmations', {
              confirmations: progress.confirmations,
              required: progress.required,
            })}
          </span>
        ) : null}
      </div>
    </li>
  );
}
