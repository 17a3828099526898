import { type Theme, type ThemeId, themes } from '@platform/contracts';

const kebab = (name: string) => name.replace(/[A-Z0-9]+/g, (match) => `-${match.toLowerCase()}`);

/** Every token of a theme as a CSS custom property: `--color-surface-raised`, `--radius-md`... */
export function themeVariables(theme: Theme): Record<string, string> {
  const groups: Array<[string, Record<string, string>]> = [
    ['color', { ...theme.colors }],
    ['font', { ...theme.fonts }],
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
