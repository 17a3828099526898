import type { Conversion, ConversionEstimateQuery, ConversionQuote } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { RefreshCw, Repeat } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { formatBalance } from '../../lib/format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { formatExactAmount } from '../wallet/history-model.ts';
import { LoadingLines } from '../wallet/load-states.tsx';
import { createIdempotencyKey, maxTransferAmount } from '../wallet/transfer-form.ts';
import { useNow } from '../wallet/use-timers.ts';
import {
  useConversionSupported,
  useCreateConversion,
  useDeskCurrencies,
  useSettledEstimate,
} from './conversion-queries.ts';
import { CurrencyAmountBox, DeskResult, QuoteFigures, SwapButton } from './convert-fields.tsx';
import {
  type AmountProblem,
  conversionRequest,
  convertFormSummary,
  failureField,
  isQuoteProblem,
  quoteMatches,
  quoteSecondsLeft,
} from './convert-form.ts';

/** Where the desk starts: the dollar stablecoin every wallet holds, into bitcoin. */
export const DESK_DEFAULT_FROM = 'USDT';
export const DESK_DEFAULT_TO = 'BTC';

type ServerProblem = { field: 'amount' | 'form' | 'quote'; message: string };

/** The pair the desk starts on: the one a link names, else the default, never one currency twice. */
function startPair(initialFrom?: string | null, initialTo?: string | null): { from: string; to: string } {
  const from =
    initialFrom?.toUpperCase() || (initialTo?.toUpperCase() === DESK_DEFAULT_FROM ? 'USD' : DESK_DEFAULT_FROM);
  const to = initialTo?.toUpperCase() || (from === DESK_DEFAULT_TO ? DESK_DEFAULT_FROM : DESK_DEFAULT_TO);
  return { from, to: to === from ? DESK_DEFAULT_TO : to };
}

/** The quote for the settled request, whether it is the one on screen, and its countdown. */
function useConvertQuote(request: ConversionEstimateQuery | null, notSupported: boolean) {
  const { estimate, settling } = useSettledEstimate(notSupported ? null : request);
  const quote = estimate.data ?? null;
  const current = quote !== null && quoteMatches(quote, request) && !estimate.isFetching;
  const now = useNow(current);
  const secondsLeft = quote && current ? quoteSecondsLeft(quote, estimate.dataUpdatedAt, now) : 0;
  const expired = current && secondsLeft === 0;
  return { estimate, settling, quote, current, secondsLeft, expired };
}

/** The convert form: its values, the quote, the server's answer and the submit. */
function useConvertForm(initialFrom?: string | null, initialTo?: string | null) {
  const { t } = useTranslation();
  const desk = useDeskCurrencies();
  // A link may name the pair (?action=convert&from=BTC&to=USD): the balances menu, the trade hint.
  const [start] = useState(() => startPair(initialFrom, initialTo));
  const [from, setFrom] = useState(start.from);
  const [to, setTo] = useState(start.to);
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [serverProblem, setServerProblem] = useState<ServerProblem | null>(null);
  const [result, setResult] = useState<Conversion | null>(null);
  const keys = useRef(new Map<string, string>());
  const amountInput = useRef<HTMLInputElement | null>(null);

  const available = desk.available?.get(from) ?? null;
  const summary = convertFormSummary({ from, to, amount }, available);
  const supported = useConversionSupported(summary.from, summary.to);
  const notSupported = !summary.samePair && supported.data === false;
  const quoteState = useConvertQuote(summary.estimateRequest, notSupported);
  const { estimate, quote, current, expired } = quoteState;
  const convert = useCreateConversion();

  const edit = (change: () => void) => {
    change();
    setServerProblem(null);
    setResult(null);
  };

  const requote = () => {
    setServerProblem(null);
    void estimate.refetch();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (convert.isPending) return;
    setSubmitAttempted(true);
    if (summary.amountProblem || amount.trim() === '') {
      amountInput.current?.focus();
      return;
    }
    if (!quote || !current || expired || notSupported) return;
    let key = keys.current.get(quote.quote_id);
    if (!key) {
      key = createIdempotencyKey();
      keys.current.set(quote.quote_id, key);
    }
    convert.mutate(
      { body: conversionRequest(quote), idempotencyKey: key },
      {
        onSuccess: (conversion) => {
          setResult(conversion);
          setAmount('');
          setTouched(false);
          setSubmitAttempted(false);
        },
        onError: (error) => {
          const field = isQuoteProblem(error) ? 'quote' : failureField(error);
          setServerProblem({ field, message: errorMessage(error, t, 'wallet.convert.errors.createFailed') });
        },
      },
    );
  };

  return {
    ...{ desk, from, setFrom, to, setTo, amount, setAmount, touched, setTouched, submitAttempted, available },
    ...{ summary, notSupported, ...quoteState, serverProblem, result, dismissResult: () => setResult(null) },
    ...{ amountInput, edit, requote, onSubmit, pending: convert.isPending },
  };
}

