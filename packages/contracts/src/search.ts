import { SEARCH_LIMITS, SEARCH_RELEVANCE } from './constants.ts';

/**
 * Spec §2.3 and §9: the command index behind the top-bar search, and its relevance scoring.
 * Entries carry i18n keys rather than text so that the client searches what the user reads.
 */

export const searchCategories = ['navigation', 'trading_pairs', 'actions', 'account', 'features', 'help'] as const;
export type SearchCategory = (typeof searchCategories)[number];

export const commandActions = [
  'buy',
  'sell',
  'market_order',
  'limit_order',
  'stop_loss',
  'deposit',
  'withdraw',
] as const;
export type CommandAction = (typeof commandActions)[number];

interface CommandBase {
  id: string;
  category: SearchCategory;
  keywords: readonly string[];
  tags: readonly string[];
  /** A lucide icon name; the client maps it to a component. */
  icon: string;
  path?: string;
  action?: CommandAction;
  /** Trading pairs only: BTC/USD, BTC and USD. */
  symbol?: string;
  baseAsset?: string;
  quoteAsset?: string;
}

/** An index entry as stored: its title and description are i18n keys (or literal for pairs). */
export interface CommandIndexEntry extends CommandBase {
  titleKey?: string;
  /** Literal title, for entries whose title is a symbol and is never translated. */
  title?: string;
  descriptionKey: string;
  descriptionValues?: Readonly<Record<string, string>>;
}

/** An entry with its title and description resolved to the reader's language. */
export interface SearchableEntry extends CommandBase {
  title: string;
  description: string;
}

export interface SearchResult extends SearchableEntry {
  relevance: number;
  /** True for pairs made up from a known coin symbol rather than taken from the index. */
  generated?: boolean;
}

export interface CryptoAsset {
  symbol: string;
  name: string;
}

/**
 * Coins a trading-pair result can be generated for (spec §2.3: "any known crypto symbol"). These
 * are the majors, memes, DeFi, layer-2 and other coins of the spec's coin catalogue (§3.5).
 */
export const searchableCryptoAssets: readonly CryptoAsset[] = [
  { symbol: 'BTC', name: 'Bitcoin' },
  { symbol: 'ETH', name: 'Ethereum' },
  { symbol: 'LTC', name: 'Litecoin' },
  { symbol: 'BCH', name: 'Bitcoin Cash' },
  { symbol: 'XRP', name: 'XRP' },
  { symbol: 'ADA', name: 'Cardano' },
  { symbol: 'SOL', name: 'Solana' },
  { symbol: 'DOT', name: 'Polkadot' },
  { symbol: 'AVAX', name: 'Avalanche' },
  { symbol: 'LINK', name: 'Chainlink' },
  { symbol: 'TRX', name: 'Tron' },
  { symbol: 'BNB', name: 'BNB' },
  { symbol: 'XMR', name: 'Monero' },
  { symbol: 'ZEC', name: 'Zcash' },
  { symbol: 'XLM', name: 'Stellar' },
  { symbol: 'XTZ', name: 'Tezos' },
  { symbol: 'ALGO', name: 'Algorand' },
  { symbol: 'ATOM', name: 'Cosmos' },
  { symbol: 'NEAR', name: 'NEAR Protocol' },
  { symbol: 'SUI', name: 'Sui' },
  { symbol: 'APT', name: 'Aptos' },
  { symbol: 'SEI', name: 'Sei' },
  { symbol: 'TON', name: 'Toncoin' },
  { symbol: 'FIL', name: 'Filecoin' },
  { symbol: 'THETA', name: 'Theta Network' },
  { symbol: 'SHIB', name: 'Shiba Inu' },
  { symbol: 'DOGE', name: 'Dogecoin' },
  { symbol: 'FLOKI', name: 'Floki' },
  { symbol: 'BABYDOGE', name: 'Baby Doge Coin' },
  { symbol: 'PEPE', name: 'Pepe' },
  { symbol: 'UNI', name: 'Uniswap' },
  { symbol: 'AAVE', name: 'Aave' },
  { symbol: '1INCH', name: '1inch' },
  { symbol: 'CAKE', name: 'PancakeSwap' },
  { symbol: 'GRT', name: 'The Graph' },
  { symbol: 'MATIC', name: 'Polygon' },
  { symbol: 'ARB', name: 'Arbitrum' },
  { symbol: 'OP', name: 'Optimism' },
  { symbol: 'AXS', name: 'Axie Infinity' },
  { symbol: 'SAND', name: 'The Sandbox' },
  { symbol: 'MANA', name: 'Decentraland' },
  { symbol: 'ENJ', name: 'Enjin Coin' },
  { symbol: 'APE', name: 'ApeCoin' },
  { symbol: 'USDT', name: 'Tether' },
  { symbol: 'USDC', name: 'USD Coin' },
  { symbol: 'DAI', name: 'Dai' },
  { symbol: 'TUSD', name: 'TrueUSD' },
  { symbol: 'USDP', name: 'Pax Dollar' },
];

