import { z } from 'zod';
import { FEED_SUPPORTED_BASE_ASSETS, FEES } from './constants.ts';

/**
 * Spec §3.5 coin catalogue and §3.6 coin maps, and the trading pairs derived from them. This is
 * the seed of the server's `coins` and `trading_pairs` tables and the client's list of enabled
 * coins; prices here are reference prices only (the simulator's start and the built-in last
 * resort when every price source fails), never a live quote.
 */

export const coinTypes = ['stable', 'major', 'layer2', 'meme', 'defi', 'altcoin'] as const;
export type CoinType = (typeof coinTypes)[number];
export const coinCategories = ['popular', 'stable', 'other'] as const;
export type CoinCategory = (typeof coinCategories)[number];

export const coinSchema = z.object({
  /** Lower-case payment code, unique per network variant ('usdttrc20'). */
  code: z.string(),
  name: z.string(),
  /** Upper-case ticker; several network variants share one ('USDT'). */
  symbol: z.string(),
  network: z.string().nullable(),
  type: z.enum(coinTypes),
  category: z.enum(coinCategories),
  description: z.string(),
  isEnabled: z.boolean(),
});
export type Coin = z.infer<typeof coinSchema>;

type CoinSeed = Omit<Coin, 'isEnabled' | 'network'> & { network?: string };

const stable = (
  code: string,
  name: string,
  symbol: string,
  network: string,
  category: CoinCategory,
  description: string,
): CoinSeed => ({
  code,
  name,
  symbol,
  network,
  type: 'stable',
  category,
  description,
});
const coin = (
  code: string,
  name: string,
  type: Exclude<CoinType, 'stable'>,
  description: string,
  network?: string,
): CoinSeed => ({
  code,
  name,
  symbol: code.toUpperCase(),
  type,
  category: 'other',
  description,
  ...(network ? { network } : {}),
});

