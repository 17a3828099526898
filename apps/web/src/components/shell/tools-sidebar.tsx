import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { prefetchPath } from '../../routes/route-modules.ts';
import { isActivePath, toolItems } from './nav-items.ts';

/** Spec §2.2: the right-hand tools rail (watchlist, news, social, chat). */
export function ToolsSidebar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <aside className="tools-sidebar" aria-label={t('shell.toolsNavigation')} data-testid="tools-sidebar">
      <ul>
        {toolItems.map((item) => {
          const Icon = item.icon;
          const active = isActivePath(item.path, pathname);
          return (
            <li key={item.path}>
              <Link
                to={item.path}
                className={clsx('tool-link', active && 'active')}
                aria-current={active ? 'page' : undefined}
                onMouseEnter={() => prefetchPath(item.path)}
              >
                <Icon size={18} aria-hidden="true" />
                <span>{t(`nav.${item.label}`)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </aside>
  );
}