export function tradePathForPair(baseAsset: string, quoteAsset = 'USD'): string {
  return `/trade?pair=${baseAsset.toUpperCase()}/${quoteAsset.toUpperCase()}`;
}

const nav = (
  id: string,
  path: string,
  icon: string,
  keywords: readonly string[],
  tags: readonly string[] = ['page'],
): CommandIndexEntry => ({
  id,
  category: 'navigation',
  titleKey: `search.entries.${id}.title`,
  descriptionKey: `search.entries.${id}.description`,
  keywords,
  tags,
  icon,
  path,
});

const pair = (baseAsset: string, name: string, keywords: readonly string[] = []): CommandIndexEntry => ({
  id: `pair-${baseAsset.toLowerCase()}-usd`,
  category: 'trading_pairs',
  title: `${baseAsset}/USD`,
  descriptionKey: 'search.pairDescription',
  descriptionValues: { name },
  keywords: [baseAsset.toLowerCase(), name.toLowerCase(), `${baseAsset.toLowerCase()}usd`, ...keywords],
  tags: ['spot', 'usd'],
  icon: 'chart-candlestick',
  path: tradePathForPair(baseAsset),
  symbol: `${baseAsset}/USD`,
  baseAsset,
  quoteAsset: 'USD',
});

const entry = (
  id: string,
  category: SearchCategory,
  path: string,
  icon: string,
  keywords: readonly string[],
  tags: readonly string[],
  action?: CommandAction,
): CommandIndexEntry => ({
  id,
  category,
  titleKey: `search.entries.${id}.title`,
  descriptionKey: `search.entries.${id}.description`,
  keywords,
  tags,
  icon,
  path,
  ...(action ? { action } : {}),
});