const COIN_SEEDS: readonly CoinSeed[] = [
  // Popular (spec §3.5): DAI, USDT on Tron, Ethereum, BSC and Solana, USDC on Ethereum.
  stable(
    'dai',
    'Dai',
    'DAI',
    'ETH',
    'popular',
    'A decentralised stablecoin kept at one US dollar by over-collateralised loans on Ethereum.',
  ),
  stable(
    'usdttrc20',
    'Tether USD (TRC20)',
    'USDT',
    'TRX',
    'popular',
    'Tether USD on the Tron network, a dollar stablecoin with low transfer fees.',
  ),
  stable(
    'usdterc20',
    'Tether USD (ERC20)',
    'USDT',
    'ETH',
    'popular',
    'Tether USD on Ethereum, the most widely used dollar stablecoin.',
  ),
  stable('usdtbsc', 'Tether USD (BEP20)', 'USDT', 'BSC', 'popular', 'Tether USD on BNB Smart Chain.'),
  stable('usdtsol', 'Tether USD (Solana)', 'USDT', 'SOL', 'popular', 'Tether USD on Solana, settled in seconds.'),
  stable(
    'usdc',
    'USD Coin',
    'USDC',
    'ETH',
    'popular',
    'USD Coin on Ethereum, a regulated dollar stablecoin backed by cash and short-term treasuries.',
  ),
  // Stable (spec §3.5): USDC on KuCoin chain, Polygon, BSC and Solana; USDT on Tezos and EOS; TUSD; USDP.
  stable('usdckcc', 'USD Coin (KCC)', 'USDC', 'KCC', 'stable', 'USD Coin on the KuCoin Community Chain.'),
  stable(
    'usdcmatic',
    'USD Coin (Polygon)',
    'USDC',
    'MATIC',
    'stable',
    'USD Coin on Polygon, with cheap and fast transfers.',
  ),
  stable('usdcbsc', 'USD Coin (BEP20)', 'USDC', 'BSC', 'stable', 'USD Coin on BNB Smart Chain.'),
  stable('usdcsol', 'USD Coin (Solana)', 'USDC', 'SOL', 'stable', 'USD Coin on Solana.'),
  stable('usdtxtz', 'Tether USD (Tezos)', 'USDT', 'XTZ', 'stable', 'Tether USD on the Tezos network.'),
  stable('usdteos', 'Tether USD (EOS)', 'USDT', 'EOS', 'stable', 'Tether USD on the EOS network.'),
  stable('tusd', 'TrueUSD', 'TUSD', 'ETH', 'stable', 'A dollar stablecoin whose reserves are attested in real time.'),
  stable('usdp', 'Pax Dollar', 'USDP', 'ETH', 'stable', 'A regulated dollar stablecoin issued by Paxos.'),
  // Majors.
  coin(
    'btc',
    'Bitcoin',
    'major',
    'The first cryptocurrency, a peer-to-peer electronic cash system with a fixed supply of 21 million.',
  ),
  coin('eth', 'Ethereum', 'major', 'A programmable blockchain for smart contracts and decentralised applications.'),
  coin('ltc', 'Litecoin', 'major', 'An early Bitcoin fork with faster blocks, used for payments.'),
  coin('bch', 'Bitcoin Cash', 'major', 'A Bitcoin fork with larger blocks for cheap on-chain payments.'),
  coin('xrp', 'XRP', 'major', 'The native asset of the XRP Ledger, built for fast cross-border settlement.'),
  coin('ada', 'Cardano', 'major', 'A proof-of-stake blockchain developed from peer-reviewed research.'),
  coin('sol', 'Solana', 'major', 'A high-throughput blockchain with sub-second finality and low fees.'),
  coin(
    'dot',
    'Polkadot',
    'major',
    'A network that connects specialised blockchains (parachains) under shared security.',
  ),
  coin('avax', 'Avalanche', 'major', 'A fast smart-contract platform made of interoperable subnets.'),
  coin(
    'link',
    'Chainlink',
    'major',
    'A decentralised oracle network that feeds real-world data to smart contracts.',
    'ETH',
  ),
  coin('trx', 'TRON', 'major', 'A blockchain for content and stablecoin transfers with high throughput.'),
  coin('bnb', 'BNB', 'major', 'The native coin of BNB Chain, used for fees and across the Binance ecosystem.'),
  coin('xmr', 'Monero', 'major', 'A privacy coin with confidential amounts and untraceable transactions.'),
  coin('zec', 'Zcash', 'major', 'A cryptocurrency with optional shielded transactions using zero-knowledge proofs.'),
  coin('xlm', 'Stellar', 'major', 'A payment network for fast, cheap transfers of money across borders.'),
  coin('xtz', 'Tezos', 'major', 'A self-amending proof-of-stake blockchain with on-chain governance.'),
  coin('algo', 'Algorand', 'major', 'A pure proof-of-stake blockchain with instant finality.'),
  coin('atom', 'Cosmos', 'major', 'The hub of the Cosmos network of interoperable blockchains.'),
  coin('near', 'NEAR Protocol', 'major', 'A sharded proof-of-stake platform designed for usability.'),
  coin('sui', 'Sui', 'major', 'A high-performance layer-1 blockchain built on the Move language.'),
  coin('apt', 'Aptos', 'major', 'A layer-1 blockchain using Move and parallel transaction execution.'),
  coin('sei', 'Sei', 'major', 'A layer-1 blockchain optimised for trading applications.'),
  coin('ton', 'Toncoin', 'major', 'The native coin of The Open Network, integrated with Telegram.'),
  coin('fil', 'Filecoin', 'major', 'A decentralised storage network that pays providers to store files.'),
  coin('theta', 'Theta Network', 'major', 'A decentralised video delivery network.'),
  coin('etc', 'Ethereum Classic', 'major', 'The original Ethereum chain that kept the pre-2016 history.'),
  coin('icp', 'Internet Computer', 'major', 'A blockchain that hosts smart contracts serving web content directly.'),
  coin('hbar', 'Hedera', 'major', 'A public ledger using hashgraph consensus, governed by a council of companies.'),
  // Memes.
  coin('shib', 'Shiba Inu', 'meme', 'A dog-themed meme token on Ethereum with a large community.', 'ETH'),
  coin('doge', 'Dogecoin', 'meme', 'The original meme coin, started as a joke in 2013 and used for tips.'),
  coin('floki', 'FLOKI', 'meme', 'A meme token named after a famous Shiba Inu dog.', 'ETH'),
  coin('babydoge', 'Baby Doge Coin', 'meme', 'A meme token on BNB Smart Chain inspired by Dogecoin.', 'BSC'),
  coin('pepe', 'Pepe', 'meme', 'A meme token on Ethereum themed after the Pepe the Frog meme.', 'ETH'),
  // DeFi.
  coin(
    'uni',
    'Uniswap',
    'defi',
    'The governance token of Uniswap, the largest decentralised exchange on Ethereum.',
    'ETH',
  ),
  coin('aave', 'Aave', 'defi', 'The governance token of Aave, a decentralised lending protocol.', 'ETH'),
  coin('1inch', '1inch', 'defi', 'The token of the 1inch aggregator that routes swaps across exchanges.', 'ETH'),
  coin('cake', 'PancakeSwap', 'defi', 'The token of PancakeSwap, the leading exchange on BNB Smart Chain.', 'BSC'),
  coin('grt', 'The Graph', 'defi', 'The token of The Graph, an indexing protocol for blockchain data.', 'ETH'),
  // Layer 2.
  coin('matic', 'Polygon', 'layer2', 'The token of Polygon, a family of scaling networks for Ethereum.', 'ETH'),
  coin('arb', 'Arbitrum', 'layer2', 'The governance token of Arbitrum, an optimistic rollup on Ethereum.', 'ARB'),
  coin('op', 'Optimism', 'layer2', 'The governance token of Optimism, an optimistic rollup on Ethereum.', 'OP'),
  // Altcoins.
  coin(
    'axs',
    'Axie Infinity',
    'altcoin',
    'The token of Axie Infinity, a blockchain game of collectible creatures.',
    'ETH',
  ),
  coin('sand', 'The Sandbox', 'altcoin', 'The token of The Sandbox, a virtual world of user-owned land.', 'ETH'),
  coin('mana', 'Decentraland', 'altcoin', 'The token of Decentraland, a virtual world owned by its users.', 'ETH'),
  coin('enj', 'Enjin Coin', 'altcoin', 'A token that backs in-game items and collectibles.', 'ETH'),
  coin('ape', 'ApeCoin', 'altcoin', 'The token of the ApeCoin DAO and the Bored Ape ecosystem.', 'ETH'),
];

