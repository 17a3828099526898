import {
  type Account,
  accountSchema,
  CLIENT_STATE_STORAGE_KEY,
  DEFAULT_LANGUAGE_CODE,
  DEFAULT_THEME_ID,
  type LanguageCode,
  languageCodeSchema,
  type ThemeId,
  themeIdSchema,
  walletTypeSchema,
} from '@platform/contracts';
import { z } from 'zod';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { onLogoutBroadcast } from '../api/auth-events.ts';
import { writeStoredAccessToken } from '../api/token-storage.ts';
import { readJsonStorage } from '../lib/safe-storage.ts';
import { usePreferences } from './preferences-store.ts';

export const walletStateSchema = z.object({
  address: z.string().min(1),
  network: walletTypeSchema,
  connected: z.boolean(),
});
export type WalletState = z.infer<typeof walletStateSchema>;

/** Spec §3.1: the only fields that survive a reload. */
export const persistedKeys = ['theme', 'language', 'accessToken', 'user', 'wallet', 'sidebarCollapsed'] as const;

/**
 * Local storage is outside data: each field is parsed on its own, so one damaged field falls back
 * to its default without discarding the others.
 */
const persistedStateSchema = z.object({
  theme: themeIdSchema.catch(DEFAULT_THEME_ID),
  language: languageCodeSchema.catch(DEFAULT_LANGUAGE_CODE),
  accessToken: z.string().min(1).nullable().catch(null),
  user: accountSchema.nullable().catch(null),
  wallet: walletStateSchema.nullable().catch(null),
  sidebarCollapsed: z.boolean().catch(false),
});
type PersistedState = z.infer<typeof persistedStateSchema>;

export type ModalName = 'login' | 'register';

export interface AppState extends PersistedState {
  isAuthenticated: boolean;
  selectedTradingPair: string;
  /** Filled by the trading issue; typed loosely until its contracts exist. */
  tradingPairs: unknown[];
  openOrders: unknown[];
  orderHistory: unknown[];
  tradeHistory: unknown[];
  showLoginModal: boolean;
  showRegisterModal: boolean;
  isLoading: boolean;
  notifications: unknown[];
  /**
   * The page a login-required route turned the user away from, while the login (or register) modal
   * it opened is up. A login from that modal goes there; dismissing the modal forgets it.
   */
  loginReturnPath: string | null;

  setTheme: (theme: ThemeId) => void;
  setLanguage: (language: LanguageCode) => void;
  setAccessToken: (token: string | null) => void;
  /** Spec §4: setting the user makes the session authenticated. */
  setUser: (user: Account | null) => void;
  setWallet: (wallet: WalletState | null) => void;
  setSidebarCollapsed: (collapsed: boolean) => void;
  toggleSidebar: () => void;
  setSelectedTradingPair: (pair: string) => void;
  setLoading: (loading: boolean) => void;
  openModal: (modal: ModalName) => void;
  /** The login guard: opens the login modal and remembers where to go after the login. */
  requireLogin: (returnPath: string) => void;
  setLoginReturnPath: (path: string | null) => void;
  closeModals: () => void;
  /** Spec §4: logout clears user, token, wallet, open orders, order history and trade history. */
  clearSession: () => void;
}

const defaults = {
  theme: DEFAULT_THEME_ID,
  language: DEFAULT_LANGUAGE_CODE,
  accessToken: null,
  user: null,
  wallet: null,
  sidebarCollapsed: false,
  isAuthenticated: false,
  // A new session opens on the default market chosen in Settings > Preferences.
  selectedTradingPair: usePreferences.getState().defaultPair.replace('_', '/'),
  tradingPairs: [],
  openOrders: [],
  orderHistory: [],
  tradeHistory: [],
  showLoginModal: false,
  showRegisterModal: false,
  isLoading: false,
  notifications: [],
  loginReturnPath: null,
} satisfies Partial<AppState>;

/** Spec §4: at start the session counts as authenticated only if both a user and a token persist. */
export function mergePersistedState(persisted: unknown, current: AppState): AppState {
  if (typeof persisted !== 'object' || persisted === null) return current;
  const parsed = persistedStateSchema.partial().safeParse(persisted);
  if (!parsed.success) return current;
  const restored = { ...current, ...parsed.data };
  return { ...restored, isAuthenticated: restored.user !== null && restored.accessToken !== null };
}

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      ...defaults,
      setTheme: (theme) => set({ theme }),
      setLanguage: (language) => set({ language }),
      setAccessToken: (accessToken) => {
        writeStoredAccessToken(accessToken);
        set({ accessToken });
      },
      setUser: (user) => set({ user, isAuthenticated: user !== null }),
      setWallet: (wallet) => set({ wallet }),
      setSidebarCollapsed: (sidebarCollapsed) => set({ sidebarCollapsed }),
      toggleSidebar: () => set((state) => ({ sidebarCollapsed: !state.sidebarCollapsed })),
      setSelectedTradingPair: (selectedTradingPair) => set({ selectedTradingPair }),
      setLoading: (isLoading) => set({ isLoading }),
      openModal: (modal) => set({ showLoginModal: modal === 'login', showRegisterModal: modal === 'register' }),
      closeModals: () => set({ showLoginModal: false, showRegisterModal: false }),
      requireLogin: (loginReturnPath) => set({ loginReturnPath, showLoginModal: true, showRegisterModal: false }),
      setLoginReturnPath: (loginReturnPath) => set({ loginReturnPath }),
      clearSession: () => {
        writeStoredAccessToken(null);
        set({
          user: null,
          accessToken: null,
          wallet: null,
          isAuthenticated: false,
          openOrders: [],
          orderHistory: [],
          tradeHistory: [],
        });
      },
    }),
    {
      name: CLIENT_STATE_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): PersistedState => ({
        theme: state.theme,
        language: state.language,
        accessToken: state.accessToken,
        user: state.user,
        wallet: state.wallet,
        sidebarCollapsed: state.sidebarCollapsed,
      }),
      merge: mergePersistedState,
      onRehydrateStorage: () => (state) => {
        // Keep the separate accessToken key in step with the restored state.
        if (state) writeStoredAccessToken(state.accessToken);
      },
    },
  ),
);

/** The language the user chose earlier, if one was saved (spec §9: detection starts there). */
export function readSavedLanguage(): LanguageCode | null {
  const stored = readJsonStorage(CLIENT_STATE_STORAGE_KEY);
  if (typeof stored !== 'object' || stored === null || !('state' in stored)) return null;
  const state = (stored as { state: unknown }).state;
  if (typeof state !== 'object' || state === null || !('language' in state)) return null;
  const parsed = languageCodeSchema.safeParse((state as { language: unknown }).language);
  return parsed.success ? parsed.data : null;
}

onLogoutBroadcast(() => useAppStore.getState().clearSession());
