import { PAYMENT_API_TIMEOUT_MS } from '@platform/contracts';
import { useAppStore } from '../state/app-store.ts';
import { broadcastLogout } from './auth-events.ts';
import { createApiClient } from './client.ts';
import { readStoredAccessToken, writeStoredAccessToken } from './token-storage.ts';

/** Spec §7.4: the payment-provider API lives under /v1/{payment-provider}. */
export const PROVIDER_API_BASE = '/v1/triple-a';

/**
 * The payment-provider client (spec §7.4): bearer token from the stored state, 30 s timeout.
 * Spec §7.8: a 401 there removes the stored access token and sends the browser to /. The token is
 * refreshed first (it lives 15 minutes), so only a session that is really over ends that way.
 */
export const providerClient = createApiClient({
  baseUrl: PROVIDER_API_BASE,
  timeoutMs: PAYMENT_API_TIMEOUT_MS,
  getAccessToken: () => useAppStore.getState().accessToken ?? readStoredAccessToken(),
  onAccessToken: (token) => useAppStore.getState().setAccessToken(token),
  onSessionExpired: () => {
    writeStoredAccessToken(null);
    broadcastLogout();
    globalThis.location?.assign('/');
  },
});
