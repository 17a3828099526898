import {
  isLightTheme,
  languageCodes,
  languages,
  lightThemeIds,
  matchLanguageTag,
  themeIds,
  themes,
} from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { applyTheme, themeVariables, withScriptFont } from './apply-theme.ts';

const shape = (value: object): string[] => Object.keys(value).sort();

describe('themes (spec §3.1)', () => {
  it('has the eight themes, three of them light', () => {
    expect(themeIds).toHaveLength(8);
    expect([...lightThemeIds].sort()).toEqual(['brightLight', 'gradientSunset', 'pastelMinimal']);
    expect(isLightTheme('darkMode')).toBe(false);
  });

  it('gives every theme the complete token set', () => {
    const reference = themes.darkMode;
    for (const id of themeIds) {
      const theme = themes[id];
      expect(theme.id).toBe(id);
      for (const group of ['colors', 'fonts', 'spacing', 'borderRadius', 'shadows', 'effects'] as const) {
        expect(shape(theme[group]), `${id}.${group}`).toEqual(shape(reference[group]));
        for (const value of Object.values(theme[group])) expect(value, `${id}.${group}`).not.toBe('');
      }
    }
  });

  it('makes every theme distinct', () => {
    const palettes = new Set(themeIds.map((id) => JSON.stringify(themes[id].colors)));
    const primaries = new Set(themeIds.map((id) => themes[id].colors.primary));
    expect(palettes.size).toBe(8);
    expect(primaries.size).toBe(8);
  });

  it('turns a theme into CSS variables on the document', () => {
    expect(themeVariables(themes.darkMode)).toMatchObject({
      '--color-surface-raised': themes.darkMode.colors.surfaceRaised,
      '--font-size-2xl': themes.darkMode.fonts.size2xl,
      '--radius-md': themes.darkMode.borderRadius.md,
      '--effect-primary-fill': themes.darkMode.effects.primaryFill,
    });
    applyTheme('pastelMinimal');
    expect(document.documentElement.dataset.theme).toBe('pastelMinimal');
    expect(document.documentElement.style.colorScheme).toBe('light');
    expect(document.documentElement.style.getPropertyValue('--color-primary')).toBe(
      themes.pastelMinimal.colors.primary,
    );
  });
});

describe('languages (spec §3.1, §9)', () => {
  it('lists the 22 languages with code, name and flag; Arabic reads right to left', () => {
    expect(languages).toHaveLength(22);
    expect(new Set(languageCodes).size).toBe(22);
    for (const language of languages) {
      expect(language.name.length).toBeGreaterThan(0);
      expect(language.country).toMatch(/^[A-Z]{2}$/);
    }
    expect(languages.filter((language) => language.dir === 'rtl').map((language) => language.code)).toEqual(['ar']);
  });

  it('maps browser and page language tags onto ours', () => {
    expect(matchLanguageTag('de-AT')).toBe('de');
    expect(matchLanguageTag('zh-Hans-CN')).toBe('zh');
    expect(matchLanguageTag('nb-NO')).toBe('no');
    expect(matchLanguageTag('pt_BR')).toBe('pt');
    expect(matchLanguageTag('xx')).toBeNull();
    expect(matchLanguageTag(undefined)).toBeNull();
  });
});

describe('script fonts in every theme (issue F11: no tofu for CJK, Devanagari, Arabic)', () => {
  it('names the script font before the generic family, which would otherwise answer with empty boxes', () => {
    expect(withScriptFont('Inter, Arial, sans-serif')).toBe('Inter, Arial, var(--font-script), sans-serif');
    expect(withScriptFont("'JetBrains Mono', monospace")).toBe("'JetBrains Mono', var(--font-script), monospace");
    expect(withScriptFont("'Manrope'")).toBe("'Manrope', var(--font-script)");
    for (const theme of Object.values(themes)) {
      const variables = themeVariables(theme);
      for (const token of ['--font-body', '--font-heading', '--font-mono']) {
        expect(variables[token]).toMatch(/var\(--font-script\)(, [a-z-]+)?$/);
      }
    }
  });
});