/** Spec §3.5: the fixed catalogue, all enabled. */
export const COINS: readonly Coin[] = COIN_SEEDS.map((seed) => ({
  ...seed,
  network: seed.network ?? null,
  isEnabled: true,
}));

/** Spec §3.6: symbol -> price-source (CoinGecko) coin id, one per unique symbol. */
export const COIN_GECKO_IDS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  USDT: 'tether',
  USDC: 'usd-coin',
  DAI: 'dai',
  TUSD: 'true-usd',
  USDP: 'paxos-standard',
  LTC: 'litecoin',
  BCH: 'bitcoin-cash',
  XRP: 'ripple',
  ADA: 'cardano',
  SOL: 'solana',
  DOT: 'polkadot',
  AVAX: 'avalanche-2',
  LINK: 'chainlink',
  TRX: 'tron',
  BNB: 'binancecoin',
  XMR: 'monero',
  ZEC: 'zcash',
  XLM: 'stellar',
  XTZ: 'tezos',
  ALGO: 'algorand',
  ATOM: 'cosmos',
  NEAR: 'near',
  SUI: 'sui',
  APT: 'aptos',
  SEI: 'sei-network',
  TON: 'the-open-network',
  FIL: 'filecoin',
  THETA: 'theta-token',
  ETC: 'ethereum-classic',
  ICP: 'internet-computer',
  HBAR: 'hedera-hashgraph',
  SHIB: 'shiba-inu',
  DOGE: 'dogecoin',
  FLOKI: 'floki',
  BABYDOGE: 'baby-doge-coin',
  PEPE: 'pepe',
  UNI: 'uniswap',
  AAVE: 'aave',
  '1INCH': '1inch',
  CAKE: 'pancakeswap-token',
  GRT: 'the-graph',
  MATIC: 'matic-network',
  ARB: 'arbitrum',
  OP: 'optimism',
  AXS: 'axie-infinity',
  SAND: 'the-sandbox',
  MANA: 'decentraland',
  ENJ: 'enjincoin',
  APE: 'apecoin',
};

