import type { LightningPayment, Payment, SelectPaymentCryptoResponse } from '@platform/contracts';
import { useMutation } from '@tanstack/react-query';
import clsx from 'clsx';
import { ExternalLink, Timer, Zap } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentsApi } from '../../api/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { formatDateTime, formatExactAmount } from '../wallet/history-model.ts';
import { LoadFailed, LoadingLines } from '../wallet/load-states.tsx';
import { useNow } from '../wallet/use-timers.ts';
import { CopyField, CopyIconButton } from './payment-copy-field.tsx';
import { serviceErrorText } from './payment-error-text.ts';
import {
  formatCountdown,
  isFinalLightning,
  LIGHTNING_STATUS_TONE,
  lightningUri,
  PAYMENT_STATUS_TONE,
  paymentPayWith,
  payWithCurrencyName,
  STATUS_TONE_THEME,
  type StatusTone,
  secondsLeft,
} from './payment-model.ts';
import { useLightningPayment, usePayment, usePaymentCrypto } from './payment-queries.ts';
import { QrCode } from './qr-code.tsx';

export function StatusBadge({ tone, children, testId }: { tone: StatusTone; children: ReactNode; testId?: string }) {
  return (
    <span className="badge wallet-badge" data-tone={STATUS_TONE_THEME[tone]} data-testid={testId}>
      {children}
    </span>
  );
}

/** A card's amount and status, the status also told to a screen reader as it changes. */
function CardHead({
  titleId,
  kicker,
  title,
  description,
  tone,
  status,
  statusTestId,
}: {
  titleId: string;
  kicker: string;
  title: string;
  description: string | null;
  tone: StatusTone;
  status: string;
  statusTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <header className="payment-card-head">
        <div>
          <p className="payment-card-kicker">{kicker}</p>
          <h3 id={titleId} className="payment-card-title tabular">
            {title}
          </h3>
          {description ? <p className="muted">{description}</p> : null}
        </div>
        <StatusBadge tone={tone} testId={statusTestId}>
          {status}
        </StatusBadge>
      </header>
      <p className="visually-hidden" aria-live="polite">
        {t('wallet.payment.statusAnnounce', { status })}
      </p>
    </>
  );
}

/** A card whose first read has not come: loading, or why it failed with a retry. */
function CardNotLoaded({
  query,
  lines,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  lines: 1 | 2;
}) {
  const { t } = useTranslation();
  return query.isError ? (
    <LoadFailed
      message={serviceErrorText(query.error, t, 'wallet.payment.errors.loadFailed')}
      onRetry={() => void query.refetch()}
    />
  ) : (
    <LoadingLines lines={lines} />
  );
}

/** Time left to pay, ticking every second; 'Expired' at zero. */
function Countdown({ expiresAt, running, testId }: { expiresAt: string; running: boolean; testId: string }) {
  const { t } = useTranslation();
  const now = useNow(running);
  const left = secondsLeft(expiresAt, now);
  if (left === null) return <span>—</span>;
  const urgent = running && left > 0 && left < 60;
  return (
    <span className={clsx('countdown tabular', urgent && 'countdown-urgent')} data-testid={testId}>
      <Timer size={14} aria-hidden="true" />
      {left === 0 ? (
        t('wallet.payment.expired')
      ) : running ? (
        // The countdown changes every second: a screen reader reads it on demand, not on every tick.
        <span role="timer" aria-live="off" aria-label={t('wallet.payment.expiresIn', { time: formatCountdown(left) })}>
          {formatCountdown(left)}
        </span>
      ) : (
        formatCountdown(left)
      )}
    </span>
  );
}

