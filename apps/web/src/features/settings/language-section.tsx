import { languages } from '@platform/contracts';
import clsx from 'clsx';
import { Check } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Flag } from '../../components/flag/flag.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { loadAllScriptFonts } from '../../theme/script-fonts.ts';

export function LanguageSection() {
  const { t } = useTranslation();
  const current = useAppStore((state) => state.language);
  const setLanguage = useAppStore((state) => state.setLanguage);
  // Every native name shows here: the fonts for the scripts a system may lack come with the list.
  useEffect(loadAllScriptFonts, []);
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
                <Flag country={language.country} />
                <span className="language-names">
                  <span className="language-name">{language.name}</span>
                  <span className="language-english" lang="en">
                    {language.englishName}
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
