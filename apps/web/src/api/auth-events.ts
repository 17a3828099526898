/**
 * Spec §7.8: when the session cannot be saved, the API client broadcasts a logout event and the
 * auth state listens to it. A DOM event keeps the API layer free of any import of the state.
 */
const LOGOUT_EVENT = 'meridian:logout';

export function broadcastLogout(): void {
  globalThis.dispatchEvent?.(new Event(LOGOUT_EVENT));
}

export function onLogoutBroadcast(listener: () => void): () => void {
  globalThis.addEventListener?.(LOGOUT_EVENT, listener);
  return () => globalThis.removeEventListener?.(LOGOUT_EVENT, listener);
}
