import clsx from 'clsx';
import { CircleAlert, CircleCheck, LoaderCircle, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletApi } from '../../api/wallet.ts';
import { translateMessage } from '../../lib/translate.ts';
import { useAppStore } from '../../state/app-store.ts';
import { formatExactAmount } from './history-model.ts';
import { type TransferPopupEntry, useTransferPopups } from './transfer-popups.ts';
import { type TransferWatchState, transferPopupView, watchTransferStatus } from './transfer-status.ts';
import { useInvalidateWallet } from './use-wallet.ts';

/**
 * Spec §2.2 / §4: the open transfer status popups, newest last. The shell places them in its
 * overlay area; a logout closes them all (their polls would only answer 401 now).
 */
export function TransferStatusPopups() {
  const popups = useTransferPopups((state) => state.popups);
  const clear = useTransferPopups((state) => state.clear);
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  useEffect(() => {
    if (!isAuthenticated) clear();
  }, [isAuthenticated, clear]);
  if (!isAuthenticated) return null;
  return popups.map((popup) => <TransferStatusPopup key={popup.transferId} entry={popup} />);
}

function TransferStatusPopup({ entry }: { entry: TransferPopupEntry }) {
  const { t } = useTranslation();
  const close = useTransferPopups((state) => state.close);
  const invalidateWallet = useInvalidateWallet();
  const [watch, setWatch] = useState<TransferWatchState>({ transfer: entry.initial, failure: null, settled: false });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one watch per popup, for its whole life
  useEffect(
    () =>
      watchTransferStatus({
        transferId: entry.transferId,
        initial: entry.initial,
        fetchStatus: walletApi.transferStatus,
        onChange: setWatch,
        onSettled: invalidateWallet,
        onAutoClose: () => close(entry.transferId),
      }),
    [entry.transferId],
  );

  const view = transferPopupView(watch.transfer, watch.failure);
  const transfer = watch.transfer;
  const Icon = view.phase === 'success' ? CircleCheck : view.phase === 'failure' ? CircleAlert : LoaderCircle;
  const summary = transfer
    ? transfer.to_username
      ? t('wallet.transferPopup.summary', {
          amount: formatExactAmount(transfer.amount),
          currency: transfer.currency,
          username: transfer.to_username,
        })
      : `${formatExactAmount(transfer.amount)} ${transfer.currency}`
    : null;

  return (
    <div
      className={clsx('transfer-popup', `transfer-popup-${view.phase}`)}
      role="status"
      aria-live="polite"
      data-testid={`transfer-popup-${entry.transferId}`}
      data-phase={view.phase}
    >
      <span className="transfer-popup-icon" aria-hidden="true">
        <Icon size={20} className={view.phase === 'pending' ? 'spin' : undefined} />
      </span>
      <div className="transfer-popup-body">
        <p className="transfer-popup-title" data-testid="transfer-popup-title">
          {translateMessage(t, view.titleKey)}
        </p>
        {view.messageKey ? (
          <p className="transfer-popup-message" data-testid="transfer-popup-message">
            {translateMessage(t, view.messageKey)}
          </p>
        ) : null}
        {summary ? <p className="transfer-popup-summary">{summary}</p> : null}
        <div
          className={clsx('transfer-progress', view.progressPercent === null && 'indeterminate')}
          role="progressbar"
          aria-label={t('wallet.transferPopup.progress')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={view.progressPercent ?? undefined}
          data-testid="transfer-popup-progress"
        >
          <span className="transfer-progress-fill" style={{ width: `${view.progressPercent ?? 35}%` }} />
        </div>
      </div>
      <button
        type="button"
        className="icon-button icon-button-sm transfer-popup-close"
        aria-label={t('wallet.transferPopup.close')}
        title={t('wallet.transferPopup.close')}
        onClick={() => close(entry.transferId)}
        data-testid="transfer-popup-close"
      >
        <X size={15} aria-hidden="true" />
      </button>
    </div>
  );
}
