import { FUTURES_HIGH_LEVERAGE_WARNING } from '@platform/contracts';
import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/ui/modal.tsx';
import { readStorage, writeStorage } from '../../../lib/safe-storage.ts';
import { localizedNumber } from '../../../state/preferences-store.ts';
import { useSignedInAccountId } from '../../wallet/use-wallet.ts';

/** Kept per account: the trader confirmed once that leverage above 20x is understood. */
export const highLeverageKey = (accountId: string) => `meridian-futures-high-leverage-ack:${accountId}`;

export const needsHighLeverageWarning = (leverage: number) => leverage > FUTURES_HIGH_LEVERAGE_WARNING;

export interface HighLeverageGate {
  /** Runs `proceed` at once, or after the trader accepts the warning the first time above 20x. */
  guard: (leverage: number, proceed: () => void) => void;
  dialog: React.ReactNode;
}

/** The risk confirmation shown the first time an account uses leverage above 20x. */
export function useHighLeverageGate(): HighLeverageGate {
  const accountId = useSignedInAccountId();
  const [pending, setPending] = useState<{ leverage: number; proceed: () => void } | null>(null);
  const guard = useCallback(
    (leverage: number, proceed: () => void) => {
      const acknowledged = accountId !== null && readStorage(highLeverageKey(accountId)) === '1';
      if (!needsHighLeverageWarning(leverage) || acknowledged) proceed();
      else setPending({ leverage, proceed });
    },
    [accountId],
  );
  const accept = () => {
    if (accountId !== null) writeStorage(highLeverageKey(accountId), '1');
    const next = pending;
    setPending(null);
    next?.proceed();
  };
  const dialog = pending ? (
    <HighLeverageDialog leverage={pending.leverage} onAccept={accept} onCancel={() => setPending(null)} />
  ) : null;
  return { guard, dialog };
}

function HighLeverageDialog({
  leverage,
  onAccept,
  onCancel,
}: {
  leverage: number;
  onAccept: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  // A rough figure for the sentence only (no amount is computed from it).
  const move = localizedNumber((100 / leverage).toFixed(1));
  return (
    <Modal open onClose={onCancel} labelledBy={titleId} maxWidthPx={440} testId="futures-risk-dialog">
      <h2 id={titleId} className="fut-dialog-title">
        {t('futures.risk.title')}
      </h2>
      <p>{t('futures.risk.body', { threshold: FUTURES_HIGH_LEVERAGE_WARNING, move })}</p>
      <div className="fut-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {t('futures.risk.cancel')}
        </button>
        <button type="button" className="btn btn-primary" onClick={onAccept} data-testid="futures-risk-accept">
          {t('futures.risk.accept')}
        </button>
      </div>
    </Modal>
  );
}
