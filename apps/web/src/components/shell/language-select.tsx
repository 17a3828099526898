import { isLanguageCode, languageByCode, languages } from '@platform/contracts';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';

/**
 * A native select (keyboard and screen-reader friendly, scriptable by tests) drawn as a compact
 * pill: the select sits transparent over the flag and code.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const language = useAppStore((state) => state.language);
  const setLanguage = useAppStore((state) => state.setLanguage);
  const current = languageByCode(language);
  return (
    <div className="select-pill" title={t('topBar.language')}>
      <span className="select-pill-face" aria-hidden="true">
        <span className="flag">{current.flag}</span>
        <span className="select-pill-text">{current.code.toUpperCase()}</span>
        <ChevronDown size={14} />
      </span>
      <select
        className="select-pill-native"
        aria-label={t('topBar.language')}
        data-testid="language-select"
        value={language}
        onChange={(event) => {
          if (isLanguageCode(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {languages.map((option) => (
          <option key={option.code} value={option.code}>
            {`${option.flag} ${option.name}`}
          </option>
        ))}
      </select>
    </div>
  );
}
