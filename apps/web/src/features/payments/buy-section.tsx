import { useMutation, useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { CreditCard } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { depositsApi } from '../../api/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { formatBalance } from '../../lib/format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import { createIdempotencyKey, normalizeAmountText } from '../wallet/transfer-form.ts';
import { useDebouncedValue } from '../wallet/use-timers.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { useCardOptions } from './card-queries.ts';
import { checkoutAmountProblem, writePendingCheckout } from './deposit-model.ts';
import { checkoutNavigation } from './deposit-section.tsx';
import { serviceErrorText } from './payment-error-text.ts';
import { paymentQueryKeys } from './query-keys.ts';

/** What a newcomer most likely wants: dollars, to trade the USD markets. */
const PREFERRED_CARD_CURRENCY = 'USD';

function useCardQuote(currency: string, amount: string | null) {
  const accountId = useSignedInAccountId();
  const settled = useDebouncedValue(amount, 300);
  return useQuery({
    queryKey: paymentQueryKeys.cardQuote(accountId ?? '', currency, settled ?? ''),
    queryFn: () => depositsApi.cardQuote(currency, settled ?? ''),
    enabled: accountId !== null && settled !== null && settled === amount,
    retry: false,
    staleTime: 30_000,
  });
}

/**
 * Buy with a card (/wallet?action=buy): the provider's hosted card checkout for the currencies it
 * sells by card (USD, which has no chain address, and USDT among them). The fee and the total
 * charged are shown before the payer leaves; the balance is credited once the payment confirms
 * (the deposit section follows it on the way back, as for any checkout).
 */
export function BuySection({ initialCurrency }: { initialCurrency?: string | null }) {
  const { t } = useTranslation();
  const options = useCardOptions();
  const currencies = options.data?.currencies ?? [];
  const wanted = (initialCurrency ?? PREFERRED_CARD_CURRENCY).toUpperCase();
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen ?? (currencies.includes(wanted) ? wanted : (currencies[0] ?? wanted));
  const labelId = useId();

  if (options.isSuccess && currencies.length === 0) {
    return (
      <p className="wallet-card-description" data-testid="buy-unavailable">
        {t('wallet.buy.unavailable')}
      </p>
    );
  }
  return (
    <div className="funds-layout" data-testid="buy-section">
      <div className="funds-main">
        <p className="wallet-card-description">{t('wallet.buy.detail')}</p>
        <div className="funds-choice">
          <span className="field-label" id={labelId}>
            {t('wallet.buy.currency')}
          </span>
          <div className="chip-row" role="radiogroup" aria-labelledby={labelId}>
            {currencies.map((option) => (
              // biome-ignore lint/a11y/useSemanticElements: a row of chips reads better than radio dots
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={currency === option}
                className={clsx('chip', currency === option && 'active')}
                onClick={() => setChosen(option)}
                data-testid={`buy-currency-${option}`}
              >
                {option}
              </button>
            ))}
          </div>
        </div>
        <BuyForm key={currency} currency={currency} />
      </div>
    </div>
  );
}

function BuyForm({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitAttempted, setSubmitAttempted] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(createIdempotencyKey);
  const sending = useRef(false);
  const amountRef = useRef<HTMLInputElement>(null);
  const problem = checkoutAmountProblem(currency, amount);
  const normalized = normalizeAmountText(amount);
  const quote = useCardQuote(currency, problem ? null : normalized);
  const current = quote.data && !problem && quote.data.amount !== '' ? quote.data : null;

  const mutation = useMutation({
    mutationFn: (variables: { amount: string; key: string }) =>
      depositsApi.createCheckout({ currency, amount: variables.amount, method: 'card' }, variables.key),
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
    if (problem || quote.isError) {
      amountRef.current?.focus();
      return;
    }
    sending.current = true;
    mutation.mutate({ amount: normalized, key: idempotencyKey });
  };

  const shownProblem = problem && (touched || submitAttempted) ? problem : null;
  // The server's own words for an amount it refuses (its minimum, say).
  const quoteProblem = !problem && quote.isError ? serviceErrorText(quote.error, t, 'wallet.buy.quoteFailed') : null;
  const busy = mutation.isPending || mutation.isSuccess;
  const money = (value: string) => `${formatBalance(value, currency)} ${currency}`;

  return (
    <form className="wallet-form" noValidate onSubmit={onSubmit} data-testid="buy-form">
      <TextField
        ref={amountRef}
        label={t('wallet.buy.amount')}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        className="funds-amount-field"
        value={amount}
        error={shownProblem ? translateMessage(t, shownProblem.key, shownProblem.values) : (quoteProblem ?? undefined)}
        trailing={<span className="funds-unit">{currency}</span>}
        data-testid="buy-amount"
        onChange={(event) => {
          setAmount(event.target.value);
          setIdempotencyKey(createIdempotencyKey());
          if (mutation.isError) mutation.reset();
        }}
        onBlur={() => setTouched(true)}
      />
      <dl className="funds-summary" aria-live="polite" data-testid="buy-quote">
        <div>
          <dt>{t('wallet.buy.youGet')}</dt>
          <dd className="tabular">{current ? money(current.amount) : '—'}</dd>
        </div>
        <div>
          <dt>{t('wallet.buy.cardFee', { percent: localizedNumber(current?.fee_percent ?? '') })}</dt>
          <dd className="tabular" data-testid="buy-fee">
            {current ? money(current.fee) : '—'}
          </dd>
        </div>
        <div className="funds-summary-total">
          <dt>{t('wallet.buy.charged')}</dt>
          <dd className="tabular" data-testid="buy-total">
            {current ? money(current.total) : '—'}
          </dd>
        </div>
      </dl>
      {mutation.isError ? (
        <p className="form-error" role="alert" data-testid="buy-error">
          {serviceErrorText(mutation.error, t, 'wallet.deposit.errors.checkoutFailed')}
        </p>
      ) : null}
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={busy}
          icon={<CreditCard size={15} aria-hidden="true" />}
          data-testid="buy-submit"
        >
          {busy ? t('wallet.deposit.checkoutSubmitting') : t('wallet.buy.submit')}
        </Button>
      </div>
      <ul className="funds-help">
        <li>{t('wallet.buy.note')}</li>
      </ul>
    </form>
  );
}
