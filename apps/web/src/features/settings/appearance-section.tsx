import { themeIds, themes } from '@platform/contracts';
import clsx from 'clsx';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../state/app-store.ts';

export function AppearanceSection() {
  const { t } = useTranslation();
  const current = useAppStore((state) => state.theme);
  const setTheme = useAppStore((state) => state.setTheme);
  return (
    <section className="settings-card" aria-labelledby="settings-appearance-title">
      <h2 id="settings-appearance-title" className="settings-card-title">
        {t('settings.appearance.heading')}
      </h2>
      <p className="settings-card-description">{t('settings.appearance.description')}</p>
      <div className="theme-grid">
        {themeIds.map((id) => {
          const theme = themes[id];
          const active = id === current;
          return (
            <button
              key={id}
              type="button"
              className={clsx('theme-card', active && 'active')}
              aria-pressed={active}
              data-testid={`theme-card-${id}`}
              onClick={() => setTheme(id)}
            >
              <span
                className="theme-preview"
                style={{ background: theme.colors.background, borderRadius: theme.borderRadius.md }}
                aria-hidden="true"
              >
                <span className="theme-preview-bar" style={{ background: theme.colors.surface }} />
                <span className="theme-preview-body">
                  <span className="theme-preview-panel" style={{ background: theme.colors.surfaceRaised }}>
                    <span style={{ background: theme.colors.text }} className="theme-preview-line" />
                    <span style={{ background: theme.colors.textMuted }} className="theme-preview-line short" />
                  </span>
                  <span className="theme-preview-swatches">
                    <span style={{ background: theme.effects.primaryFill }} />
                    <span style={{ background: theme.colors.success }} />
                    <span style={{ background: theme.colors.danger }} />
                  </span>
                </span>
              </span>
              <span className="theme-card-meta">
                <span className="theme-card-name">{t(`themes.${id}`)}</span>
                <span className="theme-card-mode">
                  {theme.mode === 'light' ? t('settings.appearance.light') : t('settings.appearance.dark')}
                </span>
              </span>
              {active ? (
                <span className="theme-card-check">
                  <Check size={14} aria-hidden="true" />
                  <span className="visually-hidden">{t('settings.appearance.active')}</span>
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
    </section>
  );
}
