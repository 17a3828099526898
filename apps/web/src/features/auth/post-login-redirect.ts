import { PENDING_EMAIL_VERIFICATION_STORAGE_KEY } from '@platform/contracts';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { dismissToast } from '../../lib/lazy-toast.ts';
import { readSessionStorage, removeSessionStorage, writeSessionStorage } from '../../lib/safe-storage.ts';
import { useAppStore } from '../../state/app-store.ts';

/**
 * After a login, the user lands where they were going: the settings page of an email-verification
 * link opened while signed out, or the login-required page the guard turned them away from.
 */

/** The id of the guard's 'Please login to continue' toast, dismissed once the user logs in. */
export const LOGIN_REQUIRED_TOAST_ID = 'login-required';

export function emailVerificationPath(token: string): string {
  return `/settings?${new URLSearchParams({ verify: token }).toString()}`;
}

/** The token of a verification link (/settings?verify=TOKEN), or null for any other location. */
export function verificationTokenOf(pathname: string, search: string): string | null {
  if (pathname !== '/settings') return null;
  const token = new URLSearchParams(search).get('verify');
  return token && token.length > 0 ? token : null;
}

/**
 * The token survives a dismissed login modal and a reload of the tab (session storage), and is
 * used by the next login in this tab.
 */
export function rememberPendingEmailVerification(token: string): void {
  writeSessionStorage(PENDING_EMAIL_VERIFICATION_STORAGE_KEY, token);
}

export function readPendingEmailVerification(): string | null {
  const token = readSessionStorage(PENDING_EMAIL_VERIFICATION_STORAGE_KEY);
  return token && token.length > 0 ? token : null;
}

export function clearPendingEmailVerification(): void {
  removeSessionStorage(PENDING_EMAIL_VERIFICATION_STORAGE_KEY);
}

/** Where a login just made should go: a pending verification first, then the guard's page. */
export function postLoginTarget(pendingToken: string | null, returnPath: string | null): string | null {
  if (pendingToken) return emailVerificationPath(pendingToken);
  return returnPath;
}

/**
 * Mounted once in the shell. It watches the session rather than the modals, so email, two-factor,
 * wallet and register-then-login all count; it also forgets the return path when the user closes
 * the guard's modal without logging in.
 */
export function usePostLoginRedirect(): void {
  const navigate = useNavigate();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const authModalOpen = useAppStore((state) => state.showLoginModal || state.showRegisterModal);
  const returnPath = useAppStore((state) => state.loginReturnPath);
  const setLoginReturnPath = useAppStore((state) => state.setLoginReturnPath);
  const wasAuthenticated = useRef(isAuthenticated);

  useEffect(() => {
    const justLoggedIn = isAuthenticated && !wasAuthenticated.current;
    wasAuthenticated.current = isAuthenticated;
    if (!justLoggedIn) return;
    dismissToast(LOGIN_REQUIRED_TOAST_ID);
    const target = postLoginTarget(readPendingEmailVerification(), useAppStore.getState().loginReturnPath);
    clearPendingEmailVerification();
    setLoginReturnPath(null);
    if (target) void navigate(target);
  }, [isAuthenticated, navigate, setLoginReturnPath]);

  useEffect(() => {
    if (!isAuthenticated && !authModalOpen && returnPath !== null) setLoginReturnPath(null);
  }, [isAuthenticated, authModalOpen, returnPath, setLoginReturnPath]);
}
