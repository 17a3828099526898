import { type Theme, type ThemeId, themes } from '@platform/contracts';

const kebab = (name: string) => name.replace(/[A-Z0-9]+/g, (match) => `-${match.toLowerCase()}`);

const GENERIC_FAMILY = /,\s*(sans-serif|serif|monospace|system-ui|cursive|fantasy)\s*$/;

/**
 * A font stack with the interface language's script font (--font-script, base.css) before its
 * generic family: a generic family answers every character (with empty boxes for the ones it lacks),
 * so a font named after it would never be reached.
 */
export function withScriptFont(stack: string): string {
  return GENERIC_FAMILY.test(stack)
    ? stack.replace(GENERIC_FAMILY, ', var(--font-script), $1')
    : `${stack}, var(--font-script)`;
}

/** Every token of a theme as a CSS custom property: `--color-surface-raised`, `--radius-md`... */
export function themeVariables(theme: Theme): Record<string, string> {
  const groups: Array<[string, Record<string, string>]> = [
    ['color', { ...theme.colors }],
    [
      'font',
      {
        ...theme.fonts,
        body: withScriptFont(theme.fonts.body),
        heading: withScriptFont(theme.fonts.heading),
        mono: withScriptFont(theme.fonts.mono),
      },
    ],
    ['space', { ...theme.spacing }],
    ['radius', { ...theme.borderRadius }],
    ['shadow', { ...theme.shadows }],
    ['effect', { ...theme.effects }],
  ];
  const variables: Record<string, string> = {};
  for (const [group, tokens] of groups) {
    for (const [name, value] of Object.entries(tokens)) variables[`--${group}-${kebab(name)}`] = value;
  }
  return variables;
}

export function applyTheme(themeId: ThemeId, root: HTMLElement = document.documentElement): void {
  const theme = themes[themeId];
  for (const [name, value] of Object.entries(themeVariables(theme))) root.style.setProperty(name, value);
  root.dataset.theme = theme.id;
  root.dataset.themeMode = theme.mode;
  root.style.colorScheme = theme.mode;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.colors.background);
}
