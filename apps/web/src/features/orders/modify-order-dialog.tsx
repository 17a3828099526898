import type { Order, TradingPair } from '@platform/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { pairSymbol } from '../../lib/format.ts';
import {
  initialModifyValues,
  type ModifyField,
  type ModifyFormValues,
  type ModifyProblem,
  modifiableFields,
  toModifyRequest,
  validateModify,
} from './modify-order-form.ts';
import { baseCurrencyOf, formatExact, quoteCurrencyOf } from './order-format.ts';

/** Modal widths of spec §9 are 420 and 480 px; this small form takes the narrower. */
const MODIFY_DIALOG_WIDTH_PX = 420;

const FIELD_TEST_IDS: Record<ModifyField, string> = {
  price: 'order-modify-price',
  stopPrice: 'order-modify-stop-price',
  quantity: 'order-modify-quantity',
};

/** Price, stop price and amount of an open order, whichever its type has (§4 Order: modify). */
export function ModifyOrderDialog({
  order,
  pair,
  onSave,
  onClose,
}: {
  order: Order;
  pair: TradingPair | undefined;
  onSave: (order: Order, values: ReturnType<typeof toModifyRequest>) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [values, setValues] = useState<ModifyFormValues>(() => initialModifyValues(order));
  const [problems, setProblems] = useState<ModifyProblem[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const fields = modifiableFields(order.type);
  const quote = quoteCurrencyOf(order.trading_pair, pair);
  const base = baseCurrencyOf(order.trading_pair, pair);

  const change = (field: ModifyField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setServerError(null);
    // Once the user has tried to save, the messages follow the typing.
    if (submitted) setProblems(validateModify(next, order, pair));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateModify(values, order, pair);
    setProblems(found);
    if (found.length > 0) return;
    setSaving(true);
    try {
      await onSave(order, toModifyRequest(values, order));
      onClose();
    } catch (error) {
      setServerError(errorMessage(error, t, 'history.modify.failed'));
    } finally {
      setSaving(false);
    }
  };

  const problemOf = (field: ModifyField) => {
    const problem = problems.find((found) => found.field === field);
    return problem ? t(problem.messageKey) : undefined;
  };
  const formProblem = problems.find((found) => found.field === null);
  const labels: Record<ModifyField, string> = {
    price: t('history.modify.price', { currency: quote }),
    stopPrice: t('history.modify.stopPrice', { currency: quote }),
    quantity: t('history.modify.quantity', { currency: base }),
  };

  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={MODIFY_DIALOG_WIDTH_PX} testId="order-modify-dialog">
      <form className="orders-modify" onSubmit={submit} noValidate>
        <header>
          <h2 id={titleId} className="orders-modify-title">
            {t('history.modify.title')}
          </h2>
          <p className="muted">
            {t('history.modify.summary', {
              side: t(`history.sides.${order.side}`),
              type: t(`history.types.${order.type}`),
              pair: pairSymbol(order.trading_pair),
            })}
          </p>
        </header>
        {fields.map((field) => (
          <TextField
            key={field}
            label={labels[field]}
            value={values[field]}
            onChange={(event) => change(field, event.target.value)}
            error={problemOf(field)}
            hint={
              field === 'quantity'
                ? t('history.modify.quantityHint', { filled: formatExact(order.filled_quantity) })
                : undefined
            }
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            className="orders-modify-field"
            data-testid={FIELD_TEST_IDS[field]}
          />
        ))}
        {formProblem || serverError ? (
          <p className="form-error" role="alert" data-testid="order-modify-error">
            {serverError ?? (formProblem ? t(formProblem.messageKey) : '')}
          </p>
        ) : null}
        <div className="orders-modify-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button type="submit" loading={saving} data-testid="order-modify-save">
            {t('history.modify.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
