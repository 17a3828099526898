/**
 * Spec §9 business constants and client limits, named once. Percentages and fees are decimal
 * strings: they are money-adjacent and must never pass through a JavaScript number.
 */

export const PRODUCT_NAME = 'Meridian';
export const PRODUCT_TAGLINE = 'Decentralized multi-asset crypto trading at exchange speed';

// ---------------------------------------------------------------------------------------------
// Storage keys (spec §7: the token lives under accessToken; the AI chat reads a key named token)
// ---------------------------------------------------------------------------------------------

export const ACCESS_TOKEN_STORAGE_KEY = 'accessToken';
export const AI_CHAT_TOKEN_STORAGE_KEY = 'token';
/** The persisted slice of client state (spec §3.1). */
export const CLIENT_STATE_STORAGE_KEY = 'meridian-state';
/** Spec §9: stored notifications live under two keys, one for the list and one for the settings. */
export const NOTIFICATIONS_STORAGE_KEY = 'meridian-notifications';
export const NOTIFICATION_SETTINGS_STORAGE_KEY = 'meridian-notification-settings';
/** Settings > Preferences, kept on this device under their own key (not the spec §3.1 client state). */
export const PREFERENCES_STORAGE_KEY = 'meridian-preferences';
/** Spec §4 and §9: the top-bar search history (most recent unique queries, newest first). */
export const SEARCH_HISTORY_STORAGE_KEY = 'meridian-search-history';
/**
 * Session storage: the token of an email-verification link opened while signed out, kept until
 * the next login in this tab so that the settings page can verify it then.
 */
export const PENDING_EMAIL_VERIFICATION_STORAGE_KEY = 'meridian-pending-email-verification';

// ---------------------------------------------------------------------------------------------
// Timeouts
// ---------------------------------------------------------------------------------------------

export const MAIN_API_TIMEOUT_MS = 5_000;
export const PAYMENT_API_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Toasts and notifications
// ---------------------------------------------------------------------------------------------

export const TOAST_SUCCESS_DURATION_MS = 2_000;
export const TOAST_ERROR_DURATION_MS = 4_000;
/** Blank toasts, and every toast of the shell (spec §4). */
export const TOAST_DEFAULT_DURATION_MS = 4_000;
export const TOAST_MAX_VISIBLE = 20;

export const CLIENT_NOTIFICATION_AUTO_DISMISS_MS = 5_000;
export const STORED_NOTIFICATIONS_MAX = 100;
/** The unread badge reads 99+ above this. */
export const UNREAD_BADGE_MAX = 99;
export const NOTIFICATION_PREVIEW_MAX_CHARS = 100;
/** Relative times read "Just now", then minutes, hours and days ago up to this many days. */
export const RELATIVE_TIME_MAX_DAYS = 7;

export const NOTIFICATION_SOUND = {
  frequencyHzBySeverity: { success: 800, info: 600, warning: 400, error: 300 },
  durationSeconds: 0.3,
  gain: 0.1,
} as const;

// ---------------------------------------------------------------------------------------------
// Shell sizes (spec §2.2 and §9)
// ---------------------------------------------------------------------------------------------

export const SIDEBAR_WIDTH_EXPANDED_PX = 280;
export const SIDEBAR_WIDTH_COLLAPSED_PX = 60;
/** Below this window width the sidebar slides out over the page instead of pushing it. */
export const SIDEBAR_SLIDE_OUT_BELOW_PX = 768;
/** The right tools sidebar needs a window wider than this (and an expanded left sidebar). */
export const TOOLS_SIDEBAR_MIN_WINDOW_WIDTH_PX = 1200;
export const TOP_BAR_HEIGHT_PX = 64;
export const AI_PANEL_WIDTH_PX = 400;
export const AI_INPUT_MAX_HEIGHT_PX = 120;
export const LOGIN_MODAL_MAX_WIDTH_PX = 420;
export const REGISTER_MODAL_MAX_WIDTH_PX = 480;
export const ROUTE_PREFETCH_MARGIN_PX = 50;

