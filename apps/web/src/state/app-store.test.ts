import { ACCESS_TOKEN_STORAGE_KEY, CLIENT_STATE_STORAGE_KEY } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { broadcastLogout } from '../api/auth-events.ts';
import { logout } from '../features/auth/session.ts';
import { json, stubFetch } from '../test/fetch-mock.ts';
import { makeAccount } from '../test/fixtures.ts';
import { type AppState, mergePersistedState, persistedKeys, readSavedLanguage, useAppStore } from './app-store.ts';

const storedState = () => JSON.parse(localStorage.getItem(CLIENT_STATE_STORAGE_KEY) ?? '{}') as { state: object };

function signIn() {
  const store = useAppStore.getState();
  store.setAccessToken('token-1');
  store.setUser(makeAccount());
  store.setWallet({ address: '0x1111111111111111111111111111111111111111', network: 'ethereum', connected: true });
  useAppStore.setState({ openOrders: [{ id: 1 }], orderHistory: [{ id: 2 }], tradeHistory: [{ id: 3 }] });
}

describe('client state (spec §3.1, §4)', () => {
  it('starts with the spec defaults: darkMode, English, signed out', () => {
    const state = useAppStore.getState();
    expect(state.theme).toBe('darkMode');
    expect(state.language).toBe('en');
    expect(state.isAuthenticated).toBe(false);
    expect(state.sidebarCollapsed).toBe(false);
  });

  it('persists only theme, language, access token, user, wallet and sidebar-collapsed', () => {
    signIn();
    const store = useAppStore.getState();
    store.setTheme('neonCyberpunk');
    store.setLanguage('de');
    store.setSidebarCollapsed(true);
    store.openModal('login');
    store.setLoading(true);
    store.setSelectedTradingPair('ETH/USD');
    expect(Object.keys(storedState().state).sort()).toEqual([...persistedKeys].sort());
    expect(storedState().state).toMatchObject({ theme: 'neonCyberpunk', language: 'de', sidebarCollapsed: true });
  });

  it('keeps the access token under its own accessToken key as well', () => {
    useAppStore.getState().setAccessToken('token-xyz');
    expect(localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY)).toBe('token-xyz');
  });

  it('setting the user makes the session authenticated', () => {
    useAppStore.getState().setUser(makeAccount());
    expect(useAppStore.getState().isAuthenticated).toBe(true);
  });

  it('counts a restored session as authenticated only with both a user and a token', () => {
    const current = useAppStore.getInitialState() as AppState;
    const user = makeAccount();
    expect(mergePersistedState({ user, accessToken: 't' }, current).isAuthenticated).toBe(true);
    expect(mergePersistedState({ user, accessToken: null }, current).isAuthenticated).toBe(false);
    expect(mergePersistedState({ user: null, accessToken: 't' }, current).isAuthenticated).toBe(false);
    expect(mergePersistedState(null, current).isAuthenticated).toBe(false);
  });

  it('drops damaged stored fields one by one instead of the whole state', () => {
    const current = useAppStore.getInitialState() as AppState;
    const merged = mergePersistedState(
      { theme: 'noSuchTheme', language: 'fr', user: { id: 1 }, accessToken: 't', sidebarCollapsed: 'yes' },
      current,
    );
    expect(merged.theme).toBe('darkMode');
    expect(merged.language).toBe('fr');
    expect(merged.user).toBeNull();
    expect(merged.sidebarCollapsed).toBe(false);
    expect(merged.isAuthenticated).toBe(false);
  });

  it('rehydrates an authenticated session from local storage', async () => {
    localStorage.setItem(
      CLIENT_STATE_STORAGE_KEY,
      JSON.stringify({ state: { user: makeAccount(), accessToken: 'saved', theme: 'ecoGreen' }, version: 1 }),
    );
    await useAppStore.persist.rehydrate();
    const state = useAppStore.getState();
    expect(state.isAuthenticated).toBe(true);
    expect(state.theme).toBe('ecoGreen');
    expect(localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY)).toBe('saved');
  });

  it('reads the saved language choice for detection', () => {
    expect(readSavedLanguage()).toBeNull();
    useAppStore.getState().setLanguage('ja');
    expect(readSavedLanguage()).toBe('ja');
  });

  it('logout clears user, token, wallet and orders, and revokes the session on the server', async () => {
    const { calls } = stubFetch({ 'POST /v1/auth/logout': () => new Response(null, { status: 204 }) });
    signIn();
    await logout();
    const state = useAppStore.getState();
    expect(state.user).toBeNull();
    expect(state.accessToken).toBeNull();
    expect(state.wallet).toBeNull();
    expect(state.isAuthenticated).toBe(false);
    expect(state.openOrders).toEqual([]);
    expect(state.orderHistory).toEqual([]);
    expect(state.tradeHistory).toEqual([]);
    expect(localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY)).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/v1/auth/logout' });
    expect(calls[0]?.headers.Authorization).toBe('Bearer token-1');
  });

  it('logout still clears the session when the server cannot be reached', async () => {
    stubFetch({ 'POST /v1/auth/logout': () => json(500, { error: { code: 'INTERNAL_ERROR', message: 'x' } }) });
    signIn();
    await logout();
    expect(useAppStore.getState().isAuthenticated).toBe(false);
  });

  it('a broadcast logout event clears the session', () => {
    signIn();
    broadcastLogout();
    expect(useAppStore.getState().user).toBeNull();
    expect(useAppStore.getState().isAuthenticated).toBe(false);
  });
});
