import clsx from 'clsx';
import { CircleHelp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { prefetchPath } from '../../routes/route-modules.ts';
import { usePrefetchWhenNear } from '../../routes/use-prefetch-when-near.ts';
import { isActivePath, type NavItem, sidebarSections } from './nav-items.ts';

interface SidebarProps {
  /** Icons only (60px); never on small screens, where the sidebar slides out at full width. */
  collapsed: boolean;
  mobile: boolean;
  mobileOpen: boolean;
  onNavigate: () => void;
}

export function Sidebar({ collapsed, mobile, mobileOpen, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const iconsOnly = collapsed && !mobile;
  return (
    <aside
      id="app-sidebar"
      className={clsx('sidebar', iconsOnly && 'sidebar-collapsed', mobile && 'sidebar-mobile', mobileOpen && 'open')}
      data-testid="sidebar"
      data-collapsed={iconsOnly}
      aria-label={t('shell.mainNavigation')}
      aria-hidden={mobile && !mobileOpen ? true : undefined}
      inert={mobile && !mobileOpen ? true : undefined}
    >
      <Link to="/" className="sidebar-brand" onClick={onNavigate} aria-label={iconsOnly ? t('app.name') : undefined}>
        <span className="brand-mark" aria-hidden="true">
          M
        </span>
        {iconsOnly ? null : <span className="brand-name">{t('app.name')}</span>}
      </Link>
      <nav className="sidebar-nav">
        {sidebarSections.map((section) => (
          <div key={section.id} className="sidebar-section">
            {iconsOnly ? (
              <hr className="sidebar-rule" />
            ) : (
              <p className="sidebar-section-title">{t(`nav.sections.${section.id}`)}</p>
            )}
            <ul>
              {section.items.map((item) => (
                <li key={item.path}>
                  <SidebarLink
                    item={item}
                    active={isActivePath(item.path, pathname)}
                    iconsOnly={iconsOnly}
                    onNavigate={onNavigate}
                  />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {iconsOnly ? null : (
        <div className="sidebar-footer">
          <HelpLink active={isActivePath('/help', pathname)} onNavigate={onNavigate} />
        </div>
      )}
    </aside>
  );
}

function HelpLink({ active, onNavigate }: { active: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const prefetchRef = usePrefetchWhenNear<HTMLAnchorElement>('/help');
  return (
    <Link
      ref={prefetchRef}
      to="/help"
      className={clsx('sidebar-help', active && 'active')}
      onClick={onNavigate}
      onMouseEnter={() => prefetchPath('/help')}
      onFocus={() => prefetchPath('/help')}
    >
      <CircleHelp size={18} aria-hidden="true" />
      <span>{t('nav.help')}</span>
    </Link>
  );
}

function SidebarLink({
  item,
  active,
  iconsOnly,
  onNavigate,
}: {
  item: NavItem;
  active: boolean;
  iconsOnly: boolean;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const Icon = item.icon;
  const label = t(`nav.${item.label}`);
  const prefetchRef = usePrefetchWhenNear<HTMLAnchorElement>(item.path);
  return (
    <Link
      ref={prefetchRef}
      to={item.path}
      className={clsx('nav-link', active && 'active')}
      aria-current={active ? 'page' : undefined}
      aria-label={iconsOnly ? label : undefined}
      title={iconsOnly ? label : undefined}
      onClick={onNavigate}
      onMouseEnter={() => prefetchPath(item.path)}
      onFocus={() => prefetchPath(item.path)}
    >
      <Icon size={18} aria-hidden="true" className="nav-icon" />
      {iconsOnly ? null : <span className="nav-label">{label}</span>}
    </Link>
  );
}
