import {
  Building2,
  ChartCandlestick,
  ChartLine,
  ChartNoAxesCombined,
  ChartPie,
  Copy,
  Handshake,
  History,
  House,
  LifeBuoy,
  ListOrdered,
  type LucideIcon,
  Megaphone,
  MessageCircle,
  Newspaper,
  RadioTower,
  Settings,
  Star,
  Store,
  Users,
  Wallet,
} from 'lucide-react';

export type NavLabel =
  | 'home'
  | 'trade'
  | 'markets'
  | 'portfolio'
  | 'orders'
  | 'trades'
  | 'analytics'
  | 'marketplace'
  | 'copyTrading'
  | 'signalProvider'
  | 'wallet'
  | 'affiliate'
  | 'influencer'
  | 'erp'
  | 'settings'
  | 'support'
  | 'watchlist'
  | 'news'
  | 'social'
  | 'chat';

export interface NavItem {
  path: string;
  label: NavLabel;
  icon: LucideIcon;
}

export interface NavSection {
  id: 'main' | 'trading' | 'signalStream' | 'account';
  items: readonly NavItem[];
}

/** Spec §2.2: the left sidebar's sections and entries, in order. */
export const sidebarSections: readonly NavSection[] = [
  {
    id: 'main',
    items: [
      { path: '/', label: 'home', icon: House },
      { path: '/trade', label: 'trade', icon: ChartCandlestick },
      { path: '/markets', label: 'markets', icon: ChartLine },
      { path: '/portfolio', label: 'portfolio', icon: ChartPie },
    ],
  },
  {
    id: 'trading',
    items: [
      { path: '/orders', label: 'orders', icon: ListOrdered },
      { path: '/trades', label: 'trades', icon: History },
      { path: '/analytics', label: 'analytics', icon: ChartNoAxesCombined },
    ],
  },
  {
    id: 'signalStream',
    items: [
      { path: '/marketplace', label: 'marketplace', icon: Store },
      { path: '/copy-trading', label: 'copyTrading', icon: Copy },
      { path: '/signal-provider', label: 'signalProvider', icon: RadioTower },
    ],
  },
  {
    id: 'account',
    items: [
      { path: '/wallet', label: 'wallet', icon: Wallet },
      { path: '/affiliate', label: 'affiliate', icon: Handshake },
      { path: '/influencer', label: 'influencer', icon: Megaphone },
      { path: '/erp', label: 'erp', icon: Building2 },
      { path: '/settings', label: 'settings', icon: Settings },
      { path: '/support', label: 'support', icon: LifeBuoy },
    ],
  },
];

/** Spec §2.2: the right-hand tools sidebar. */
export const toolItems: readonly NavItem[] = [
  { path: '/watchlist', label: 'watchlist', icon: Star },
  { path: '/news', label: 'news', icon: Newspaper },
  { path: '/social', label: 'social', icon: Users },
  { path: '/chat', label: 'chat', icon: MessageCircle },
];

/** The active item matches the current path; / only matches itself. */
export function isActivePath(itemPath: string, pathname: string): boolean {
  if (itemPath === '/') return pathname === '/';
  return pathname === itemPath || pathname.startsWith(`${itemPath}/`);
}
