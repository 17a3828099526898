import { languages } from '@platform/contracts';
import clsx from 'clsx';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';

export function LanguageSection() {
  const { t } = useTranslation();
  const current = useAppStore((state) => state.language);
  const setLanguage = useAppStore((state) => state.setLanguage);
  return (
    <section className="settings-card" aria-labelledby="settings-language-title">
      <h2 id="settings-language-title" className="settings-card-title">
        {t('settings.language.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.language.description')}</p>
      <ul className="language-list">
        {languages.map((language) => {
          const active = language.code === current;
          return (
            <li key={language.code}>
              <button
                type="button"
                className={clsx('language-option', active && 'active')}
                aria-pressed={active}
                lang={language.code}
                data-testid={`language-option-${language.code}`}
                onClick={() => setLanguage(language.code)}
              >
                <span className="flag" aria-hidden="true">
                  {language.flag}
                </span>
                <span className="language-names">
                  <span className="language-name">{language.name}</span>
                  <span className="language-english">
                    {language.englishName}
                    {language.fullText ? '' : ` · ${t('settings.language.partial')}`}
                  </span>
                </span>
                {active ? <Check size={16} aria-hidden="true" className="language-check" /> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
