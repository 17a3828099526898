type TextTree = Record<string, unknown>;

/**
 * Every language's parts, one chunk each (locales/<code>/<part>.json). Its own module, loaded only
 * when a language other than English is wanted: the map of some 230 chunks stays out of the shell.
 */
export const localeChunks = import.meta.glob<TextTree>(['./locales/*/*.json', '!./locales/*/_*.json'], {
  import: 'default',
});
