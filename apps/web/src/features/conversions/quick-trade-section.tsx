import { CONVERSION_SPREAD_BPS, type QuickTrade } from '@platform/contracts';
import { formatDecimal } from '@platform/money';
import { Zap } from 'lucide-react';
import { type FormEvent, useId, useReducer, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { formatBalance } from '../../lib/format.ts';
import { translateMessage } from '../../lib/translate.ts';
import { localizedNumber } from '../../state/preferences-store.ts';
import { formatExactAmount } from '../wallet/history-model.ts';
import { maxTransferAmount } from '../wallet/transfer-form.ts';
import {
  useConversionSupported,
  useDeskCurrencies,
  useExecuteTrade,
  useSettledEstimate,
} from './conversion-queries.ts';
import { CurrencyAmountBox, DeskResult, SwapButton } from './convert-fields.tsx';
import { type AmountProblem, amountForRequest, amountProblem } from './convert-form.ts';
import { DESK_DEFAULT_FROM, DESK_DEFAULT_TO } from './convert-section.tsx';
import {
  createQuickTradeReducer,
  initialQuickTradeState,
  type QuickTradeField,
  quickTradeFailureField,
  quickTradeSummary,
} from './quick-trade-form.ts';

const quickTradeReducer = createQuickTradeReducer();

/** The desk's disclosed spread as a percentage: 50 bps -> '0.5'. */
const SPREAD_PERCENT = formatDecimal({ units: BigInt(CONVERSION_SPREAD_BPS), scale: 2 }, { trimZeros: true });

/** The market estimate for the typed sell amount, to help set a minimum (null while none is sure). */
function useMarketEstimate(amount: string, sell: string, buy: string, notSupported: boolean): string | null {
  const readable = amount.trim() !== '' && amountProblem(amount, sell) === null;
  const { estimate, settling } = useSettledEstimate(
    readable && !notSupported && sell !== buy
      ? { from_currency: sell, to_currency: buy, from_amount: amountForRequest(amount) }
      : null,
  );
  return estimate.data && !settling && !estimate.isFetching
    ? `${formatExactAmount(estimate.data.to_amount)} ${estimate.data.to_currency}`
    : null;
}

type ServerProblem = { field: QuickTradeField | 'form'; message: string };

/** The quick trade form (quick-trade-form.ts), the server's answer to it and its submit. */
function useQuickTradeForm() {
  const { t } = useTranslation();
  const desk = useDeskCurrencies();
  const [state, dispatch] = useReducer(quickTradeReducer, null, () =>
    initialQuickTradeState(DESK_DEFAULT_FROM, DESK_DEFAULT_TO),
  );
  const available = desk.available?.get(state.values.sell.toUpperCase()) ?? null;
  const summary = quickTradeSummary(state, available);
  const supported = useConversionSupported(summary.sell, summary.buy);
  const notSupported = summary.sell !== summary.buy && supported.data === false;
  const [serverProblem, setServerProblem] = useState<ServerProblem | null>(null);
  const [result, setResult] = useState<QuickTrade | null>(null);
  const execute = useExecuteTrade();
  const sending = useRef(false);
  const amountInput = useRef<HTMLInputElement | null>(null);
  const targetInput = useRef<HTMLInputElement | null>(null);

  const edit = (field: QuickTradeField, value: string) => {
    dispatch({ type: 'edit', field, value });
    if (serverProblem && (serverProblem.field === field || serverProblem.field === 'form')) setServerProblem(null);
    setResult(null);
  };
  const swap = () => {
    dispatch({ type: 'swap' });
    setServerProblem(null);
    setResult(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    dispatch({ type: 'submitAttempted' });
    setServerProblem(null);
    if (!summary.request || notSupported) {
      if (summary.errors.amount) amountInput.current?.focus();
      else if (summary.errors.target) targetInput.current?.focus();
      return;
    }
    sending.current = true;
    execute.mutate(
      { body: summary.request, idempotencyKey: state.idempotencyKey },
      {
        onSuccess: (answer) => {
          // §8 'trade executed', in the interface language.
          toast.success(t('wallet.legacy.trade.executed'));
          setResult(answer.trade);
          dispatch({ type: 'executed' });
        },
        onError: (error) => {
          setServerProblem({
            field: quickTradeFailureField(error),
            message: errorMessage(error, t, 'wallet.legacy.trade.errors.executeFailed'),
          });
        },
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  return {
    ...{ desk, state, dispatch, available, summary, notSupported, serverProblem, result, pending: execute.isPending },
    ...{ amountInput, targetInput, edit, swap, onSubmit, dismissResult: () => setResult(null) },
  };
}

type QuickTradeForm = ReturnType<typeof useQuickTradeForm>;

/**
 * Spec §3.5 Trade: sell one currency for another at the market price in one step
 * (POST /api/v1/trade/execute, trade_type 'market'), optionally refusing to receive less than a
 * minimum (target_amount). A debounced estimate shows what the market gives now, to help set that
 * minimum. §8: 'trade executed' on success.
 */
export function QuickTradePanel() {
  const { t } = useTranslation();
  const form = useQuickTradeForm();
  const { summary, available, serverProblem } = form;
  const formErrorId = useId();
  const marketEstimate = useMarketEstimate(form.state.values.amount, summary.sell, summary.buy, form.notSupported);

  const problemText = (problem: AmountProblem | undefined) =>
    problem ? translateMessage(t, problem.key, problem.values) : null;
  const fieldError = (field: QuickTradeField) =>
    serverProblem?.field === field ? serverProblem.message : problemText(summary.visibleErrors[field]);
  const maxAmount = maxTransferAmount(available, summary.sell);
  const availableText = available === null ? null : formatBalance(available, summary.sell);

  return (
    <form
      className="wallet-form convert-form"
      noValidate
      onSubmit={form.onSubmit}
      aria-describedby={form.serverProblem?.field === 'form' ? formErrorId : undefined}
      data-testid="trade-form"
    >
      <CurrencyAmountBox
        label={t('wallet.legacy.trade.sell')}
        currencyLabel={t('wallet.legacy.trade.sellCurrency')}
        currency={summary.sell}
        currencies={form.desk.currencies}
        onCurrency={(code) => form.edit('sell', code)}
        amount={{
          value: form.state.values.amount,
          onChange: (value) => form.edit('amount', value),
          onBlur: () => form.dispatch({ type: 'blur', field: 'amount' }),
          testId: 'trade-amount',
          inputRef: (element) => {
            form.amountInput.current = element;
          },
        }}
        available={availableText}
        onMax={maxAmount ? () => form.edit('amount', maxAmount) : null}
        error={fieldError('amount')}
        currencyTestId="trade-sell"
      />
      <SwapButton testId="trade-swap" onSwap={form.swap} />
      <CurrencyAmountBox
        label={t('wallet.legacy.trade.minimum')}
        currencyLabel={t('wallet.legacy.trade.buyCurrency')}
        currency={summary.buy}
        currencies={form.desk.reachableFrom(summary.sell)}
        onCurrency={(code) => form.edit('buy', code)}
        amount={{
          value: form.state.values.target,
          onChange: (value) => form.edit('target', value),
          onBlur: () => form.dispatch({ type: 'blur', field: 'target' }),
          placeholder: t('wallet.legacy.trade.minimumPlaceholder'),
          testId: 'trade-target',
          inputRef: (element) => {
            form.targetInput.current = element;
          },
        }}
        error={fieldError('target') ?? fieldError('buy')}
        hint={
          marketEstimate ? (
            <span data-testid="trade-estimate">
              {t('wallet.legacy.trade.marketEstimate', { amount: marketEstimate })}
            </span>
          ) : (
            t('wallet.legacy.trade.minimumHint')
          )
        }
        currencyTestId="trade-buy"
      />

      <QuickTradeNotes form={form} formErrorId={formErrorId} />
      <QuickTradeFooter form={form} />
    </form>
  );
}

function QuickTradeNotes({ form, formErrorId }: { form: QuickTradeForm; formErrorId: string }) {
  const { t } = useTranslation();
  const { notSupported, summary, serverProblem } = form;
  const pairsError = form.desk.pairsError;
  return (
    <>
      {notSupported ? (
        <p className="wallet-note convert-quote-warning" role="status" data-testid="trade-not-supported">
          {t('wallet.convert.notSupported', { from: summary.sell, to: summary.buy })}
        </p>
      ) : null}
      {pairsError ? (
        <p className="wallet-note" role="status">
          {errorMessage(pairsError, t, 'wallet.convert.errors.pairsFailed')}
        </p>
      ) : null}
      <p className="wallet-note">{t('wallet.legacy.trade.note', { percent: localizedNumber(SPREAD_PERCENT) })}</p>

      {serverProblem?.field === 'form' ? (
        <p id={formErrorId} className="form-error" role="alert" data-testid="trade-error">
          {serverProblem.message}
        </p>
      ) : null}
    </>
  );
}

function QuickTradeFooter({ form }: { form: QuickTradeForm }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="wallet-form-actions">
        <Button
          type="submit"
          loading={form.pending}
          disabled={form.notSupported}
          icon={<Zap size={15} aria-hidden="true" />}
          data-testid="trade-submit"
        >
          {form.pending
            ? t('wallet.legacy.trade.executing')
            : t('wallet.legacy.trade.submit', { sell: form.summary.sell, buy: form.summary.buy })}
        </Button>
      </div>

      {form.result ? (
        <DeskResult
          title={t('wallet.legacy.trade.done')}
          fromAmount={form.result.sell_amount}
          fromCurrency={form.result.sell_currency}
          toAmount={form.result.buy_amount}
          toCurrency={form.result.buy_currency}
          rate={form.result.rate}
          onDismiss={form.dismissResult}
          testId="trade-result"
        />
      ) : null}
    </>
  );
}
