import { isThemeId, themeIds, themes } from '@platform/contracts';
import { ChevronDown, Palette } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';

export function ThemeSelect() {
  const { t } = useTranslation();
  const theme = useAppStore((state) => state.theme);
  const setTheme = useAppStore((state) => state.setTheme);
  return (
    <div className="select-pill" title={t('topBar.theme')}>
      <span className="select-pill-face" aria-hidden="true">
        <span className="theme-dot" style={{ background: themes[theme].colors.primary }} />
        <Palette size={16} className="select-pill-icon" />
        <span className="select-pill-text select-pill-text-wide">{t(`themes.${theme}`)}</span>
        <ChevronDown size={14} />
      </span>
      <select
        className="select-pill-native"
        aria-label={t('topBar.theme')}
        data-testid="theme-select"
        value={theme}
        onChange={(event) => {
          if (isThemeId(event.target.value)) setTheme(event.target.value);
        }}
      >
        {themeIds.map((id) => (
          <option key={id} value={id}>
            {t(`themes.${id}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
