import { useAppStore } from '../state/app-store.ts';
import { broadcastLogout } from './auth-events.ts';
import { createApiClient } from './client.ts';
import { readStoredAccessToken, writeStoredAccessToken } from './token-storage.ts';

/** The main API client of the app (spec §7.2): same origin, 5 s timeout, bearer from the state. */
export const apiClient = createApiClient({
  getAccessToken: () => useAppStore.getState().accessToken ?? readStoredAccessToken(),
  onAccessToken: (token) => useAppStore.getState().setAccessToken(token),
  onSessionExpired: () => {
    writeStoredAccessToken(null);
    broadcastLogout();
  },
});
