import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { prefetchPath } from '../../routes/route-modules.ts';
import { usePrefetchWhenNear } from '../../routes/use-prefetch-when-near.ts';
import { isActivePath, type NavItem, toolItems } from './nav-items.ts';

/** Spec §2.2: the right-hand tools rail (watchlist, news, social, chat). */
export function ToolsSidebar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <aside className="tools-sidebar" aria-label={t('shell.toolsNavigation')} data-testid="tools-sidebar">
      <ul>
        {toolItems.map((item) => (
          <li key={item.path}>
            <ToolLink item={item} active={isActivePath(item.path, pathname)} />
          </li>
        ))}
      </ul>
    </aside>
  );
}

function ToolLink({ item, active }: { item: NavItem; active: boolean }) {
  const { t } = useTranslation();
  const prefetchRef = usePrefetchWhenNear<HTMLAnchorElement>(item.path);
  const Icon = item.icon;
  return (
    <Link
      ref={prefetchRef}
      to={item.path}
      className={clsx('tool-link', active && 'active')}
      aria-current={active ? 'page' : undefined}
      onMouseEnter={() => prefetchPath(item.path)}
      onFocus={() => prefetchPath(item.path)}
    >
      <Icon size={18} aria-hidden="true" />
      <span>{t(`nav.${item.label}`)}</span>
    </Link>
  );
}
