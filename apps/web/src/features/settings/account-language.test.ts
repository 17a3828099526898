import type { Account, LanguageCode } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { startAccountLanguageSync } from './account-language.ts';

const withLanguage = (language: LanguageCode | null, id = 'account-1'): Account => {
  const account = makeAccount({ id });
  return { ...account, profile: { ...account.profile, language } };
};

describe('account language', () => {
  let stop: () => void = () => undefined;
  const saved: Array<[string, LanguageCode]> = [];
  const save = vi.fn(async (id: string, language: LanguageCode) => {
    saved.push([id, language]);
    return withLanguage(language, id);
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  beforeEach(() => {
    saved.length = 0;
    save.mockClear();
    useAppStore.getState().clearSession();
    useAppStore.getState().setLanguage('en');
    stop = startAccountLanguageSync(useAppStore, save);
  });
  afterEach(() => stop());

  it("adopts the account's language when a session starts", () => {
    useAppStore.getState().setUser(withLanguage('de'));
    expect(useAppStore.getState().language).toBe('de');
    expect(save).not.toHaveBeenCalled();
  });

  it('keeps the current language when the account has none, and saves nothing', () => {
    useAppStore.getState().setLanguage('fr');
    useAppStore.getState().setUser(withLanguage(null));
    expect(useAppStore.getState().language).toBe('fr');
    expect(save).not.toHaveBeenCalled();
  });

  it("saves a signed-in user's change to the account and keeps the answer as the user", async () => {
    useAppStore.getState().setUser(withLanguage('de'));
    useAppStore.getState().setLanguage('ja');
    await settle();
    expect(saved).toEqual([['account-1', 'ja']]);
    expect(useAppStore.getState().user?.profile.language).toBe('ja');
  });

  it('saves only the last of quick changes, one request at a time', async () => {
    useAppStore.getState().setUser(withLanguage(null));
    useAppStore.getState().setLanguage('ja');
    useAppStore.getState().setLanguage('ko');
    useAppStore.getState().setLanguage('pl');
    await settle();
    await settle();
    expect(saved.at(-1)).toEqual(['account-1', 'pl']);
    expect(useAppStore.getState().user?.profile.language).toBe('pl');
  });

  it('saves nothing while nobody is signed in', async () => {
    useAppStore.getState().setLanguage('ru');
    await settle();
    expect(save).not.toHaveBeenCalled();
  });

  it('survives a failed save: the interface keeps the choice', async () => {
    save.mockRejectedValueOnce(new Error('offline'));
    useAppStore.getState().setUser(withLanguage('de'));
    useAppStore.getState().setLanguage('sv');
    await settle();
    expect(useAppStore.getState().language).toBe('sv');
    expect(useAppStore.getState().user?.profile.language).toBe('de');
  });

  it("does not give one account's answer to the account that signed in after it", async () => {
    let release: (account: Account) => void = () => undefined;
    save.mockImplementationOnce(() => new Promise<Account>((resolve) => (release = resolve)));
    useAppStore.getState().setUser(withLanguage('de'));
    useAppStore.getState().setLanguage('it');
    await settle();
    useAppStore.getState().clearSession();
    useAppStore.getState().setUser(withLanguage('fi', 'account-2'));
    release(withLanguage('it'));
    await settle();
    expect(useAppStore.getState().user?.id).toBe('account-2');
    expect(useAppStore.getState().language).toBe('fi');
  });
});