type ConvertForm = ReturnType<typeof useConvertForm>;

/** The amount's error: the server's, else the form's once the user is done typing or tried to send. */
function amountErrorOf(form: ConvertForm, t: TFunction): string | null {
  const { amount, summary, submitAttempted, touched, serverProblem } = form;
  const problem: AmountProblem | null =
    amount.trim() === ''
      ? submitAttempted
        ? { key: 'wallet.convert.errors.amountNotPositive' }
        : null
      : summary.amountProblem;
  const showProblem = problem && (touched || submitAttempted || problem.key === 'errors.insufficientBalance');
  if (serverProblem?.field === 'amount') return serverProblem.message;
  return showProblem ? translateMessage(t, problem.key, problem.values) : null;
}

/**
 * Spec §3.5 Conversion / §7.3: convert one currency into another at a quoted price. The pair is
 * checked first (GET /conversions/supported; false on error, §7.8), then each amount the user
 * settles on (debounced) gets a quote (GET /conversions/estimate) with its rate, what is received,
 * the disclosed spread and a countdown of its validity; the conversion executes that quote
 * (POST /conversions with an Idempotency-Key per quote, so a retry cannot convert twice).
 */
export function ConvertPanel({
  initialFrom,
  initialTo,
}: {
  initialFrom?: string | null;
  initialTo?: string | null;
} = {}) {
  const { t } = useTranslation();
  const form = useConvertForm(initialFrom, initialTo);
  const { summary, available, from, quote } = form;
  const formErrorId = useId();
  const amountError = amountErrorOf(form, t);
  const maxAmount = maxTransferAmount(available, from);
  const availableText = available === null ? null : formatBalance(available, from);
  const toOptions = form.desk.reachableFrom(summary.from);

  return (
    <form
      className="wallet-form convert-form"
      noValidate
      onSubmit={form.onSubmit}
      aria-describedby={form.serverProblem?.field === 'form' ? formErrorId : undefined}
      data-testid="convert-form"
    >
      <CurrencyAmountBox
        label={t('wallet.convert.from')}
        currencyLabel={t('wallet.convert.fromCurrency')}
        currency={summary.from}
        currencies={form.desk.currencies}
        onCurrency={(code) => form.edit(() => form.setFrom(code))}
        amount={{
          value: form.amount,
          onChange: (value) => form.edit(() => form.setAmount(value)),
          onBlur: () => form.setTouched(true),
          testId: 'convert-amount',
          inputRef: (element) => {
            form.amountInput.current = element;
          },
        }}
        available={availableText}
        onMax={maxAmount ? () => form.edit(() => form.setAmount(maxAmount)) : null}
        error={amountError}
        currencyTestId="convert-from"
      />
      <SwapButton
        testId="convert-swap"
        onSwap={() =>
          form.edit(() => {
            form.setFrom(summary.to);
            form.setTo(summary.from);
          })
        }
      />
      <CurrencyAmountBox
        label={t('wallet.convert.to')}
        currencyLabel={t('wallet.convert.toCurrency')}
        currency={summary.to}
        currencies={toOptions}
        onCurrency={(code) => form.edit(() => form.setTo(code))}
        readout={
          quote && form.current ? (
            <span data-testid="convert-readout" className={clsx(form.expired && 'convert-readout-stale')}>
              {formatExactAmount(quote.to_amount)}
            </span>
          ) : (
            <span className="convert-readout-empty">0.00</span>
          )
        }
        currencyTestId="convert-to"
      />

      <ConvertStatus form={form} formErrorId={formErrorId} />
      <ConvertFooter form={form} />
    </form>
  );
}