/** A BOLT11 invoice: copyable monospace box, QR code (lightning: URI) and payment hash. */
export function LightningInvoiceBlock({
  invoice,
  paymentHash,
  amountBtc,
  expiresAt,
  running,
}: {
  invoice: string;
  paymentHash: string;
  amountBtc: string;
  expiresAt: string;
  running: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="lightning-block" data-testid="lightning-invoice">
      <div className="lightning-block-head">
        <span className="lightning-badge">
          <Zap size={14} aria-hidden="true" />
          {t('wallet.payment.lightning.title')}
        </span>
        <span className="tabular lightning-amount">{formatExactAmount(amountBtc)} BTC</span>
        <Countdown expiresAt={expiresAt} running={running} testId="lightning-countdown" />
      </div>
      <div className="lightning-block-body">
        <QrCode
          value={lightningUri(invoice)}
          label={t('wallet.payment.lightning.qrLabel', { invoice })}
          size={200}
          testId="lightning-qr"
        />
        <div className="lightning-block-fields">
          <CopyField
            label={t('wallet.payment.lightning.invoice')}
            value={invoice}
            multiline
            testId="lightning-bolt11"
          />
          <CopyField label={t('wallet.payment.lightning.hash')} value={paymentHash} multiline testId="lightning-hash" />
        </div>
      </div>
    </div>
  );
}

