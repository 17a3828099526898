import type { OrderSide, PlaceOrderRequest, TradingPair } from '@platform/contracts';
import clsx from 'clsx';
import type { TFunction } from 'i18next';
import { type ChangeEvent, type FormEvent, useEffect, useId, useReducer, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Segmented } from '../../components/ui/segmented.tsx';
import { formatBalance, groupThousands, MISSING_VALUE } from '../../lib/format.ts';
import { formatMoney } from '../../lib/number-format.ts';
import { useAppStore } from '../../state/app-store.ts';
import { localizedNumber, usePreferences } from '../../state/preferences-store.ts';
import { useSignedInAccountId, useWalletBalances } from '../wallet/use-wallet.ts';
import { lacksFunds } from './funds-hint.ts';
import { FundsHint } from './funds-hint-view.tsx';
import { type ConfirmLine, OrderConfirmDialog } from './order-confirm-dialog.tsx';
import {
  type AmountMode,
  amountForPercent,
  createOrderFormReducer,
  effectiveAmountMode,
  initialOrderFormState,
  ORDER_FORM_TYPES,
  type OrderFormField,
  type OrderFormType,
  orderFields,
  PERCENT_MARKS,
  percentOfAvailable,
  summary,
  toPlaceOrderRequest,
  validate,
} from './order-form.ts';
import { isDefinitiveRefusal, type PlaceOrderFailure, placeOrderFailure, usePlaceOrder } from './use-place-order.ts';

const orderFormReducer = createOrderFormReducer();

/** A price picked elsewhere on the page; `seq` tells two clicks on the same price apart. */
export interface PriceFill {
  price: string;
  seq: number;
}

interface OrderFormPanelProps {
  pair: TradingPair;
  /** The last traded price: market previews and percent sizes of market buys use it. */
  lastPrice: string | null;
  /** The side carried in the address (?action=sell); the form follows it when it changes. */
  side?: OrderSide | null;
  priceFill?: PriceFill | null;
}

const FIELD_TEST_IDS: Record<OrderFormField, string> = {
  price: 'order-price',
  stopPrice: 'order-stop-price',
  stopLimitPrice: 'order-stop-limit-price',
  amount: 'order-amount',
  quoteAmount: 'order-quote-amount',
};

/** Spec §2.6 and §5 Orders: buy or sell, five order types, checked before anything is sent. */
export function OrderFormPanel(props: OrderFormPanelProps) {
  const { t } = useTranslation();
  const form = useOrderForm(props);
  const { state, dispatch, formId } = form;
  return (
    <section className="trade-card trade-form-card" aria-labelledby={`${formId}-title`} data-testid="order-form">
      <h2 id={`${formId}-title`} className="visually-hidden">
        {t('trade.form.title')}
      </h2>
      <fieldset className="trade-side-switch">
        <legend className="visually-hidden">{t('trade.form.side')}</legend>
        {(['buy', 'sell'] as const).map((option) => (
          <button
            key={option}
            type="button"
            className={clsx('trade-side-button', `trade-side-${option}`, state.side === option && 'active')}
            aria-pressed={state.side === option}
            onClick={() => dispatch({ type: 'side', side: option })}
            data-testid={`order-side-${option}`}
          >
            {t(`trade.form.${option}`)}
          </button>
        ))}
      </fieldset>
      <Segmented<OrderFormType>
        legend={t('trade.form.orderType')}
        options={ORDER_FORM_TYPES}
        value={state.type}
        onChange={(orderType) => dispatch({ type: 'orderType', orderType })}
        label={(option) => t(`trade.form.types.${option}`)}
        testId={(option) => `order-type-${option}`}
        className="trade-type-tabs"
      />
      <p className="trade-form-help">{t(`trade.form.typeHelp.${state.type}`)}</p>

      <form className="trade-form" onSubmit={form.onSubmit} noValidate>
        <OrderFormInputs form={form} />
        <OrderFormFooter form={form} />
      </form>
      <OrderConfirm form={form} />
    </section>
  );
}

type OrderFormModel = ReturnType<typeof useOrderForm>;