function ConvertStatus({ form, formErrorId }: { form: ConvertForm; formErrorId: string }) {
  const { t } = useTranslation();
  const { summary } = form;
  return (
    <>
      {form.desk.pairsError ? (
        <p className="wallet-note" role="status" data-testid="convert-pairs-error">
          {errorMessage(form.desk.pairsError, t, 'wallet.convert.errors.pairsFailed')}{' '}
          <button type="button" className="link-button" onClick={form.desk.retryPairs}>
            {t('common.retry')}
          </button>
        </p>
      ) : null}

      <QuotePanel
        samePair={summary.samePair}
        notSupported={form.notSupported}
        from={summary.from}
        to={summary.to}
        hasRequest={summary.estimateRequest !== null}
        loading={form.estimate.isFetching || form.settling}
        error={form.estimate.isError && !form.estimate.isFetching ? form.estimate.error : null}
        quote={form.current ? form.quote : null}
        secondsLeft={form.secondsLeft}
        expired={form.expired}
        onRequote={form.requote}
      />

      {form.serverProblem && form.serverProblem.field !== 'amount' ? (
        <div id={formErrorId} className="form-error convert-problem" role="alert" data-testid="convert-error">
          <span>{form.serverProblem.message}</span>
          {form.serverProblem.field === 'quote' ? (
            <Button variant="secondary" size="sm" onClick={form.requote} data-testid="convert-new-quote">
              {t('wallet.convert.newQuote')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function ConvertFooter({ form }: { form: ConvertForm }) {
  const { t } = useTranslation();
  const { summary, current, expired, notSupported, amount } = form;
  const canConvert = current && !expired && !notSupported && !summary.amountProblem;
  // An amount that reads right waits for its quote; an empty or wrong one may be "sent" to show why not.
  const waitingForQuote = amount.trim() !== '' && !summary.amountProblem && !canConvert;
  return (
    <>
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={form.pending}
          disabled={waitingForQuote}
          icon={<Repeat size={15} aria-hidden="true" />}
          data-testid="convert-submit"
        >
          {form.pending
            ? t('wallet.convert.converting')
            : t('wallet.convert.submit', { from: form.summary.from, to: form.summary.to })}
        </Button>
      </div>

      {form.result ? (
        <DeskResult
          title={t('wallet.convert.done')}
          fromAmount={form.result.from_amount}
          fromCurrency={form.result.from_currency}
          toAmount={form.result.to_amount}
          toCurrency={form.result.to_currency}
          rate={form.result.rate}
          onDismiss={form.dismissResult}
          testId="convert-result"
        />
      ) : null}
    </>
  );
}

function QuotePanel({
  samePair,
  notSupported,
  from,
  to,
  hasRequest,
  loading,
  error,
  quote,
  secondsLeft,
  expired,
  onRequote,
}: {
  samePair: boolean;
  notSupported: boolean;
  from: string;
  to: string;
  hasRequest: boolean;
  loading: boolean;
  error: unknown;
  quote: ConversionQuote | null;
  secondsLeft: number;
  expired: boolean;
  onRequote: () => void;
}) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (samePair) {
    body = <p className="wallet-note">{t('wallet.convert.errors.samePair')}</p>;
  } else if (notSupported) {
    body = (
      <p className="wallet-note convert-quote-warning" role="status" data-testid="convert-not-supported">
        {t('wallet.convert.notSupported', { from, to })}
      </p>
    );
  } else if (!hasRequest) {
    body = <p className="wallet-note">{t('wallet.convert.enterAmount')}</p>;
  } else if (loading && !quote) {
    body = <LoadingLines label={t('wallet.convert.quoting')} />;
  } else if (error) {
    body = (
      <div className="convert-quote-error" role="alert" data-testid="convert-estimate-error">
        <span>{errorMessage(error, t, 'wallet.convert.errors.estimateFailed')}</span>
        <Button variant="secondary" size="sm" onClick={onRequote}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (quote) {
    const validFor = Math.max(1, quote.valid_for_seconds);
    body = (
      <>
        <QuoteFigures quote={quote} receivedLabel={t('wallet.convert.receive')} />
        <div
          className={clsx('convert-countdown', expired && 'convert-countdown-expired')}
          data-testid="convert-countdown"
        >
          <div className="convert-countdown-bar" aria-hidden="true">
            <span style={{ width: `${Math.round((secondsLeft / validFor) * 100)}%` }} />
          </div>
          <span className="convert-countdown-text tabular" aria-live={expired ? 'polite' : 'off'}>
            {expired ? t('wallet.convert.expired') : t('wallet.convert.validFor', { count: secondsLeft })}
          </span>
          {expired ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={onRequote}
              icon={<RefreshCw size={14} aria-hidden="true" />}
              data-testid="convert-requote"
            >
              {t('wallet.convert.newQuote')}
            </Button>
          ) : null}
        </div>
      </>
    );
  } else {
    body = null;
  }
  return (
    <div className="convert-quote" data-testid="convert-quote" aria-live="polite" aria-atomic="false">
      {body}
    </div>
  );
}