/**
 * USD reference prices (mid-2024 levels), decimal strings. The simulator starts here and the
 * built-in quote of §5/§7.8 falls back to these when every source fails.
 */
export const REFERENCE_PRICES_USD: Readonly<Record<string, string>> = {
  BTC: '67250.00',
  ETH: '3450.00',
  USDT: '1.0000',
  USDC: '1.0000',
  DAI: '1.0000',
  TUSD: '1.0000',
  USDP: '1.0000',
  LTC: '84.50',
  BCH: '480.00',
  XRP: '0.5200',
  ADA: '0.4500',
  SOL: '165.00',
  DOT: '7.200',
  AVAX: '35.50',
  LINK: '17.80',
  TRX: '0.12000',
  BNB: '590.00',
  XMR: '165.00',
  ZEC: '32.00',
  XLM: '0.11000',
  XTZ: '0.9500',
  ALGO: '0.18000',
  ATOM: '8.900',
  NEAR: '6.800',
  SUI: '1.1000',
  APT: '9.200',
  SEI: '0.5500',
  TON: '7.100',
  FIL: '5.900',
  THETA: '2.100',
  ETC: '28.50',
  ICP: '12.40',
  HBAR: '0.09500',
  SHIB: '0.00002450',
  DOGE: '0.15500',
  FLOKI: '0.00021000',
  BABYDOGE: '0.0000000021',
  PEPE: '0.00001180',
  UNI: '10.200',
  AAVE: '95.00',
  '1INCH': '0.4200',
  CAKE: '2.700',
  GRT: '0.28000',
  MATIC: '0.7200',
  ARB: '1.0500',
  OP: '2.450',
  AXS: '7.600',
  SAND: '0.4500',
  MANA: '0.4600',
  ENJ: '0.3000',
  APE: '1.2500',
};

/**
 * Approximate circulating supply per symbol (whole coins), so that simulated quotes carry a
 * market cap (price x supply). Real sources report their own market cap.
 */
export const CIRCULATING_SUPPLY: Readonly<Record<string, string>> = {
  BTC: '19700000',
  ETH: '120200000',
  USDT: '110000000000',
  USDC: '33000000000',
  DAI: '5300000000',
  TUSD: '490000000',
  USDP: '100000000',
  LTC: '74500000',
  BCH: '19700000',
  XRP: '55000000000',
  ADA: '35300000000',
  SOL: '462000000',
  DOT: '1400000000',
  AVAX: '393000000',
  LINK: '587000000',
  TRX: '87000000000',
  BNB: '146000000',
  XMR: '18400000',
  ZEC: '16200000',
  XLM: '29000000000',
  XTZ: '990000000',
  ALGO: '8200000000',
  ATOM: '390000000',
  NEAR: '1080000000',
  SUI: '2500000000',
  APT: '440000000',
  SEI: '3100000000',
  TON: '2500000000',
  FIL: '560000000',
  THETA: '1000000000',
  ETC: '147000000',
  ICP: '465000000',
  HBAR: '35700000000',
  SHIB: '589000000000000',
  DOGE: '144000000000',
  FLOKI: '9600000000000',
  BABYDOGE: '174000000000000000',
  PEPE: '420690000000000',
  UNI: '600000000',
  AAVE: '14800000',
  '1INCH': '1200000000',
  CAKE: '270000000',
  GRT: '9500000000',
  MATIC: '9300000000',
  ARB: '2900000000',
  OP: '1100000000',
  AXS: '145000000',
  SAND: '2300000000',
  MANA: '1900000000',
  ENJ: '1700000000',
  APE: '600000000',
};

