import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { useAppStore } from '../state/app-store.ts';

/** Spec §2.1 and §6: login-required routes send anonymous users to / with 'Please login to continue'. */
export function RequireAuth() {
  const { t } = useTranslation();
  const isAuthenticated = useAppStore((state) => state.isAuthenticated);
  useEffect(() => {
    if (!isAuthenticated) toast.error(t('errors.pleaseLoginToContinue'), { id: 'login-required' });
  }, [isAuthenticated, t]);
  if (!isAuthenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}
