import type { ConversionQuote } from '@platform/contracts';
import clsx from 'clsx';
import { ArrowDownUp, CircleCheck } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldMessage } from '../../components/ui/text-field.tsx';
import { localizedNumber } from '../../state/preferences-store.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { coinName } from '../markets/markets-model.ts';
import { formatExactAmount } from '../wallet/history-model.ts';
import { formatRateNumber, inverseRate } from './convert-form.ts';

/**
 * The pieces the conversion desk's two forms share: a currency-and-amount box (label, available
 * balance, amount input with "Max", currency select), the swap button, a quote's figures, and what
 * a settled conversion or trade did.
 */

export interface CurrencyAmountBoxProps {
  label: string;
  currencyLabel: string;
  currency: string;
  currencies: readonly string[];
  onCurrency: (currency: string) => void;
  /** The amount input; leave out for a read-only figure (`readout`). */
  amount?: {
    value: string;
    onChange: (value: string) => void;
    onBlur?: () => void;
    placeholder?: string;
    testId: string;
    inputRef?: (element: HTMLInputElement | null) => void;
  };
  /** Shown instead of an input: what the user receives. */
  readout?: ReactNode;
  /** 'Available 10.00 USDT', next to the label. */
  available?: string | null;
  onMax?: (() => void) | null;
  error?: string | null;
  hint?: ReactNode;
  currencyTestId: string;
  disabled?: boolean;
}

