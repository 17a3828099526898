import { formatDecimal, isNegative, toScale } from '@platform/money';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { Modal } from '../../../components/ui/modal.tsx';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { toAmount } from '../../../lib/format.ts';
import { newClientOrderId } from '../../trade/order-form.ts';
import { useWalletBalances } from '../../wallet/use-wallet.ts';
import { formatUsd } from '../futures-format.ts';
import { futuresKeys, useFuturesAccount } from '../futures-queries.ts';
import { TRANSFER_DECIMALS, transferProblem } from './transfer-model.ts';

type Direction = 'to_futures' | 'to_spot';
const DIRECTIONS = ['to_futures', 'to_spot'] as const;

export function TransferButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => setOpen(true)}
        data-testid="futures-transfer-button"
      >
        {t('futures.account.transfer')}
      </button>
      {open ? <TransferDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** What may move now: the spot wallet's available USD, or the futures wallet's transferable, in cents. */
function useTransferable(direction: Direction): string | null {
  const futures = useFuturesAccount().data;
  const spot = useWalletBalances().data?.find((balance) => balance.currency === 'USD');
  const raw = direction === 'to_spot' ? (futures?.transferable ?? null) : (spot?.available ?? (spot ? '0' : null));
  const amount = raw ? toAmount(raw) : null;
  if (!amount) return null;
  return isNegative(amount) ? '0' : formatDecimal(toScale(amount, TRANSFER_DECIMALS, 'floor'));
}

/** Spot <-> futures USD, at most what may move (the server checks again: TRANSFER_EXCEEDS_AVAILABLE). */
export function TransferDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [direction, setDirection] = useState<Direction>('to_futures');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [transferId] = useState(newClientOrderId);
  const transferable = useTransferable(direction);
  const problem = transferProblem(amount, transferable);
  const send = useMutation({
    mutationFn: () => futuresApi.transfer(direction, amount.trim(), transferId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      toast.success(t('futures.transfer.done'));
      onClose();
    },
  });
  const message =
    touched && problem
      ? t(`futures.transfer.${problem}`)
      : send.error
        ? errorMessage(send.error, t, 'futures.states.failed')
        : null;

  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={420} testId="futures-transfer-dialog">
      <h2 id={titleId} className="fut-dialog-title">
        {t('futures.transfer.title')}
      </h2>
      <form
        className="fut-dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (problem === null) send.mutate();
        }}
      >
        <Segmented<Direction>
          legend={t('futures.transfer.title')}
          options={DIRECTIONS}
          value={direction}
          onChange={(next) => {
            setDirection(next);
            send.reset();
          }}
          label={(option) => t(option === 'to_futures' ? 'futures.transfer.toFutures' : 'futures.transfer.toSpot')}
          testId={(option) => `futures-transfer-${option}`}
        />
        <AmountRow amount={amount} setAmount={setAmount} transferable={transferable} />
        {message ? (
          <p className="fut-form-error" role="alert" data-testid="futures-transfer-error">
            {message}
          </p>
        ) : null}
        <div className="fut-dialog-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={send.isPending}
            data-testid="futures-transfer-submit"
          >
            {t('futures.transfer.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function AmountRow({
  amount,
  setAmount,
  transferable,
}: {
  amount: string;
  setAmount: (value: string) => void;
  transferable: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label className="trade-field">
        <span className="trade-field-label">{t('futures.transfer.amount')}</span>
        <input
          className="trade-field-input tabular"
          type="text"
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          data-testid="futures-transfer-amount"
        />
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={transferable === null}
          onClick={() => setAmount(transferable ?? '')}
          data-testid="futures-transfer-max"
        >
          {t('futures.transfer.max')}
        </button>
      </label>
      <p className="fut-dialog-hint tabular" data-testid="futures-transferable">
        {t('futures.transfer.transferable', { amount: transferable === null ? '—' : formatUsd(transferable) })}
      </p>
    </>
  );
}