/** Unique upper-case symbols of the enabled coins, in catalogue order. */
export const COIN_SYMBOLS: readonly string[] = [
  ...new Set(COINS.filter((entry) => entry.isEnabled).map((entry) => entry.symbol)),
];

/** Spec §3.6: coin name (lower case) -> symbol; network variants map their base name too. */
export const COIN_NAME_TO_SYMBOL: Readonly<Record<string, string>> = Object.fromEntries([
  ...COINS.map((entry) => [entry.name.toLowerCase(), entry.symbol] as const),
  ['tether', 'USDT'],
  ['usd coin', 'USDC'],
  ['bitcoin cash', 'BCH'],
  ['ripple', 'XRP'],
  ['polygon', 'MATIC'],
  ['toncoin', 'TON'],
  ['binance coin', 'BNB'],
]);

/** The coin type of a symbol (network variants of one symbol share a type). */
export const COIN_TYPE_BY_SYMBOL: Readonly<Record<string, CoinType>> = Object.fromEntries(
  COINS.map((entry) => [entry.symbol, entry.type] as const),
);

/** The display name of a symbol: the name of its first catalogue entry without the network. */
export const COIN_NAME_BY_SYMBOL: Readonly<Record<string, string>> = Object.fromEntries(
  [...COINS].reverse().map((entry) => [entry.symbol, entry.name.replace(/ \([^)]*\)$/, '')] as const),
);

// ---------------------------------------------------------------------------------------------
// Trading pairs
// ---------------------------------------------------------------------------------------------

/** A §3.6 trading pair as seeded (the live fields current_price, volume_24h, change_24h are the feed's). */
export type TradingPairSeed = {
  id: string;
  base_currency: string;
  quote_currency: string;
  symbol: string;
  min_trade_amount: string;
  max_trade_amount: string;
  price_precision: number;
  quantity_precision: number;
  trading_fee: string;
  maker_fee: string;
  taker_fee: string;
  is_active: boolean;
  is_enabled_by_admin: boolean;
  supported_by_provider: boolean;
};

/** Finest price precision a pair gets (decimal places); NUMERIC holds more, clients show less. */
export const MAX_PRICE_PRECISION = 18;
export const MIN_PRICE_PRECISION = 2;
export const MAX_QUANTITY_PRECISION = 8;
/** A price tick is at most this power of ten relative to the price: 5 means 1e-5 (0.001 %). */
const PRICE_TICK_RELATIVE_EXPONENT = 5;
/** The smallest lot is worth at most 10^-3 of one unit of price magnitude (a tenth of a cent at $1..$9). */
const QUANTITY_LOT_EXPONENT = 3;
/** max_trade_amount is this power of ten above min_trade_amount. */
const MAX_TO_MIN_TRADE_EXPONENT = 7;

/**
 * Position of the first significant digit of a positive decimal string: 67250 -> 4, 0.52 -> -1,
 * 0.0000000021 -> -9. Integer-only, so no float ever sees a price.
 */
export function decimalMagnitude(value: string): number {
  const [integerPart = '', fractionPart = ''] = value.split('.');
  const integerDigits = integerPart.replace(/^0+/, '');
  if (integerDigits.length > 0) return integerDigits.length - 1;
  const leadingZeros = fractionPart.length - fractionPart.replace(/^0+/, '').length;
  if (leadingZeros === fractionPart.length) throw new Error(`decimalMagnitude of a zero value: ${value}`);
  return -(leadingZeros + 1);
}

