import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import {
  LOGIN_REQUIRED_TOAST_ID,
  rememberPendingEmailVerification,
  verificationTokenOf,
} from '../features/auth/post-login-redirect.ts';
import { showErrorToast } from '../lib/lazy-toast.ts';
import { useAppStore } from '../state/app-store.ts';

/**
 * Spec §2.1 and §6: login-required routes send anonymous users to / with 'Please login to
 * continue'. The login modal opens there, and a login from it returns to the page asked for; the
 * token of an email-verification link is kept for the tab's next login.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const { pathname, search, hash } = useLocation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  const requireLogin = useAppStore((state) => state.requireLogin);
  useEffect(() => {
    if (isAuthenticated) return;
    showErrorToast(t('errors.pleaseLoginToContinue'), { id: LOGIN_REQUIRED_TOAST_ID });
    const token = verificationTokenOf(pathname, search);
    if (token) rememberPendingEmailVerification(token);
    requireLogin(`${pathname}${search}${hash}`);
  }, [isAuthenticated, pathname, search, hash, requireLogin, t]);
  if (!isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