/** The form's state (the reducer of order-form.ts), what it previews, and the sending. */
function useOrderForm({ pair, lastPrice, side = null, priceFill = null }: OrderFormPanelProps) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const accountId = useSignedInAccountId();
  const requireLogin = useAppStore((store) => store.requireLogin);
  const balances = useWalletBalances();
  const [state, dispatch] = useReducer(orderFormReducer, side, (initial) => initialOrderFormState(initial ?? 'buy'));
  const [failure, setFailure] = useState<PlaceOrderFailure | null>(null);
  const [chosenPercent, setChosenPercent] = useState<{ percent: number; value: string } | null>(null);
  const confirmOrders = usePreferences((store) => store.confirmOrders);
  const formId = useId();
  useFollowPage(dispatch, setFailure, side, priceFill, pair.id);
  const { placeOrder, confirming, setConfirming, send } = useSendOrder(dispatch, setFailure, setChosenPercent);

  const signedIn = accountId !== null;
  const preview = summary(state, pair, signedIn ? balances.data : null, lastPrice);
  const errors = state.submitAttempted ? validate(state, pair) : [];
  const mode = effectiveAmountMode(state);
  const sizeField = mode === 'quote' ? 'quoteAmount' : 'amount';
  const percent =
    chosenPercent && chosenPercent.value === state.values[sizeField]
      ? chosenPercent.percent
      : percentOfAvailable(state, pair, preview.available, lastPrice);

  const edit = (field: OrderFormField) => (event: ChangeEvent<HTMLInputElement>) => {
    // Phones with a comma keyboard type '0,5'; the form's decimals use a point.
    dispatch({ type: 'edit', field, value: event.target.value.replace(',', '.') });
    setFailure(null);
  };

  const applyPercent = (value: number) => {
    const sized = amountForPercent(state, pair, preview.available, lastPrice, value);
    if (!sized) return;
    dispatch({ type: 'edit', field: sized.field, value: sized.value });
    setChosenPercent({ percent: value, value: sized.value });
    setFailure(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!signedIn) {
      requireLogin(`${pathname}${search}`);
      return;
    }
    if (placeOrder.isPending) return;
    dispatch({ type: 'submitAttempted' });
    setFailure(null);
    const request = toPlaceOrderRequest(state, pair);
    if (!request) return;
    // Settings > Preferences: shown once more first; nothing is sent until the user places it.
    if (confirmOrders) setConfirming(request);
    else send(request);
  };

  return {
    ...{ pair, lastPrice, state, dispatch, failure, formId, signedIn, preview, errors, mode, percent },
    ...{ edit, applyPercent, onSubmit, placeOrder, confirming, setConfirming, send },
    // Sized by quote amount, the total is what was typed; only the quantity is a guess.
    totalEstimated: preview.estimated && mode === 'base',
    canUsePercent:
      signedIn &&
      amountForPercent(state, pair, preview.available, lastPrice, 100) !== null &&
      preview.available !== null,
    formMessage: errors[0] ? t(errors[0].messageKey) : failure?.message,
  };
}

/** The form follows the page: the side in the address, a price clicked in the book, another pair. */
function useFollowPage(
  dispatch: OrderFormDispatch,
  setFailure: (failure: PlaceOrderFailure | null) => void,
  side: OrderSide | null,
  priceFill: PriceFill | null,
  pairId: TradingPair['id'],
) {
  useEffect(() => {
    if (side) dispatch({ type: 'side', side });
  }, [side, dispatch]);

  const lastFill = useRef(priceFill?.seq ?? 0);
  useEffect(() => {
    if (!priceFill || priceFill.seq === lastFill.current) return;
    lastFill.current = priceFill.seq;
    dispatch({ type: 'priceClicked', price: priceFill.price });
  }, [priceFill, dispatch]);

  const shownPairId = useRef(pairId);
  useEffect(() => {
    if (shownPairId.current === pairId) return;
    shownPairId.current = pairId;
    dispatch({ type: 'pairChanged' });
    setFailure(null);
  }, [pairId, dispatch, setFailure]);
}

type OrderFormDispatch = (action: Parameters<typeof orderFormReducer>[1]) => void;

function useSendOrder(
  dispatch: OrderFormDispatch,
  setFailure: (failure: PlaceOrderFailure | null) => void,
  setChosenPercent: (chosen: null) => void,
) {
  const { t } = useTranslation();
  const placeOrder = usePlaceOrder();
  const [confirming, setConfirming] = useState<PlaceOrderRequest | null>(null);
  const send = (request: PlaceOrderRequest) => {
    setConfirming(null);
    placeOrder.mutate(request, {
      onSuccess: () => {
        toast.success(t('success.orderPlaced'));
        dispatch({ type: 'placed' });
        setChosenPercent(null);
      },
      onError: (error) => {
        setFailure(placeOrderFailure(error, t));
        if (isDefinitiveRefusal(error)) dispatch({ type: 'refused' });
      },
    });
  };
  return { placeOrder, confirming, setConfirming, send };
}

function fieldLabel(t: TFunction, state: OrderFormModel['state'], field: OrderFormField): string {
  if (field === 'price')
    return state.type === 'limit' ? t('trade.form.fields.price') : t('trade.form.fields.limitPrice');
  if (field === 'amount') return t('trade.form.fields.amount');
  return t(`trade.form.fields.${field}`);
}