export const commandIndex: readonly CommandIndexEntry[] = [
  nav('home', '/', 'house', ['home', 'dashboard', 'overview', 'start']),
  nav('trade', '/trade', 'chart-candlestick', ['trade', 'trading', 'spot', 'exchange', 'order']),
  nav('markets', '/markets', 'chart-line', ['markets', 'prices', 'coins', 'tickers', 'market']),
  nav('portfolio', '/portfolio', 'chart-pie', ['portfolio', 'holdings', 'assets', 'pnl', 'performance']),
  nav('orders', '/orders', 'list-ordered', ['orders', 'order history', 'open orders']),
  nav('trades', '/trades', 'history', ['trades', 'trade history', 'fills', 'executions']),
  nav('watchlist', '/watchlist', 'star', ['watchlist', 'favorites', 'favourites']),
  nav('news', '/news', 'newspaper', ['news', 'articles', 'headlines']),
  nav('social', '/social', 'users', ['social', 'feed', 'posts', 'community', 'ideas']),
  nav('chat', '/chat', 'message-circle', ['chat', 'messages', 'conversation']),
  nav('wallet', '/wallet', 'wallet', ['wallet', 'balances', 'funds', 'balance']),
  nav('settings', '/settings', 'settings', ['settings', 'preferences', 'profile', 'theme', 'language']),
  pair('BTC', 'Bitcoin'),
  pair('ETH', 'Ethereum'),
  pair('BNB', 'BNB'),
  pair('ADA', 'Cardano'),
  pair('SOL', 'Solana'),
  pair('DOT', 'Polkadot'),
  pair('LINK', 'Chainlink'),
  pair('MATIC', 'Polygon'),
  pair('AVAX', 'Avalanche'),
  entry('buy', 'actions', '/trade?action=buy', 'arrow-up-right', ['buy', 'purchase', 'long'], ['trade'], 'buy'),
  entry('sell', 'actions', '/trade?action=sell', 'arrow-down-right', ['sell', 'short'], ['trade'], 'sell'),
  entry(
    'market_order',
    'actions',
    '/trade?type=market',
    'zap',
    ['market order', 'market', 'instant'],
    ['trade', 'order'],
    'market_order',
  ),
  entry(
    'limit_order',
    'actions',
    '/trade?type=limit',
    'target',
    ['limit order', 'limit'],
    ['trade', 'order'],
    'limit_order',
  ),
  entry(
    'stop_loss',
    'actions',
    '/trade?type=stop_loss',
    'shield-alert',
    ['stop loss', 'stop', 'stop-loss'],
    ['trade', 'order', 'risk'],
    'stop_loss',
  ),
  entry(
    'deposit',
    'actions',
    '/wallet?action=deposit',
    'download',
    ['deposit', 'fund', 'add funds'],
    ['wallet'],
    'deposit',
  ),
  entry(
    'withdraw',
    'actions',
    '/wallet?action=withdraw',
    'upload',
    ['withdraw', 'withdrawal', 'cash out', 'payout'],
    ['wallet'],
    'withdraw',
  ),
  entry(
    'security',
    'account',
    '/settings?section=security',
    'shield-check',
    ['security', '2fa', 'two-factor', 'two factor', 'password', 'login security'],
    ['account', 'settings'],
  ),
  entry(
    'kyc',
    'account',
    '/wallet?tab=kyc',
    'id-card',
    ['kyc', 'verification', 'identity', 'verify', 'limits'],
    ['account', 'wallet'],
  ),
  entry('api', 'account', '/wallet?section=api-keys', 'key-round', ['api', 'api keys', 'keys', 'bot'], ['account']),
  entry(
    'analytics',
    'features',
    '/analytics',
    'chart-no-axes-combined',
    ['analytics', 'statistics', 'stats'],
    ['trading'],
  ),
  entry(
    'marketplace',
    'features',
    '/marketplace',
    'store',
    ['marketplace', 'strategies', 'strategy'],
    ['signal stream'],
  ),
  entry(
    'copy_trading',
    'features',
    '/copy-trading',
    'copy',
    ['copy trading', 'copy', 'follow traders'],
    ['signal stream'],
  ),
  entry(
    'signal_provider',
    'features',
    '/signal-provider',
    'radio-tower',
    ['signal provider', 'signals', 'provider'],
    ['signal stream'],
  ),
  entry('affiliate', 'features', '/affiliate', 'handshake', ['affiliate', 'referral', 'commission'], ['programme']),
  entry('influencer', 'features', '/influencer', 'megaphone', ['influencer', 'creator'], ['programme']),
  entry('erp', 'features', '/erp', 'building-2', ['erp', 'business', 'dashboard'], ['business']),
  entry('support', 'help', '/support', 'life-buoy', ['support', 'contact', 'faq', 'ticket'], ['help']),
  entry('help', 'help', '/help', 'circle-help', ['help', 'guide', 'docs', 'how to'], ['help']),
  entry(
    'help_trading',
    'help',
    '/help/trading',
    'book-open',
    ['trading help', 'how to trade', 'order types'],
    ['help'],
  ),
  entry('help_fees', 'help', '/help/fees', 'receipt', ['fees', 'fee', 'maker', 'taker', 'commission'], ['help']),
];

