/**
 * The screens the browser tests walk through, in one list, so that a new screen is added once and
 * is then checked by axe-core (accessibility.e2e.ts), the leftover-English scan and the Japanese and
 * Arabic screenshots (languages.e2e.ts).
 */

/** Open routes, which a visitor sees signed out. */
export const PUBLIC_ROUTES = [
  '/',
  '/markets',
  '/news',
  '/news/1',
  '/support',
  '/help',
  '/help/trading',
  '/help/fees',
  '/social',
  '/marketplace',
  '/erp',
  '/watchlist',
  '/reset-password',
] as const;

/** Routes that need a signed-in trader (balances, orders and a position on show). */
export const SIGNED_IN_ROUTES = [
  '/trade',
  '/trade/futures/BTC_USD_PERP',
  '/orders',
  '/trades',
  '/wallet',
  '/portfolio',
  '/analytics',
  '/settings',
  '/chat',
  '/affiliate',
  '/influencer',
  '/signal-provider',
  '/copy-trading',
] as const;

/** Every screen a signed-in trader opens (the password reset is a signed-out visitor's page). */
export const TRADER_ROUTES: readonly string[] = [
  ...PUBLIC_ROUTES.filter((route) => route !== '/reset-password'),
  ...SIGNED_IN_ROUTES,
];
