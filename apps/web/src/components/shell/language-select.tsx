import { isLanguageCode, languageByCode, languages } from '@platform/contracts';
import { ChevronDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';
import { loadAllScriptFonts } from '../../theme/script-fonts.ts';
import { Flag } from '../flag/flag.tsx';

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
    <div className="select-pill" title={t('topBar.language')} onPointerEnter={loadAllScriptFonts}>
      <span className="select-pill-face" aria-hidden="true">
        <Flag country={current.country} />
        <span className="select-pill-text">{current.code.toUpperCase()}</span>
        <ChevronDown size={14} />
      </span>
      <select
        className="select-pill-native"
        aria-label={t('topBar.language')}
        data-testid="language-select"
        value={language}
        onFocus={loadAllScriptFonts}
        onChange={(event) => {
          if (isLanguageCode(event.target.value)) setLanguage(event.target.value);
        }}
      >
        {languages.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}
