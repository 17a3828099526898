import type { FuturesMarket } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { Modal } from '../../../components/ui/modal.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { futuresKeys, useFuturesTiers } from '../futures-queries.ts';
import { LoadState } from '../load-state.tsx';
import { useHighLeverageGate } from './high-leverage.tsx';
import { TierTable } from './tier-table.tsx';
import { maxLeverageFor, tierForNotional } from './tiers.ts';

export interface LeverageDialogProps {
  market: FuturesMarket;
  leverage: number;
  /** The position's notional (size x mark), or null when flat. */
  notional: string | null;
  onClose: () => void;
}

function useSetLeverage(marketId: string, onDone: (leverage: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (leverage: number) => futuresApi.setLeverage(marketId, leverage),
    onSuccess: (_answer, leverage) => {
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
      onDone(leverage);
    },
  });
}

/**
 * Leverage 1..the maximum of the tier the position is in, with the tier table; a refusal (e.g.
 * LEVERAGE_TOO_HIGH) is shown in the server's words and changes nothing. Above 20x the first time,
 * the risk confirmation comes first.
 */
export function LeverageDialog({ market, leverage, notional, onClose }: LeverageDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const tiers = useFuturesTiers(market.id);
  const max = maxLeverageFor(tiers.data, notional, market.max_leverage);
  const [value, setValue] = useState(Math.min(leverage, max));
  const gate = useHighLeverageGate();
  const save = useSetLeverage(market.id, (saved) => {
    toast.success(t('futures.leverage.saved', { leverage: saved }));
    onClose();
  });
  const chosen = Math.min(Math.max(1, value), max);

  return (
    <Modal open onClose={onClose} labelledBy={titleId} maxWidthPx={520} testId="futures-leverage-dialog">
      <h2 id={titleId} className="fut-dialog-title">
        {t('futures.leverage.title')}
      </h2>
      <LeverageInputs value={chosen} max={max} onChange={setValue} />
      <p className="fut-dialog-hint" data-testid="futures-leverage-max">
        {t('futures.leverage.max', { max })}
      </p>
      {save.error ? (
        <p className="fut-form-error" role="alert" data-testid="futures-leverage-error">
          {errorMessage(save.error, t, 'futures.states.failed')}
        </p>
      ) : null}
      {tiers.data ? (
        <TierTable tiers={tiers.data} currentTier={tierForNotional(tiers.data, notional)?.tier} />
      ) : (
        <LoadState
          failed={tiers.isError}
          onRetry={() => void tiers.refetch()}
          failedText="futures.leverage.tiersFailed"
        />
      )}
      <div className="fut-dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          {t('futures.leverage.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={save.isPending}
          onClick={() => gate.guard(chosen, () => save.mutate(chosen))}
          data-testid="futures-leverage-confirm"
        >
          {t('futures.leverage.confirm')}
        </button>
      </div>
      {gate.dialog}
    </Modal>
  );
}

function LeverageInputs({ value, max, onChange }: { value: number; max: number; onChange: (value: number) => void }) {
  const { t } = useTranslation();
  const read = (text: string) => onChange(Math.trunc(Number(text)) || 1);
  return (
    <div className="fut-leverage-inputs">
      <input
        type="range"
        min={1}
        max={max}
        step={1}
        value={value}
        aria-label={t('futures.leverage.slider')}
        onChange={(event) => read(event.target.value)}
        data-testid="futures-leverage-slider"
      />
      <label className="fut-leverage-number">
        <span className="visually-hidden">{t('futures.leverage.slider')}</span>
        <input
          className="input tabular"
          type="number"
          min={1}
          max={max}
          value={value}
          onChange={(event) => read(event.target.value)}
          data-testid="futures-leverage-input"
        />
        <span aria-hidden="true">x</span>
      </label>
    </div>
  );
}