export function CurrencyAmountBox({
  label,
  currencyLabel,
  currency,
  currencies,
  onCurrency,
  amount,
  readout,
  available,
  onMax,
  error,
  hint,
  currencyTestId,
  disabled,
}: CurrencyAmountBoxProps) {
  const { t } = useTranslation();
  const id = useId();
  const amountId = `${id}-amount`;
  const currencyId = `${id}-currency`;
  const messageId = `${id}-message`;
  return (
    <div className={clsx('convert-box', error && 'field-invalid')}>
      <div className="convert-box-head">
        <label className="field-label" htmlFor={amount ? amountId : currencyId}>
          {label}
        </label>
        {available ? (
          <span className="convert-available tabular" data-testid={`${currencyTestId}-available`}>
            {t('wallet.convert.available', { amount: available, currency })}
          </span>
        ) : null}
      </div>
      <div className="convert-box-body">
        {amount ? (
          <input
            ref={amount.inputRef}
            id={amountId}
            className="convert-amount tabular"
            inputMode="decimal"
            autoComplete="off"
            placeholder={amount.placeholder ?? '0.00'}
            value={amount.value}
            onChange={(event) => amount.onChange(event.target.value)}
            onBlur={amount.onBlur}
            aria-invalid={error ? true : undefined}
            aria-describedby={error || hint ? messageId : undefined}
            disabled={disabled}
            data-testid={amount.testId}
          />
        ) : (
          <output id={amountId} className="convert-amount convert-readout tabular" htmlFor={currencyId}>
            {readout}
          </output>
        )}
        {onMax ? (
          <button
            type="button"
            className="field-action"
            onClick={onMax}
            aria-label={t('wallet.convert.useAvailable')}
            title={t('wallet.convert.useAvailable')}
            disabled={disabled}
            data-testid={`${currencyTestId}-max`}
          >
            {t('wallet.convert.max')}
          </button>
        ) : null}
        <span className="convert-currency">
          <CoinIcon symbol={currency} size={22} />
          <select
            id={currencyId}
            className="convert-currency-select"
            aria-label={currencyLabel}
            value={currency}
            onChange={(event) => onCurrency(event.target.value)}
            disabled={disabled}
            data-testid={currencyTestId}
          >
            {currencies.includes(currency) ? null : <option value={currency}>{currency}</option>}
            {currencies.map((code) => (
              <option key={code} value={code} title={coinName(code)}>
                {code}
              </option>
            ))}
          </select>
        </span>
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export function SwapButton({ onSwap, disabled, testId }: { onSwap: () => void; disabled?: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="convert-swap-row">
      <button
        type="button"
        className="convert-swap"
        onClick={onSwap}
        disabled={disabled}
        aria-label={t('wallet.convert.swap')}
        title={t('wallet.convert.swap')}
        data-testid={testId}
      >
        <ArrowDownUp size={16} aria-hidden="true" />
      </button>
    </div>
  );
}

/** '1 USDT = 0.0000165 BTC'. */
export function formatRate(rate: string, from: string, to: string): string {
  return `1 ${from} = ${formatRateNumber(rate)} ${to}`;
}

/** The same rate read the other way: '1 BTC = 60,606.06 USDT'; null when the rate is zero. */
export function formatInverseRate(rate: string, from: string, to: string): string | null {
  const inverse = inverseRate(rate);
  return inverse === null ? null : formatRate(inverse, to, from);
}

/** The figures of a quote or of a settled conversion: rate, what is received, the disclosed spread, the route. */
export function QuoteFigures({
  quote,
  receivedLabel,
}: {
  quote: Pick<
    ConversionQuote,
    'from_currency' | 'to_currency' | 'to_amount' | 'rate' | 'spread' | 'route' | 'price_source'
  >;
  receivedLabel: string;
}) {
  const { t } = useTranslation();
  const inverse = formatInverseRate(quote.rate, quote.from_currency, quote.to_currency);
  return (
    <dl className="convert-figures" data-testid="convert-figures">
      <div>
        <dt>{t('wallet.convert.rate')}</dt>
        <dd className="tabular" data-testid="convert-rate">
          {formatRate(quote.rate, quote.from_currency, quote.to_currency)}
          {inverse ? <span className="convert-rate-inverse">{inverse}</span> : null}
        </dd>
      </div>
      <div>
        <dt>{receivedLabel}</dt>
        <dd className="tabular convert-receive" data-testid="convert-receive">
          {formatExactAmount(quote.to_amount)} {quote.to_currency}
        </dd>
      </div>
      <div>
        <dt>{t('wallet.convert.spread')}</dt>
        <dd className="tabular" data-testid="convert-spread">
          {t('wallet.convert.spreadValue', {
            percent: localizedNumber(quote.spread.percent),
            amount: formatExactAmount(quote.spread.amount),
            currency: quote.spread.currency,
          })}
        </dd>
      </div>
      {quote.route.length > 2 ? (
        <div>
          <dt>{t('wallet.convert.route')}</dt>
          <dd data-testid="convert-route">{quote.route.join(' → ')}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('wallet.convert.priceSource')}</dt>
        <dd>{t(`wallet.convert.priceSources.${quote.price_source}`)}</dd>
      </div>
    </dl>
  );
}

/** A settled conversion or quick trade: what was paid, what was received, at what rate. */
export function DeskResult({
  title,
  fromAmount,
  fromCurrency,
  toAmount,
  toCurrency,
  rate,
  onDismiss,
  testId,
}: {
  title: string;
  fromAmount: string;
  fromCurrency: string;
  toAmount: string;
  toCurrency: string;
  rate: string;
  onDismiss: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="convert-result" role="status" data-testid={testId}>
      <CircleCheck size={20} aria-hidden="true" className="convert-result-icon" />
      <div className="convert-result-body">
        <p className="convert-result-title">{title}</p>
        <p className="tabular">
          {t('wallet.convert.doneSummary', {
            paid: `${formatExactAmount(fromAmount)} ${fromCurrency}`,
            received: `${formatExactAmount(toAmount)} ${toCurrency}`,
          })}
        </p>
        <p className="muted tabular">{formatRate(rate, fromCurrency, toCurrency)}</p>
      </div>
      <button type="button" className="link-button" onClick={onDismiss} aria-label={t('wallet.convert.dismiss')}>
        {t('common.close')}
      </button>
    </div>
  );
}
