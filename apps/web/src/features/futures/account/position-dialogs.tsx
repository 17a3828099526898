import type { FuturesMarket, FuturesPosition } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { Modal } from '../../../components/ui/modal.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { formatUsd } from '../futures-format.ts';
import { futuresKeys, useFuturesAccount } from '../futures-queries.ts';
import { DecimalField } from '../order-form/order-fields.tsx';
import { closeAtLimitRequest } from './use-close-position.ts';

export type PositionAction = { kind: 'closeLimit' | 'tpsl' | 'margin'; position: FuturesPosition };

interface DialogProps {
  position: FuturesPosition;
  market: FuturesMarket | undefined;
  onClose: () => void;
}

export function PositionDialogs({
  action,
  market,
  onClose,
}: {
  action: PositionAction;
  market: FuturesMarket | undefined;
  onClose: () => void;
}) {
  const props = { position: action.position, market, onClose };
  if (action.kind === 'closeLimit') return <CloseLimitDialog {...props} />;
  if (action.kind === 'tpsl') return <TpslDialog {...props} />;
  return <MarginDialog {...props} />;
}

/** A mutation that closes the dialog and refreshes the account when it succeeds. */
function useDialogMutation<T>(run: (input: T) => Promise<unknown>, successKey: string, onClose: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: () => {
      toast.success(t(successKey as 'futures.tpslDialog.saved'));
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
      onClose();
    },
  });
  const failure = mutation.error ? errorMessage(mutation.error, t, 'futures.states.failed') : null;
  return { mutation, failure };
}

function DialogFrame({
  title,
  testId,
  onClose,
  onSubmit,
  failure,
  submitText,
  children,
}: {
  title: string;
  testId: string;
  onClose: () => void;
  onSubmit: () => void;
  failure: string | null;
  submitText: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={420} testId={testId}>
      <h2 id={titleId} className="fut-dialog-title">
        {title}
      </h2>
      <form className="fut-dialog-form" onSubmit={submit} noValidate>
        {children}
        {failure ? (
          <p className="fut-form-error" role="alert" data-testid={`${testId}-error`}>
            {failure}
          </p>
        ) : null}
        <div className="fut-dialog-actions">
          <button type="submit" className="btn btn-primary" data-testid={`${testId}-submit`}>
            {submitText}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function CloseLimitDialog({ position, market, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [price, setPrice] = useState(position.mark_price);
  const [quantity, setQuantity] = useState(position.size);
  const { mutation, failure } = useDialogMutation(
    () => futuresApi.placeOrder(closeAtLimitRequest(position, price.trim(), quantity.trim())),
    'futures.positions.closed',
    onClose,
  );
  return (
    <DialogFrame
      title={t('futures.closeLimit.title')}
      testId="futures-close-limit"
      onClose={onClose}
      onSubmit={() => mutation.mutate(undefined)}
      failure={failure}
      submitText={t('futures.closeLimit.submit')}
    >
      <DecimalField
        label={t('futures.closeLimit.price')}
        value={price}
        unit={market?.quote_currency ?? 'USD'}
        onChange={setPrice}
        testId="close-limit-price"
      />
      <DecimalField
        label={t('futures.closeLimit.quantity')}
        value={quantity}
        unit={market?.base_currency ?? ''}
        onChange={setQuantity}
        testId="close-limit-quantity"
      />
    </DialogFrame>
  );
}

function TpslDialog({ position, market, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [takeProfit, setTakeProfit] = useState(position.take_profit_price ?? '');
  const [stopLoss, setStopLoss] = useState(position.stop_loss_price ?? '');
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
  const { mutation, failure } = useDialogMutation(
    () => futuresApi.setTpsl(position.market, orNull(takeProfit), orNull(stopLoss)),
    'futures.tpslDialog.saved',
    onClose,
  );
  const quote = market?.quote_currency ?? 'USD';
  return (
    <DialogFrame
      title={t('futures.tpslDialog.title')}
      testId="futures-tpsl-dialog"
      onClose={onClose}
      onSubmit={() => mutation.mutate(undefined)}
      failure={failure}
      submitText={t('futures.tpslDialog.submit')}
    >
      <p className="fut-dialog-hint">{t('futures.tpslDialog.hint')}</p>
      <DecimalField
        label={t('futures.form.takeProfit')}
        value={takeProfit}
        unit={quote}
        onChange={setTakeProfit}
        testId="tpsl-take-profit"
      />
      <DecimalField
        label={t('futures.form.stopLoss')}
        value={stopLoss}
        unit={quote}
        onChange={setStopLoss}
        testId="tpsl-stop-loss"
      />
    </DialogFrame>
  );
}

function MarginDialog({ position, onClose }: DialogProps) {
  const { t } = useTranslation();
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const [amount, setAmount] = useState('');
  const available = useFuturesAccount().data?.available_balance ?? null;
  const { mutation, failure } = useDialogMutation(
    () => futuresApi.isolatedMargin(position.market, action, amount.trim()),
    'futures.marginDialog.saved',
    onClose,
  );
  return (
    <DialogFrame
      title={t('futures.marginDialog.title')}
      testId="futures-margin-dialog"
      onClose={onClose}
      onSubmit={() => mutation.mutate(undefined)}
      failure={failure}
      submitText={t('futures.marginDialog.submit')}
    >
      <Segmented<'add' | 'remove'>
        legend={t('futures.marginDialog.title')}
        options={['add', 'remove']}
        value={action}
        onChange={setAction}
        label={(option) => t(`futures.marginDialog.${option}`)}
        testId={(option) => `margin-${option}`}
      />
      <DecimalField
        label={t('futures.marginDialog.amount')}
        value={amount}
        unit="USD"
        onChange={setAmount}
        testId="margin-amount"
      />
      <p className="fut-dialog-hint tabular">
        {t('futures.marginDialog.current', { amount: formatUsd(position.margin) })}
      </p>
      {action === 'add' ? (
        <p className="fut-dialog-hint tabular">
          {t('futures.marginDialog.available', { amount: formatUsd(available) })}
        </p>
      ) : null}
    </DialogFrame>
  );
}
