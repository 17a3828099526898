import { LOT_METHOD_NAMES, type LotMethodName } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { portfolioApi } from '../../api/portfolio.ts';
import { useSignedInAccountId } from '../wallet/use-wallet.ts';
import { portfolioKeys } from './use-portfolio.ts';

/**
 * The lot method of the cost basis (FIFO, LIFO, HIFO), stored on the server for the account: a
 * choice is saved, then the summary is read again with the new figures.
 */
export function LotMethodSelect({ method }: { method: LotMethodName }) {
  const { t } = useTranslation();
  const accountId = useSignedInAccountId();
  const queryClient = useQueryClient();
  const selectId = useId();
  const hintId = useId();
  const mutation = useMutation({
    mutationFn: (lotMethod: LotMethodName) => portfolioApi.updateSettings({ lot_method: lotMethod }),
    onSuccess: () => {
      if (accountId) return queryClient.invalidateQueries({ queryKey: portfolioKeys.summary(accountId) });
    },
  });
  const shown = mutation.isPending ? mutation.variables : method;
  return (
    <div className="pf-method">
      <label className="pf-method-label" htmlFor={selectId}>
        {t('portfolio.holdings.method.label')}
        <select
          id={selectId}
          className="input select pf-method-select"
          value={shown}
          disabled={mutation.isPending}
          aria-describedby={hintId}
          onChange={(event) => mutation.mutate(event.target.value as LotMethodName)}
          data-testid="portfolio-lot-method"
        >
          {LOT_METHOD_NAMES.map((name) => (
            <option key={name} value={name} title={t(`portfolio.holdings.method.${name}Hint`)}>
              {t(`portfolio.holdings.method.${name}`)}
            </option>
          ))}
        </select>
      </label>
      <p id={hintId} className="pf-method-hint muted" aria-live="polite" data-testid="portfolio-lot-method-hint">
        {mutation.isPending
          ? t('portfolio.holdings.method.saving')
          : mutation.isError
            ? t('portfolio.holdings.method.failed')
            : t(`portfolio.holdings.method.${shown}Hint`)}
      </p>
    </div>
  );
}
