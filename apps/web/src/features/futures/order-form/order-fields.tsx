import { FUTURES_ORDER_TYPES, FUTURES_TIME_IN_FORCE, type FuturesOrderType } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import {
  type FuturesFormState,
  hasLimitPrice,
  hasStopPrice,
  type Side,
  type TimeInForce,
} from './futures-order-model.ts';

export type Patch = (patch: Partial<FuturesFormState>) => void;

export function SideSwitch({ side, onChange }: { side: Side; onChange: (side: Side) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="trade-side-switch">
      <legend className="visually-hidden">{t('futures.form.title')}</legend>
      {(['buy', 'sell'] as const).map((option) => (
        <button
          key={option}
          type="button"
          className={clsx('trade-side-button', `trade-side-${option}`, side === option && 'active')}
          aria-pressed={side === option}
          onClick={() => onChange(option)}
          data-testid={`futures-side-${option}`}
        >
          {t(`futures.form.${option}`)}
        </button>
      ))}
    </fieldset>
  );
}

interface DecimalFieldProps {
  label: string;
  value: string;
  unit: string;
  onChange: (value: string) => void;
  testId: string;
  invalid?: boolean;
}

export function DecimalField({ label, value, unit, onChange, testId, invalid }: DecimalFieldProps) {
  return (
    <label className={clsx('trade-field', invalid && 'trade-field-invalid')}>
      <span className="trade-field-label">{label}</span>
      <input
        className="trade-field-input tabular"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        placeholder="0"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        data-testid={testId}
      />
      <span className="trade-field-unit">{unit}</span>
    </label>
  );
}

/** The type, then the price fields the type has, its time in force and post-only. */
export function TypeFields({ state, patch, quote }: { state: FuturesFormState; patch: Patch; quote: string }) {
  const { t } = useTranslation();
  const limit = hasLimitPrice(state.type);
  return (
    <>
      <label className="fut-select-field">
        <span className="trade-field-label">{t('futures.form.type')}</span>
        <select
          className="input"
          value={state.type}
          onChange={(event) => patch({ type: event.target.value as FuturesOrderType })}
          data-testid="futures-order-type"
        >
          {FUTURES_ORDER_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`futures.form.types.${type}`)}
            </option>
          ))}
        </select>
      </label>
      {hasStopPrice(state.type) ? (
        <DecimalField
          label={t('futures.form.stopPrice')}
          value={state.stopPrice}
          unit={quote}
          onChange={(stopPrice) => patch({ stopPrice })}
          testId="futures-stop-price"
        />
      ) : null}
      {limit ? (
        <DecimalField
          label={t('futures.form.price')}
          value={state.price}
          unit={quote}
          onChange={(price) => patch({ price })}
          testId="futures-price"
        />
      ) : null}
      {limit ? <LimitOptions state={state} patch={patch} /> : null}
    </>
  );
}

function LimitOptions({ state, patch }: { state: FuturesFormState; patch: Patch }) {
  const { t } = useTranslation();
  return (
    <div className="fut-form-row">
      <label className="fut-select-field fut-tif">
        <span className="visually-hidden">{t('futures.form.timeInForce')}</span>
        <select
          className="input"
          value={state.timeInForce}
          onChange={(event) => patch({ timeInForce: event.target.value as TimeInForce })}
          aria-label={t('futures.form.timeInForce')}
          data-testid="futures-tif"
        >
          {FUTURES_TIME_IN_FORCE.map((tif) => (
            <option key={tif} value={tif}>
              {tif}
            </option>
          ))}
        </select>
      </label>
      <label className="fut-check">
        <input
          type="checkbox"
          checked={state.postOnly && state.timeInForce === 'GTC'}
          disabled={state.timeInForce !== 'GTC'}
          onChange={(event) => patch({ postOnly: event.target.checked })}
          data-testid="futures-post-only"
        />
        {t('futures.form.postOnly')}
      </label>
    </div>
  );
}

/** Reduce-only, and the take-profit / stop-loss triggers attached to the position once filled. */
export function OptionFields({ state, patch, quote }: { state: FuturesFormState; patch: Patch; quote: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="fut-form-row">
        <label className="fut-check">
          <input
            type="checkbox"
            checked={state.reduceOnly}
            onChange={(event) => patch({ reduceOnly: event.target.checked })}
            data-testid="futures-reduce-only"
          />
          {t('futures.form.reduceOnly')}
        </label>
        <label className="fut-check">
          <input
            type="checkbox"
            checked={state.tpsl}
            onChange={(event) => patch({ tpsl: event.target.checked })}
            data-testid="futures-tpsl"
          />
          {t('futures.form.tpsl')}
        </label>
      </div>
      {state.tpsl ? (
        <>
          <DecimalField
            label={t('futures.form.takeProfit')}
            value={state.takeProfit}
            unit={quote}
            onChange={(takeProfit) => patch({ takeProfit })}
            testId="futures-take-profit"
          />
          <DecimalField
            label={t('futures.form.stopLoss')}
            value={state.stopLoss}
            unit={quote}
            onChange={(stopLoss) => patch({ stopLoss })}
            testId="futures-stop-loss"
          />
        </>
      ) : null}
    </>
  );
}
