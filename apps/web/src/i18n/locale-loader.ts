import type { LanguageCode } from '@platform/contracts';
import { loadScriptFont } from '../theme/script-fonts.ts';
import { i18n } from './i18n.ts';
import { isRootPart, rootParts, type TextPart } from './text-parts.ts';

type TextTree = Record<string, unknown>;

// The map of every language's chunks loads with the first language other than English.
let chunks: Promise<Record<string, () => Promise<TextTree>>> | null = null;
function localeChunks(): Promise<Record<string, () => Promise<TextTree>>> {
  chunks ??= import('./locale-chunks.ts').then(
    (module) => module.localeChunks,
    (error: unknown) => {
      chunks = null; // offline: asked again next time
      throw error;
    },
  );
  return chunks;
}

const wantedParts = new Set<TextPart>(rootParts);
const loaded = new Map<string, Promise<void>>();
const inFlight = new Set<Promise<unknown>>();

function loadPart(code: LanguageCode, part: TextPart): Promise<void> {
  if (code === 'en') return Promise.resolve();
  const id = `${code}/${part}`;
  const known = loaded.get(id);
  if (known) return known;
  const loading = localeChunks()
    .then((loaders) => loaders[`./locales/${id}.json`]?.() ?? {})
    .then((texts) => {
      i18n.addResourceBundle(code, 'translation', isRootPart(part) ? texts : { [part]: texts }, true, true);
    })
    .catch((error: unknown) => {
      // A chunk that failed to arrive (offline) is tried again on the next request; until then the
      // English text shows.
      loaded.delete(id);
      throw error;
    });
  loaded.set(id, loading);
  return loading;
}

/** Loads a language's texts for every part the page has asked for so far. */
export function loadLanguage(code: LanguageCode): Promise<void> {
  loadScriptFont(code);
  return Promise.all([...wantedParts].map((part) => loadPart(code, part))).then(() => undefined);
}

/** A screen's parts: wanted from now on, and loading in the current language. */
export function wantParts(parts: readonly TextPart[], code: LanguageCode): void {
  for (const part of parts) wantedParts.add(part);
  const loading = Promise.all(parts.map((part) => loadPart(code, part))).catch(() => undefined);
  inFlight.add(loading);
  void loading.then(() => inFlight.delete(loading));
}

/** Resolves once the texts asked for so far have arrived (a route module awaits it before rendering). */
export function textsReady(): Promise<void> {
  return Promise.all([...inFlight]).then(() => undefined);
}

/** Switches the language without reloading the page: its texts first, then the switch. */
export async function switchLanguage(code: LanguageCode): Promise<void> {
  await loadLanguage(code).catch(() => undefined);
  if (i18n.language !== code) await i18n.changeLanguage(code);
}