export function tokenizeQuery(query: string): string[] {
  return query.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/** Relevance of one entry for a query already split into lower-case words (spec §9). */
export function scoreEntry(entry: SearchableEntry, words: readonly string[]): number {
  const title = entry.title.toLowerCase();
  const description = entry.description.toLowerCase();
  const keywords = entry.keywords.map((keyword) => keyword.toLowerCase());
  const tags = entry.tags.map((tag) => tag.toLowerCase());
  let score = 0;
  for (const word of words) {
    if (title === word) score += SEARCH_RELEVANCE.exactTitle;
    else if (title.includes(word)) score += SEARCH_RELEVANCE.titleContains;
    if (keywords.includes(word)) score += SEARCH_RELEVANCE.exactKeyword;
    else if (keywords.some((keyword) => keyword.includes(word))) score += SEARCH_RELEVANCE.keywordContains;
    if (description.includes(word)) score += SEARCH_RELEVANCE.descriptionContains;
    if (tags.some((tag) => tag.includes(word))) score += SEARCH_RELEVANCE.tagContains;
  }
  // A multi-word query that is exactly the title ("trade history") counts as an exact title match.
  if (words.length > 1 && title === words.join(' ')) score += SEARCH_RELEVANCE.exactTitle;
  if (score > 0 && (entry.category === 'navigation' || entry.category === 'trading_pairs')) {
    score += SEARCH_RELEVANCE.navigationOrPairBonus;
  }
  return score;
}

export interface SearchOptions {
  limit?: number;
  cryptoAssets?: readonly CryptoAsset[];
  /** Description of a generated pair, in the reader's language. */
  describePair?: (asset: CryptoAsset) => string;
}

function generatedPairs(
  words: readonly string[],
  found: readonly SearchResult[],
  assets: readonly CryptoAsset[],
  describePair: (asset: CryptoAsset) => string,
): SearchResult[] {
  const covered = new Set(found.filter((result) => result.category === 'trading_pairs').map((r) => r.baseAsset));
  const results: SearchResult[] = [];
  for (const word of words) {
    const asset = assets.find(
      (candidate) => candidate.symbol.toLowerCase() === word || candidate.name.toLowerCase() === word,
    );
    if (!asset || covered.has(asset.symbol)) continue;
    covered.add(asset.symbol);
    results.push({
      id: `pair-generated-${asset.symbol.toLowerCase()}-usd`,
      category: 'trading_pairs',
      title: `${asset.symbol}/USD`,
      description: describePair(asset),
      keywords: [asset.symbol.toLowerCase(), asset.name.toLowerCase()],
      tags: ['spot', 'usd'],
      icon: 'chart-candlestick',
      path: tradePathForPair(asset.symbol),
      symbol: `${asset.symbol}/USD`,
      baseAsset: asset.symbol,
      quoteAsset: 'USD',
      relevance: SEARCH_RELEVANCE.generatedCryptoPair,
      generated: true,
    });
  }
  return results;
}

/**
 * Scores every entry, adds a generated pair for each query word naming a known coin that the index
 * has no pair for, and returns the best first (ties keep index order) up to the limit.
 */
export function searchCommands(
  entries: readonly SearchableEntry[],
  query: string,
  options: SearchOptions = {},
): SearchResult[] {
  const words = tokenizeQuery(query);
  if (words.length === 0) return [];
  const limit = options.limit ?? SEARCH_LIMITS.default;
  const found: SearchResult[] = [];
  for (const candidate of entries) {
    const relevance = scoreEntry(candidate, words);
    if (relevance > 0) found.push({ ...candidate, relevance });
  }
  const generated = generatedPairs(
    words,
    found,
    options.cryptoAssets ?? searchableCryptoAssets,
    options.describePair ?? ((asset) => asset.name),
  );
  return [...found, ...generated].sort((a, b) => b.relevance - a.relevance).slice(0, limit);
}