// ---------------------------------------------------------------------------------------------
// Polling and sockets
// ---------------------------------------------------------------------------------------------

export const SOCKET_PING_INTERVAL_MS = 30_000;
export const MAIN_SOCKET_MAX_RECONNECT_ATTEMPTS = 5;
export const PRICE_FEED_RECONNECT = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000 } as const;
export const PRICE_POLL_INTERVAL_MS = 30_000;
export const PRICE_CACHE_TTL_MS = 30_000;
export const PRICE_API_RATE_LIMIT = { maxRequests: 100, windowMs: 60_000 } as const;
export const COIN_SEARCH_MAX_RESULTS = 10;
/** A coin mention starting within this many characters of an earlier one is dropped. */
export const COIN_MENTION_MIN_GAP_CHARS = 10;
export const AI_MESSAGE_POLL_INTERVAL_MS = 30_000;
/** The first assistant-message load takes messages from the last hour. */
export const AI_MESSAGE_FIRST_LOAD_WINDOW_MS = 60 * 60 * 1_000;
export const AI_HEALTH_POLL_INTERVAL_MS = 30_000;
export const TRANSFER_STATUS_POLL_INTERVAL_MS = 2_000;
export const TRANSFER_POPUP_AUTO_CLOSE_MS = 10_000;
export const TRANSFER_POPUP_AUTO_CLOSE_FROM_HOST_MS = 15_000;
/** Pairs the live price feed carries, all against USD. */
export const FEED_SUPPORTED_BASE_ASSETS = [
  'BTC',
  'ETH',
  'BNB',
  'ADA',
  'DOT',
  'SOL',
  'LINK',
  'MATIC',
  'AVAX',
  'USDT',
] as const;

// ---------------------------------------------------------------------------------------------
// Search (spec §9)
// ---------------------------------------------------------------------------------------------

export const SEARCH_LIMITS = {
  default: 10,
  tradingPairs: 20,
  navigation: 10,
  account: 10,
  topBar: 8,
  suggestions: 8,
  recentShown: 5,
  historyKept: 10,
  popularQueries: 10,
} as const;

/** Spec §5: suggestions need this many characters; shorter text gets the recent searches. */
export const SEARCH_MIN_QUERY_CHARS = 2;

export const POPULAR_SEARCH_SEEDS = ['btc', 'eth', 'trade', 'wallet', 'withdraw', 'deposit', 'portfolio'] as const;

/** Relevance points, per query word. */
export const SEARCH_RELEVANCE = {
  exactTitle: 100,
  titleContains: 50,
  exactKeyword: 80,
  keywordContains: 30,
  descriptionContains: 20,
  tagContains: 25,
  navigationOrPairBonus: 10,
  generatedCryptoPair: 70,
} as const;

// ---------------------------------------------------------------------------------------------
// Limits and help-text figures
// ---------------------------------------------------------------------------------------------

export const KYC_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const FEES = {
  spot: { makerPercent: '0.1', takerPercent: '0.1' },
  futures: { makerPercent: '0.02', takerPercent: '0.04' },
  tradingFeeFromPercent: '0.1',
  cryptoDepositPercent: '0',
} as const;
export const MAX_FUTURES_LEVERAGE = 100;
export const SUPPORT_EMAIL_REPLY_HOURS = 2;
export const PROCESSING_TIMES = {
  cryptoDepositMinutes: { min: 15, max: 30 },
  cryptoWithdrawalMinutes: { min: 15, max: 60 },
  fiatWithdrawalBusinessDays: { min: 1, max: 3 },
} as const;

export const chartRanges = ['1m', '5m', '15m', '1h', '4h', '1d', '1w', '1M', '3M', '1Y', 'all'] as const;
export type ChartRange = (typeof chartRanges)[number];

// ---------------------------------------------------------------------------------------------
// Markets UI (client only)
// ---------------------------------------------------------------------------------------------

/** Local storage: the watchlist (favourite pair ids, in order) of a visitor who is not logged in. */
export const LOCAL_WATCHLIST_STORAGE_KEY = 'meridian-watchlist';
