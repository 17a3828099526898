import { useTranslation } from 'react-i18next';
import { BeingBuilt } from '../../components/ui/being-built.tsx';

export function PreferencesSection() {
  const { t } = useTranslation();
  return (
    <section className="settings-card" aria-labelledby="settings-preferences-title">
      <h2 id="settings-preferences-title" className="settings-card-title">
        {t('settings.preferences.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.preferences.description')}</p>
      <BeingBuilt />
    </section>
  );
}