/** Spec §3.5 payment: reference, status, expiresAt (live), finalAmount, checkout link, crypto, Lightning. */
export function PaymentCard({ id, initial }: { id: string; initial?: Payment | undefined }) {
  const { t } = useTranslation();
  const query = usePayment(id, initial);
  const payment = query.data;
  const open = payment ? !payment.final : false;
  const crypto = usePaymentCrypto(id, open);
  const select = useMutation({
    mutationFn: () => paymentsApi.selectLightning(id),
    // The payment now carries its invoice (and the crypto it is paid with): read both again.
    onSuccess: () => {
      void query.refetch();
      void crypto.refetch();
    },
  });

  if (!payment) return <CardNotLoaded query={query} lines={2} />;

  const lightning = payment.lightning ?? lightningFromSelect(select.data);
  const tone = PAYMENT_STATUS_TONE[payment.status];
  const created = formatDateTime(payment.created_at);
  const payWith = crypto.data ?? payment;
  const payWithText = paymentPayWith(payWith);
  const canPayLightning = open && !lightning && payment.status === 'waiting';

  return (
    <article className="payment-card" aria-labelledby={`payment-${id}-title`} data-testid="payment-card">
      <CardHead
        titleId={`payment-${id}-title`}
        kicker={t('wallet.payment.card.kicker')}
        title={`${formatExactAmount(payment.amount)} ${payment.currency}`}
        description={payment.description}
        tone={tone}
        status={t(`wallet.payment.statuses.${payment.status}`)}
        statusTestId="payment-status"
      />
      <dl className="funds-facts payment-facts">
        <div>
          <dt>{t('wallet.payment.card.reference')}</dt>
          <dd className="payment-reference">
            <span className="mono" data-testid="payment-reference" title={payment.reference}>
              {payment.reference}
            </span>
            <CopyIconButton label={t('wallet.payment.card.reference')} value={payment.reference} />
          </dd>
        </div>
        <div>
          <dt>{open ? t('wallet.payment.card.expiresIn') : t('wallet.payment.card.expiresAt')}</dt>
          <dd>
            {open ? (
              <Countdown expiresAt={payment.expiresAt} running testId="payment-countdown" />
            ) : (
              <time dateTime={payment.expiresAt}>
                {formatDateTime(payment.expiresAt).date} {formatDateTime(payment.expiresAt).time}
              </time>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.payment.card.finalAmount')}</dt>
          <dd className="tabular" data-testid="payment-final-amount">
            {payment.finalAmount ? `${formatExactAmount(payment.finalAmount)} ${payment.currency}` : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.payment.card.payWith')}</dt>
          <dd className="tabular" data-testid="payment-pay-with">
            {payWithText ?? t('wallet.payment.card.payerChooses')}
          </dd>
        </div>
        {payWith.exchange_rate && payWith.crypto_currency ? (
          <div>
            <dt>{t('wallet.payment.card.rate')}</dt>
            <dd className="tabular">
              1 {payWithCurrencyName(payWith.crypto_currency)} = {formatExactAmount(payWith.exchange_rate)}{' '}
              {payment.currency}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t('wallet.payment.card.created')}</dt>
          <dd>
            <time dateTime={payment.created_at}>
              {created.date} {created.time}
            </time>
          </dd>
        </div>
      </dl>
      {payWith.crypto_address && !lightning ? (
        <CopyField
          label={t('wallet.payment.card.cryptoAddress', { currency: payWith.crypto_currency ?? '' })}
          value={payWith.crypto_address}
          testId="payment-crypto-address"
        />
      ) : null}
      {lightning ? (
        <LightningInvoiceBlock
          invoice={lightning.invoice}
          paymentHash={lightning.payment_hash}
          amountBtc={lightning.amount}
          expiresAt={lightning.expires_at}
          running={open}
        />
      ) : null}
      {select.isError ? (
        <p className="form-error" role="alert">
          {serviceErrorText(select.error, t, 'wallet.payment.errors.lightningFailed')}
        </p>
      ) : null}
      {payment.status === 'paid' ? (
        <p className="funds-alert funds-alert-success" role="status">
          {t('wallet.payment.card.paid')}
        </p>
      ) : null}
      <div className="funds-actions payment-card-actions">
        {payment.checkout_url && open ? (
          <a
            className="btn btn-secondary"
            href={payment.checkout_url}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="payment-checkout-link"
          >
            <ExternalLink size={15} aria-hidden="true" />
            {t('wallet.payment.card.openCheckout')}
          </a>
        ) : null}
        {canPayLightning ? (
          <Button
            loading={select.isPending}
            icon={<Zap size={15} aria-hidden="true" />}
            onClick={() => select.mutate()}
            data-testid="payment-pay-lightning"
          >
            {t('wallet.payment.card.payWithLightning')}
          </Button>
        ) : null}
      </div>
    </article>
  );
}

function lightningFromSelect(answer: SelectPaymentCryptoResponse | undefined): Payment['lightning'] {
  if (!answer) return null;
  return {
    invoice: answer.invoice,
    payment_hash: answer.payment_hash,
    amount: answer.amount,
    expires_at: answer.expires_at,
  };
}

/** A Lightning-only invoice (POST /lightning/payment), followed until paid or expired. */
export function LightningCard({ id, initial }: { id: string; initial?: LightningPayment | undefined }) {
  const { t } = useTranslation();
  const query = useLightningPayment(id, initial);
  const invoice = query.data;
  if (!invoice) return <CardNotLoaded query={query} lines={1} />;
  const open = !isFinalLightning(invoice.status);
  return (
    <article className="payment-card" aria-labelledby={`lightning-${id}-title`} data-testid="lightning-card">
      <CardHead
        titleId={`lightning-${id}-title`}
        kicker={t('wallet.payment.lightning.kicker')}
        title={`${formatExactAmount(invoice.amount)} BTC`}
        description={invoice.description}
        tone={LIGHTNING_STATUS_TONE[invoice.status]}
        status={t(`wallet.payment.lightningStatuses.${invoice.status}`)}
        statusTestId="lightning-status"
      />
      {invoice.status === 'paid' ? (
        <p className="funds-alert funds-alert-success" role="status">
          {t('wallet.payment.lightning.paid')}
        </p>
      ) : (
        <LightningInvoiceBlock
          invoice={invoice.invoice}
          paymentHash={invoice.payment_hash}
          amountBtc={invoice.amount}
          expiresAt={invoice.expires_at}
          running={open}
        />
      )}
      {invoice.status === 'paid' ? (
        <CopyField label={t('wallet.payment.lightning.hash')} value={invoice.payment_hash} multiline />
      ) : null}
    </article>
  );
}
