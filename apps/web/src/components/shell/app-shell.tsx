import {
  SIDEBAR_SLIDE_OUT_BELOW_PX,
  SIDEBAR_WIDTH_COLLAPSED_PX,
  SIDEBAR_WIDTH_EXPANDED_PX,
  TOOLS_SIDEBAR_MIN_WINDOW_WIDTH_PX,
  TOP_BAR_HEIGHT_PX,
} from '@platform/contracts';
import { type CSSProperties, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { usePostLoginRedirect } from '../../features/auth/post-login-redirect.ts';
import { useMediaQuery } from '../../hooks/use-media-query.ts';
import { useRoutePrefetch } from '../../routes/use-route-prefetch.ts';
import { useAppStore } from '../../state/app-store.ts';
import { AiPanel, AiToggle } from './ai-panel.tsx';
import { LoadingOverlay, RouteProgress, TransferPopupsOverlay } from './global-overlays.tsx';
import { Sidebar } from './sidebar.tsx';
import { ToolsSidebar } from './tools-sidebar.tsx';
import { TopBar } from './top-bar.tsx';

const TOOLS_SIDEBAR_WIDTH_PX = 76;

/**
 * The login and register modals (and their form library) are not part of the shell's first load:
 * they load when the page is idle, or at once when one is opened first (bench/README.md: shell size).
 */
const loadAuthModals = () =>
  Promise.all([import('../../features/auth/login-modal.tsx'), import('../../features/auth/register-modal.tsx')]);
const LoginModal = lazy(() => loadAuthModals().then(([login]) => ({ default: login.LoginModal })));
const RegisterModal = lazy(() => loadAuthModals().then(([, register]) => ({ default: register.RegisterModal })));

function AuthModals() {
  const wanted = useAppStore((state) => state.showLoginModal || state.showRegisterModal);
  const [mounted, setMounted] = useState(wanted);
  useEffect(() => {
    if (wanted) {
      setMounted(true);
      return;
    }
    const preload = () => void loadAuthModals().catch(() => undefined);
    if (typeof globalThis.requestIdleCallback === 'function') {
      const handle = globalThis.requestIdleCallback(preload, { timeout: 5_000 });
      return () => globalThis.cancelIdleCallback(handle);
    }
    const timer = setTimeout(preload, 2_000);
    return () => clearTimeout(timer);
  }, [wanted]);
  if (!mounted && !wanted) return null;
  return (
    <Suspense fallback={null}>
      <LoginModal />
      <RegisterModal />
    </Suspense>
  );
}

/** Spec §2.2: sidebar, top bar, tools rail, AI panel, modals and overlays around every page. */
export function AppShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const collapsed = useAppStore((state) => state.sidebarCollapsed);
  const toggleSidebar = useAppStore((state) => state.toggleSidebar);
  const mobile = useMediaQuery(`(max-width: ${SIDEBAR_SLIDE_OUT_BELOW_PX - 0.02}px)`);
  const wide = useMediaQuery(`(min-width: ${TOOLS_SIDEBAR_MIN_WINDOW_WIDTH_PX + 0.02}px)`);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [aiOpen, setAiOpen] = useState(false);
  useRoutePrefetch();
  usePostLoginRedirect();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation closes the slide-out menu
  useEffect(() => setMobileOpen(false), [pathname]);

  const showTools = !mobile && !collapsed && wide;
  const sidebarWidth = mobile ? 0 : collapsed ? SIDEBAR_WIDTH_COLLAPSED_PX : SIDEBAR_WIDTH_EXPANDED_PX;
  const style = {
    '--sidebar-width': `${sidebarWidth}px`,
    '--sidebar-panel-width': `${collapsed && !mobile ? SIDEBAR_WIDTH_COLLAPSED_PX : SIDEBAR_WIDTH_EXPANDED_PX}px`,
    '--top-bar-height': `${TOP_BAR_HEIGHT_PX}px`,
    '--tools-width': `${showTools ? TOOLS_SIDEBAR_WIDTH_PX : 0}px`,
  } as CSSProperties;

  return (
    <div className="app-shell" style={style}>
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <RouteProgress />
      <Sidebar collapsed={collapsed} mobile={mobile} mobileOpen={mobileOpen} onNavigate={() => setMobileOpen(false)} />
      {mobile && mobileOpen ? (
        <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setMobileOpen(false)} />
      ) : null}
      <div className="shell-main">
        <TopBar
          mobile={mobile}
          mobileOpen={mobileOpen}
          onToggleSidebar={() => (mobile ? setMobileOpen((open) => !open) : toggleSidebar())}
        />
        <div className="shell-body">
          <main id="main" className="page" tabIndex={-1}>
            <Outlet />
          </main>
          {showTools ? <ToolsSidebar /> : null}
        </div>
      </div>
      <AiToggle open={aiOpen} onToggle={() => setAiOpen((open) => !open)} />
      <AiPanel open={aiOpen} onClose={() => setAiOpen(false)} />
      <TransferPopupsOverlay />
      <AuthModals />
      <LoadingOverlay />
    </div>
  );
}