/** What the confirmation (Settings > Preferences) shows before the order is placed. */
function confirmLines(t: TFunction, form: OrderFormModel): ConfirmLine[] {
  const { state, pair, preview, totalEstimated } = form;
  const base = pair.base_currency;
  const quote = pair.quote_currency;
  return [
    { label: t('trade.form.confirmMarket'), value: pair.symbol },
    ...(state.type === 'market'
      ? [{ label: t('trade.form.fields.price'), value: t('trade.form.fields.marketPrice') }]
      : []),
    ...orderFields(state)
      .filter(({ field }) => state.values[field].trim() !== '')
      .map(({ field }) => ({
        label: fieldLabel(t, state, field),
        value: `${groupThousands(state.values[field].trim())} ${field === 'amount' ? base : quote}`,
      })),
    {
      label: t('trade.form.fee', { rate: localizedNumber(preview.feeRatePercent) }),
      value: shown(preview.fee, quote, totalEstimated, t),
    },
    { label: t('trade.form.total'), value: shown(preview.total, quote, totalEstimated, t) },
  ];
}

function submitLabel(t: TFunction, form: OrderFormModel): string {
  const base = form.pair.base_currency;
  return !form.signedIn
    ? t('errors.pleaseLoginToContinue')
    : form.placeOrder.isPending
      ? t('trade.form.placing')
      : form.state.side === 'buy'
        ? t('trade.form.submitBuy', { currency: base })
        : t('trade.form.submitSell', { currency: base });
}

/** What is available, the price, amount and size fields, and the percent of the balance. */
function OrderFormInputs({ form }: { form: OrderFormModel }) {
  const { t } = useTranslation();
  const { state, dispatch, signedIn, preview, percent, canUsePercent, applyPercent } = form;
  const base = form.pair.base_currency;
  const quote = form.pair.quote_currency;
  return (
    <>
      <div className="trade-form-row trade-available">
        <span className="muted">{t('trade.form.available')}</span>
        <span className="tabular" data-testid="order-available">
          {signedIn && preview.available !== null
            ? `${formatBalance(preview.available, preview.spendCurrency)} ${preview.spendCurrency}`
            : MISSING_VALUE}
        </span>
      </div>
      {signedIn && lacksFunds(preview, state.side) ? <FundsHint currency={preview.spendCurrency} /> : null}

      {state.type === 'market' ? (
        <div className="trade-field trade-field-static">
          <span className="trade-field-label">{t('trade.form.fields.price')}</span>
          <span className="trade-field-static-value">{t('trade.form.fields.marketPrice')}</span>
          <span className="trade-field-unit">{quote}</span>
        </div>
      ) : null}

      {state.type === 'market' && state.side === 'buy' ? (
        <SizeModeSwitch
          mode={state.amountMode}
          base={base}
          quote={quote}
          onChange={(next) => dispatch({ type: 'amountMode', mode: next })}
        />
      ) : null}
      <OrderFieldInputs form={form} />

      <PercentSlider
        percent={percent}
        disabled={!canUsePercent}
        onChange={applyPercent}
        label={t('trade.form.percent')}
        markLabel={(value) => t('trade.form.percentMark', { percent: value })}
      />
    </>
  );
}

function OrderFieldInputs({ form }: { form: OrderFormModel }) {
  const { t } = useTranslation();
  const { state, edit, formId } = form;
  const base = form.pair.base_currency;
  const quote = form.pair.quote_currency;
  const invalidFields = new Set(form.errors.map((error) => error.field));
  return orderFields(state).map(({ field, required }) => (
    <label key={field} className={clsx('trade-field', invalidFields.has(field) && 'trade-field-invalid')}>
      <span className="trade-field-label">
        {fieldLabel(t, state, field)}
        {required ? null : <span className="trade-field-optional"> ({t('trade.form.fields.optional')})</span>}
      </span>
      <input
        className="trade-field-input tabular"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        autoCorrect="off"
        spellCheck={false}
        placeholder="0"
        value={state.values[field]}
        onChange={edit(field)}
        aria-invalid={invalidFields.has(field) || undefined}
        aria-describedby={invalidFields.has(field) ? `${formId}-message` : undefined}
        data-testid={FIELD_TEST_IDS[field]}
      />
      <span className="trade-field-unit">{field === 'amount' ? base : quote}</span>
    </label>
  ));
}

