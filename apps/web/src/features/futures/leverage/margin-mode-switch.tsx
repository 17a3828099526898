import { MARGIN_MODES, type MarginMode } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { futuresApi } from '../../../api/futures.ts';
import { Segmented } from '../../../components/ui/segmented.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { futuresKeys } from '../futures-queries.ts';

/**
 * Cross / isolated for this market. The server refuses a change while a position or an open order
 * exists (MARGIN_MODE_LOCKED); its words are shown under the switch and the mode stays.
 */
export function MarginModeSwitch({ marketId, mode }: { marketId: string; mode: MarginMode | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (next: MarginMode) => futuresApi.setMarginMode(marketId, next),
    onSuccess: (_answer, next) => {
      void queryClient.invalidateQueries({ queryKey: futuresKeys.all });
      toast.success(t('futures.marginMode.saved', { mode: t(`futures.marginMode.${next}`) }));
    },
  });
  return (
    <div className="fut-margin-mode">
      <Segmented<MarginMode>
        legend={t('futures.marginMode.label')}
        options={MARGIN_MODES}
        value={change.isPending && change.variables ? change.variables : (mode ?? 'cross')}
        onChange={(next) => {
          if (next !== mode) change.mutate(next);
        }}
        label={(option) => t(`futures.marginMode.${option}`)}
        testId={(option) => `futures-margin-mode-${option}`}
      />
      {change.error ? (
        <p className="fut-form-error" role="alert" data-testid="futures-margin-mode-error">
          {errorMessage(change.error, t, 'futures.states.failed')}
        </p>
      ) : null}
    </div>
  );
}
