import { ORDER_SIDES, ORDER_TYPES, type OrderSide, type OrderType } from '@platform/contracts';
import { RotateCcw } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { pairSymbol } from '../../lib/format.ts';
import { usePairs } from '../market-data/index.ts';
import {
  emptyHistoryFilter,
  type HistoryFilterValues,
  isFiltered,
  STATUS_FILTERS,
  type StatusFilter,
  timeRangeOf,
  withFilter,
} from './history-filter.ts';

/** The filter bar of /orders and /trades; type and status only for orders. */
export function HistoryFilters({
  values,
  onChange,
  kind,
}: {
  values: HistoryFilterValues;
  onChange: (next: HistoryFilterValues) => void;
  kind: 'orders' | 'trades';
}) {
  const { t } = useTranslation();
  const pairsQuery = usePairs();
  const pairIds = useMemo(() => {
    const ids = (pairsQuery.data ?? []).map((pair) => pair.id);
    // A linked pair that is no longer listed stays selectable, so the select shows what is applied.
    if (values.pair && !ids.includes(values.pair)) ids.push(values.pair);
    return ids.sort();
  }, [pairsQuery.data, values.pair]);
  const set = <Key extends keyof HistoryFilterValues>(key: Key, value: HistoryFilterValues[Key]) =>
    onChange(withFilter(values, key, value));
  const reversed = timeRangeOf(values).reversed;

  return (
    <fieldset className="orders-filters">
      <legend className="visually-hidden">{t('history.filters.label')}</legend>
      <SelectField
        label={t('history.filters.pair')}
        value={values.pair}
        onChange={(event) => set('pair', event.target.value)}
        data-testid="history-filter-pair"
      >
        <option value="">{t('history.filters.allPairs')}</option>
        {pairIds.map((id) => (
          <option key={id} value={id}>
            {pairSymbol(id)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('history.filters.side')}
        value={values.side}
        onChange={(event) => set('side', event.target.value as OrderSide | '')}
        data-testid="history-filter-side"
      >
        <option value="">{t('history.filters.allSides')}</option>
        {ORDER_SIDES.map((side) => (
          <option key={side} value={side}>
            {t(`history.sides.${side}`)}
          </option>
        ))}
      </SelectField>
      {kind === 'orders' ? (
        <>
          <SelectField
            label={t('history.filters.type')}
            value={values.type}
            onChange={(event) => set('type', event.target.value as OrderType | '')}
            data-testid="history-filter-type"
          >
            <option value="">{t('history.filters.allTypes')}</option>
            {ORDER_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`history.types.${type}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('history.filters.status')}
            value={values.status}
            onChange={(event) => set('status', event.target.value as StatusFilter | '')}
            data-testid="history-filter-status"
          >
            <option value="">{t('history.filters.allStatuses')}</option>
            {STATUS_FILTERS.map((status) => (
              <option key={status} value={status}>
                {t(`history.statuses.${status}`)}
              </option>
            ))}
          </SelectField>
        </>
      ) : null}
      <TextField
        type="date"
        label={t('history.filters.from')}
        value={values.from}
        max={values.to || undefined}
        onChange={(event) => set('from', event.target.value)}
        data-testid="history-filter-from"
      />
      <TextField
        type="date"
        label={t('history.filters.to')}
        value={values.to}
        min={values.from || undefined}
        onChange={(event) => set('to', event.target.value)}
        data-testid="history-filter-to"
      />
      {isFiltered(values) ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm orders-filters-reset"
          onClick={() => onChange(emptyHistoryFilter)}
          data-testid="history-filter-reset"
        >
          <RotateCcw size={14} aria-hidden="true" />
          {t('history.filters.reset')}
        </button>
      ) : null}
      {reversed ? (
        <p className="orders-filters-problem" role="status">
          {t('history.filters.rangeReversed')}
        </p>
      ) : null}
    </fieldset>
  );
}