/** The fee and total, the form's message, the submit and the pair's limits. */
function OrderFormFooter({ form }: { form: OrderFormModel }) {
  const { t } = useTranslation();
  const { state, pair, signedIn, preview, mode, totalEstimated, formMessage, errors, failure, formId } = form;
  const base = pair.base_currency;
  const quote = pair.quote_currency;
  return (
    <>
      <dl className="trade-preview">
        <div className="trade-form-row">
          <dt className="muted">{t('trade.form.fee', { rate: localizedNumber(preview.feeRatePercent) })}</dt>
          <dd className="tabular" data-testid="order-fee">
            {shown(preview.fee, quote, totalEstimated, t)}
          </dd>
        </div>
        {mode === 'quote' ? (
          <div className="trade-form-row">
            <dt className="muted">{t('trade.form.fields.amount')}</dt>
            <dd className="tabular" data-testid="order-estimated-amount">
              {preview.quantity === null
                ? MISSING_VALUE
                : t('trade.form.estimated', { value: `${groupThousands(preview.quantity)} ${base}` })}
            </dd>
          </div>
        ) : null}
        <div className="trade-form-row trade-total">
          <dt className="muted">{t('trade.form.total')}</dt>
          <dd className="tabular" data-testid="order-total">
            {shown(preview.total, quote, totalEstimated, t)}
          </dd>
        </div>
      </dl>

      {formMessage ? (
        <div className="trade-form-message" id={`${formId}-message`}>
          <p role="alert" className="trade-form-error" data-testid="order-error">
            {formMessage}
          </p>
          {!errors[0] && failure?.detail ? <p className="trade-form-error-detail">{failure.detail}</p> : null}
        </div>
      ) : null}

      <button
        type="submit"
        className={clsx('trade-submit', signedIn ? `trade-submit-${state.side}` : 'trade-submit-login')}
        aria-busy={form.placeOrder.isPending || undefined}
        data-testid="order-submit"
      >
        {submitLabel(t, form)}
      </button>
      <p className="trade-form-limits muted tabular">
        {t('trade.form.minMax', {
          min: groupThousands(pair.min_trade_amount),
          max: groupThousands(pair.max_trade_amount),
          currency: base,
        })}
      </p>
    </>
  );
}

function OrderConfirm({ form }: { form: OrderFormModel }) {
  const { t } = useTranslation();
  const { state, confirming, placeOrder, send, setConfirming } = form;
  const base = form.pair.base_currency;
  return (
    <OrderConfirmDialog
      open={confirming !== null}
      title={t('trade.form.confirmTitle', {
        side: t(`trade.form.${state.side}`),
        type: t(`trade.form.types.${state.type}`),
      })}
      lines={confirmLines(t, form)}
      placeLabel={
        state.side === 'buy'
          ? t('trade.form.submitBuy', { currency: base })
          : t('trade.form.submitSell', { currency: base })
      }
      onPlace={() => {
        if (confirming && !placeOrder.isPending) send(confirming);
      }}
      onClose={() => setConfirming(null)}
    />
  );
}

function shown(value: string | null, quote: string, estimated: boolean, t: TFunction) {
  if (value === null) return MISSING_VALUE;
  // A fee or a total is an amount of the quote currency, not a price: '$0.07', not '$0.069000'.
  const text = formatMoney(value, quote);
  return estimated ? t('trade.form.estimated', { value: text }) : text;
}

function SizeModeSwitch({
  mode,
  base,
  quote,
  onChange,
}: {
  mode: AmountMode;
  base: string;
  quote: string;
  onChange: (mode: AmountMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented<AmountMode>
      legend={t('trade.form.sizeBy')}
      options={['base', 'quote']}
      value={mode}
      onChange={onChange}
      label={(option) =>
        option === 'base'
          ? t('trade.form.sizeByAmount', { currency: base })
          : t('trade.form.sizeByTotal', { currency: quote })
      }
      testId={(option) => `order-size-${option}`}
      className="trade-size-mode"
    />
  );
}

function PercentSlider({
  percent,
  disabled,
  onChange,
  label,
  markLabel,
}: {
  percent: number;
  disabled: boolean;
  onChange: (percent: number) => void;
  label: string;
  markLabel: (percent: number) => string;
}) {
  return (
    <div className="trade-percent">
      <input
        type="range"
        className="trade-percent-range"
        min={0}
        max={100}
        step={1}
        value={percent}
        disabled={disabled}
        aria-label={label}
        aria-valuetext={`${percent}%`}
        onChange={(event) => onChange(Number(event.target.value))}
        data-testid="order-percent-range"
      />
      <div className="trade-percent-marks">
        {PERCENT_MARKS.map((mark) => (
          <button
            key={mark}
            type="button"
            className={clsx('trade-percent-mark', percent >= mark && 'reached')}
            disabled={disabled}
            aria-label={markLabel(mark)}
            onClick={() => onChange(mark)}
            data-testid={`order-percent-${mark}`}
          >
            {mark}%
          </button>
        ))}
      </div>
    </div>
  );
}
