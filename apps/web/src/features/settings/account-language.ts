import type { Account, LanguageCode } from '@platform/contracts';
import { useEffect } from 'react';
import { accountsApi } from '../../api/accounts.ts';
import { useAppStore } from '../../state/app-store.ts';

/**
 * The account's language (docs/i18n.md "Server texts"): a signed-in user's change of language
 * (the store's setLanguage, from Settings > Language or the top bar) is saved to the account, so the
 * server writes its mails in it; at the start of a session the account's saved language, if any,
 * becomes the interface language (PreferenceSync in app.tsx then switches the texts).
 */

type SaveLanguage = (accountId: string, language: LanguageCode) => Promise<Account>;
type Store = Pick<typeof useAppStore, 'getState' | 'subscribe'>;

const saveToProfile: SaveLanguage = (accountId, language) => accountsApi.updateProfile(accountId, { language });

/** Starts following the store; returns the function that stops. */
export function startAccountLanguageSync(store: Store = useAppStore, save: SaveLanguage = saveToProfile): () => void {
  // Saves run one after another, so the account ends with the last choice even when clicks race.
  let saving: Promise<void> = Promise.resolve();
  const saveLatest = (accountId: string) => {
    saving = saving.then(async () => {
      const { user, language } = store.getState();
      if (user?.id !== accountId || user.profile.language === language) return;
      const updated = await save(accountId, language).catch(() => null);
      // An account that signed out (or another that signed in) meanwhile keeps what it has.
      if (updated && store.getState().user?.id === accountId) store.getState().setUser(updated);
    });
  };
  return store.subscribe((state, previous) => {
    const user = state.user;
    if (!user) return;
    if (user.id !== previous.user?.id) {
      const chosen = user.profile.language;
      if (chosen && chosen !== state.language) state.setLanguage(chosen);
      return;
    }
    if (state.language !== previous.language && user.profile.language !== state.language) saveLatest(user.id);
  });
}

/** Mounted once, at the app's root. */
export function useAccountLanguageSync(): void {
  useEffect(() => startAccountLanguageSync(), []);
}
