import clsx from 'clsx';
import { useMemo } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ui/select-field.tsx';
import { ToggleSwitch } from '../../components/ui/toggle-switch.tsx';
import { formatUsdPrice, pairSymbol } from '../../lib/format.ts';
import { useAppStore } from '../../state/app-store.ts';
import {
  CANCEL_UNDO_MS,
  type CancelMode,
  cancelModes,
  DEVICE_TIME_ZONE,
  localizeSeparators,
  type NumberFormatId,
  numberFormats,
  numberSeparators,
  type Preferences,
  type SmallBalanceThreshold,
  smallBalanceThresholds,
  usePreferences,
} from '../../state/preferences-store.ts';
import { usePairs } from '../market-data/index.ts';
import '../../theme/preferences.css';

const UNDO_SECONDS = CANCEL_UNDO_MS / 1000;
const NUMBER_SAMPLE = '1,234,567.89';

/** Every zone the browser knows, UTC first; older browsers without the list get UTC only. */
function timeZoneOptions(): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...supported.filter((zone) => zone !== 'UTC')];
}

function deviceTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Settings > Preferences: each choice applies and is kept at once (this browser), like the
 * notification settings. The trade page, the balance lists and every number and date read them.
 */
export function PreferencesSection() {
  const { t, i18n } = useTranslation();
  const preferences = usePreferences();
  const setSelectedTradingPair = useAppStore((state) => state.setSelectedTradingPair);
  const pairs = usePairs().data;
  const pairIds = useMemo(() => {
    const active = (pairs ?? []).filter((pair) => pair.is_active).map((pair) => pair.id);
    return active.includes(preferences.defaultPair) ? active : [preferences.defaultPair, ...active];
  }, [pairs, preferences.defaultPair]);
  const zones = useMemo(timeZoneOptions, []);

  const change = <K extends keyof Preferences>(key: K, value: Preferences[K]) => {
    preferences.setPreference(key, value);
    // The trade page opens on the new default at once, not on the pair seen last this session.
    if (key === 'defaultPair') setSelectedTradingPair(pairSymbol(value as string));
    toast.success(t('success.settingsSaved'), { id: 'settings-saved' });
  };
  const example = (format: NumberFormatId) =>
    localizeSeparators(NUMBER_SAMPLE, numberSeparators(format, i18n.language));

  return (
    <section className="settings-card" aria-labelledby="settings-preferences-title" data-testid="settings-preferences">
      <h2 id="settings-preferences-title" className="settings-card-title">
        {t('settings.preferences.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.preferences.description')}</p>

      <h3 className="settings-group-title">{t('settings.preferences.tradingGroup')}</h3>
      <SelectField
        label={t('settings.preferences.defaultPair')}
        hint={t('settings.preferences.defaultPairHint')}
        value={preferences.defaultPair}
        onChange={(event) => change('defaultPair', event.target.value)}
        data-testid="preference-default-pair"
      >
        {pairIds.map((id) => (
          <option key={id} value={id}>
            {pairSymbol(id)}
          </option>
        ))}
      </SelectField>
      <div className="toggle-list">
        <ToggleSwitch
          label={t('settings.preferences.confirmOrders')}
          hint={t('settings.preferences.confirmOrdersHint')}
          checked={preferences.confirmOrders}
          onChange={(value) => change('confirmOrders', value)}
          testId="preference-confirm-orders"
        />
      </div>
      <fieldset className="settings-choices">
        <legend className="field-label">{t('settings.preferences.cancelMode')}</legend>
        {cancelModes.map((mode) => (
          <label key={mode} className={clsx('settings-choice', preferences.cancelMode === mode && 'active')}>
            <input
              type="radio"
              name="cancel-mode"
              value={mode}
              checked={preferences.cancelMode === mode}
              onChange={() => change('cancelMode', mode as CancelMode)}
              data-testid={`preference-cancel-${mode}`}
            />
            {t(`settings.preferences.cancelModes.${mode}`, { seconds: UNDO_SECONDS })}
          </label>
        ))}
        <p className="field-hint">{t('settings.preferences.cancelModeHint', { seconds: UNDO_SECONDS })}</p>
      </fieldset>

      <h3 className="settings-group-title">{t('settings.preferences.walletGroup')}</h3>
      <div className="toggle-list">
        <ToggleSwitch
          label={t('settings.preferences.hideSmallBalances')}
          hint={t('settings.preferences.hideSmallBalancesHint')}
          checked={preferences.hideSmallBalances}
          onChange={(value) => change('hideSmallBalances', value)}
          testId="preference-hide-small"
        />
      </div>
      <SelectField
        label={t('settings.preferences.smallBalanceUsd')}
        value={preferences.smallBalanceUsd}
        disabled={!preferences.hideSmallBalances}
        onChange={(event) => change('smallBalanceUsd', event.target.value as SmallBalanceThreshold)}
        data-testid="preference-small-threshold"
      >
        {smallBalanceThresholds.map((amount) => (
          <option key={amount} value={amount}>
            {formatUsdPrice(amount)}
          </option>
        ))}
      </SelectField>

      <h3 className="settings-group-title">{t('settings.preferences.displayGroup')}</h3>
      <SelectField
        label={t('settings.preferences.timeZone')}
        hint={t('settings.preferences.timeZoneHint')}
        value={preferences.timeZone}
        onChange={(event) => change('timeZone', event.target.value)}
        data-testid="preference-time-zone"
      >
        <option value={DEVICE_TIME_ZONE}>{t('settings.preferences.timeZoneDevice', { zone: deviceTimeZone() })}</option>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone.replaceAll('_', ' ')}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('settings.preferences.numberFormat')}
        hint={t('settings.preferences.numberFormatHint')}
        value={preferences.numberFormat}
        onChange={(event) => change('numberFormat', event.target.value as NumberFormatId)}
        data-testid="preference-number-format"
      >
        {numberFormats.map((format) => (
          <option key={format} value={format}>
            {t(`settings.preferences.numberFormats.${format}`, { example: example(format) })}
          </option>
        ))}
      </SelectField>
    </section>
  );
}