/** 10^exponent as a canonical decimal string ('1000', '1', '0.001'). */
export function powerOfTenString(exponent: number): string {
  if (exponent >= 0) return `1${'0'.repeat(exponent)}`;
  return `0.${'0'.repeat(-exponent - 1)}1`;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * Price precision of a pair whose price has the given magnitude: a tick of 10^-precision is at
 * most 1e-5 of the price (finer when the magnitude is only a lower bound), and never fewer than
 * 2 decimals.
 */
export function pricePrecisionForMagnitude(magnitude: number): number {
  return clamp(PRICE_TICK_RELATIVE_EXPONENT - magnitude, MIN_PRICE_PRECISION, MAX_PRICE_PRECISION);
}

/** Quantity precision from the base coin's USD magnitude: BTC 7, ETH 6, SOL 5, XRP 2, SHIB 0. */
export function quantityPrecisionForMagnitude(usdMagnitude: number): number {
  return clamp(usdMagnitude + QUANTITY_LOT_EXPONENT, 0, MAX_QUANTITY_PRECISION);
}

function referenceMagnitude(symbol: string): number {
  const price = REFERENCE_PRICES_USD[symbol];
  if (price === undefined) throw new Error(`No reference price for ${symbol}`);
  return decimalMagnitude(price);
}

/** Quote currencies every enabled coin trades against. */
export const UNIVERSAL_QUOTES = ['USD', 'USDT'] as const;
/** Quote currencies only major and popular coins trade against. */
export const MAJOR_QUOTES = ['BTC', 'ETH'] as const;

function isMajorOrPopular(symbol: string): boolean {
  return COINS.some((entry) => entry.symbol === symbol && (entry.type === 'major' || entry.category === 'popular'));
}

function buildPair(base: string, quote: string): TradingPairSeed {
  const baseMagnitude = referenceMagnitude(base);
  // The quotient's magnitude is baseMagnitude - quoteMagnitude or one less; taking the lower
  // bound gives a tick at least as fine as the rule asks.
  const priceMagnitude = quote === 'USD' ? baseMagnitude : baseMagnitude - referenceMagnitude(quote) - 1;
  const quantityPrecision = quantityPrecisionForMagnitude(baseMagnitude);
  // About a dollar at minimum (a power of ten between $0.1 and $1 worth of base), never below a lot.
  const minExponent = Math.max(-(baseMagnitude + 1), -quantityPrecision);
  return {
    id: `${base}_${quote}`,
    base_currency: base,
    quote_currency: quote,
    symbol: `${base}/${quote}`,
    min_trade_amount: powerOfTenString(minExponent),
    max_trade_amount: powerOfTenString(minExponent + MAX_TO_MIN_TRADE_EXPONENT),
    price_precision: pricePrecisionForMagnitude(priceMagnitude),
    quantity_precision: quantityPrecision,
    trading_fee: FEES.tradingFeeFromPercent,
    maker_fee: FEES.spot.makerPercent,
    taker_fee: FEES.spot.takerPercent,
    is_active: true,
    is_enabled_by_admin: true,
    supported_by_provider: quote === 'USD' && (FEED_SUPPORTED_BASE_ASSETS as readonly string[]).includes(base),
  };
}

/**
 * Spec §3.5 pair rule, as interpreted here:
 * - every enabled coin, by unique symbol (the USDT and USDC network variants make one USDT and
 *   one USDC market), trades against USD and against USDT — except USDT against itself;
 * - every major coin (type 'major') or popular coin (category 'popular') also trades against BTC
 *   and ETH — except against itself;
 * - "against each other" is read as the majors trading against the two major quote coins, so
 *   BTC and ETH trade once: ETH_BTC exists, BTC_ETH does not (one market per unordered pair of
 *   quote coins, quoted in the larger coin). A full cross product of ~45 coins would add ~2,000
 *   illiquid markets for no user need.
 */
export function buildTradingPairs(): TradingPairSeed[] {
  const pairs: TradingPairSeed[] = [];
  for (const base of COIN_SYMBOLS) {
    for (const quote of UNIVERSAL_QUOTES) {
      if (base !== quote) pairs.push(buildPair(base, quote));
    }
    if (!isMajorOrPopular(base)) continue;
    for (const quote of MAJOR_QUOTES) {
      if (base === quote || (base === 'BTC' && quote === 'ETH')) continue;
      pairs.push(buildPair(base, quote));
    }
  }
  return pairs;
}

/** Spec §3.5 trading pairs, built once. */
export const TRADING_PAIRS: readonly TradingPairSeed[] = buildTradingPairs();
