/**
 * The parts the interface texts are split into. `shell`, `server` and `notices` load before the first paint;
 * each screen part loads with the screen that uses it (its route module calls addScreenTexts).
 * English is bundled with the code; every other language's part is a JSON file,
 * locales/<code>/<part>.json, fetched when a screen needs it (i18n/locale-loader.ts).
 */
export const rootParts = ['shell', 'server', 'notices'] as const;
export const screenParts = [
  'wallet',
  'trade',
  'tradeMarket',
  'history',
  'futures',
  'settings',
  'portfolio',
  'analytics',
] as const;
export const textParts = [...rootParts, ...screenParts] as const;

export type RootPart = (typeof rootParts)[number];
export type ScreenPart = (typeof screenParts)[number];
export type TextPart = (typeof textParts)[number];

export function isRootPart(part: TextPart): part is RootPart {
  return (rootParts as readonly string[]).includes(part);
}
