import type { FuturesMarket } from '@platform/contracts';
import clsx from 'clsx';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriceFill } from '../../trade/order-form-panel.tsx';
import { formatUsd } from '../futures-format.ts';
import { useFuturesAccount, useMarkPrice } from '../futures-queries.ts';
import { useHighLeverageGate } from '../leverage/high-leverage.tsx';
import {
  type FuturesFormState,
  hasLimitPrice,
  initialFormState,
  quantityForPercent,
  toOrderRequest,
  validate,
} from './futures-order-model.ts';
import { DecimalField, OptionFields, type Patch, SideSwitch, TypeFields } from './order-fields.tsx';
import { OrderPreviewView } from './order-preview-view.tsx';
import { useOrderPreview } from './use-order-preview.ts';
import { useOrderSubmit } from './use-order-submit.ts';

interface FormProps {
  market: FuturesMarket;
  leverage: number;
  priceFill: PriceFill | null;
}

/**
 * Buy/Long and Sell/Short at the account's leverage: the preview under the form shows cost, margin,
 * fee and the liquidation price the order would leave before it is sent; above 20x the first
 * time, the risk confirmation comes before the order.
 */
export function FuturesOrderForm({ market, leverage, priceFill }: FormProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<FuturesFormState>(initialFormState);
  const [showErrors, setShowErrors] = useState(false);
  const patch: Patch = (change) => setState((previous) => ({ ...previous, ...change }));
  // A placed order empties the size for the next one: that is no mistake to point out.
  const submit = useOrderSubmit(market, () => {
    setShowErrors(false);
    setState((previous) => ({ ...previous, quantity: '' }));
  });
  const gate = useHighLeverageGate();
  const request = toOrderRequest(state, market);
  const preview = useOrderPreview(request, true);
  const error = validate(state, market);
  const halted = market.status === 'halted';
  useFillPrice(priceFill, patch);
  const { renewId, reset } = submit;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new form is a new order (and a new id)
  useEffect(() => {
    renewId();
    reset();
  }, [state]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setShowErrors(true);
    if (error === null && !halted) gate.guard(leverage, () => submit.submit(state));
  };
  const message = halted ? t('futures.form.halted') : showErrors && error ? t(`futures.form.${error}`) : submit.failure;

  return (
    <form className="trade-form fut-order-form" onSubmit={onSubmit} noValidate data-testid="futures-order-form">
      <SideSwitch side={state.side} onChange={(side) => patch({ side })} />
      <TypeFields state={state} patch={patch} quote={market.quote_currency} />
      <QuantityFields state={state} patch={patch} market={market} leverage={leverage} />
      <OptionFields state={state} patch={patch} quote={market.quote_currency} />
      <OrderPreviewView result={preview} market={market} hasRequest={request !== null} />
      {message ? (
        <p role="alert" className="trade-form-error" data-testid="futures-order-error">
          {message}
        </p>
      ) : null}
      <button
        type="submit"
        className={clsx('trade-submit', `trade-submit-${state.side}`)}
        aria-busy={submit.pending || undefined}
        disabled={halted}
        data-testid="futures-order-submit"
      >
        {t(state.side === 'buy' ? 'futures.form.submitBuy' : 'futures.form.submitSell', { base: market.base_currency })}
      </button>
      {gate.dialog}
    </form>
  );
}

function useFillPrice(priceFill: PriceFill | null, patch: Patch) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new click fills the price
  useEffect(() => {
    if (!priceFill) return;
    patch({ price: priceFill.price });
  }, [priceFill?.seq]);
}

const PERCENT_MARKS = [0, 25, 50, 75, 100] as const;

function QuantityFields({
  state,
  patch,
  market,
  leverage,
}: {
  state: FuturesFormState;
  patch: Patch;
  market: FuturesMarket;
  leverage: number;
}) {
  const { t } = useTranslation();
  const available = useFuturesAccount().data?.available_balance ?? null;
  const mark = useMarkPrice(market.id).data?.mark_price ?? market.mark_price;
  const [percent, setPercent] = useState(0);
  const price = hasLimitPrice(state.type) && state.price.trim() ? state.price.trim() : mark;
  const applyPercent = (value: number) => {
    setPercent(value);
    const quantity = available && price ? quantityForPercent(available, value, leverage, price, market) : null;
    patch({ quantity: quantity ?? '' });
  };
  return (
    <>
      <div className="trade-form-row trade-available">
        <span className="muted">{t('futures.form.available')}</span>
        <span className="tabular" data-testid="futures-available">
          {available === null ? '—' : `${formatUsd(available)} USD`}
        </span>
      </div>
      <DecimalField
        label={t('futures.form.quantity')}
        value={state.quantity}
        unit={market.base_currency}
        onChange={(quantity) => {
          setPercent(0);
          patch({ quantity });
        }}
        testId="futures-quantity"
      />
      <div className="fut-percent">
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={percent}
          list="fut-percent-marks"
          aria-label={t('futures.form.percent')}
          aria-valuetext={`${percent}%`}
          onChange={(event) => applyPercent(Number(event.target.value))}
          data-testid="futures-percent"
        />
        <datalist id="fut-percent-marks">
          {PERCENT_MARKS.map((mark) => (
            <option key={mark} value={mark} />
          ))}
        </datalist>
        <span className="tabular fut-percent-value">{percent}%</span>
      </div>
    </>
  );
}
