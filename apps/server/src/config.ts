import path from 'node:path';
import {
  CONVERSION_ACCOUNT_LIMIT_USD,
  CONVERSION_HOUSE_LIMIT_USD,
  CONVERSION_REFERENCE_MAX_AGE_SECONDS,
  FUTURES_DEFAULT_FUNDING_INTERVAL_MS,
} from '@platform/contracts';
import { z } from 'zod';
import { FAIR_USE_LIMITS, type FairUseLimits } from './http/fair-use-limits.ts';

/** Booleans in the environment: 'true'/'1'/'yes' and 'false'/'0'/'no', nothing else. */
const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Price sources in the order of the chain; the simulator is always appended as the last resort. */
export const priceSourceNames = ['exchange', 'market-data', 'simulator'] as const;
export type PriceSourceName = (typeof priceSourceNames)[number];

/** A USD amount in the environment: digits, at most two decimals (cents). */
const USD_AMOUNT = /^\d{1,15}(\.\d{1,2})?$/;

/** Connections per server: enough for the request bursts of one node, far below PostgreSQL's default 100. */
const DEFAULT_POOL_SIZE = 10;
/** A pool above this would starve other clients of a stock PostgreSQL server; a typo, not a setting. */
const MAX_POOL_SIZE = 200;
/** 32 characters of a random secret carry the 256 bits HS256 wants. */
const MIN_JWT_SECRET_LENGTH = 32;
/** Access tokens live 15 minutes: a stolen one is short-lived, and refreshing costs one request. */
const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 900;
/** Bounds of the access-token lifetime: under 30 s clients would refresh constantly, over a day a leak lasts too long. */
const MIN_ACCESS_TOKEN_TTL_SECONDS = 30;
const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400;
/** A refresh token (a signed-in browser) lasts a month; at most a year. */
const DEFAULT_REFRESH_TOKEN_TTL_DAYS = 30;
const MAX_REFRESH_TOKEN_TTL_DAYS = 365;
/** The simulator moves prices four times a second: lively charts, little CPU; 50 ms..1 min are sane. */
const DEFAULT_SIMULATOR_TICK_MS = 250;
const MIN_SIMULATOR_TICK_MS = 50;
const MAX_SIMULATOR_TICK_MS = 60_000;
/** Seeded history is at most ten years of days and a week of minutes: more only slows the start. */
const MAX_HISTORY_DAYS = 3_650;
const MAX_HISTORY_MINUTE_HOURS = 168;

/** A fair-use budget: a whole count per window, at least 1; a billion is as good as no limit. */
const MAX_FAIR_USE_BUDGET = 1_000_000_000;
function budget(defaultValue: number) {
  return z.coerce.number().int().min(1).max(MAX_FAIR_USE_BUDGET).default(defaultValue);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: z.url({ error: 'must be an absolute http(s) URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(MAX_POOL_SIZE).default(DEFAULT_POOL_SIZE),
  /** Where the embedded database runs: on a worker thread, or on the event loop (issue 15 item 3). */
  PGLITE_THREAD: z.enum(['worker', 'main']).default('worker'),
  JWT_SECRET: z.string().min(MIN_JWT_SECRET_LENGTH, { error: 'must be at least 32 characters' }).optional(),
  DATA_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex characters (32 bytes)' })
    .transform((key) => key.toLowerCase())
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(MIN_ACCESS_TOKEN_TTL_SECONDS)
    .max(MAX_ACCESS_TOKEN_TTL_SECONDS)
    .default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_REFRESH_TOKEN_TTL_DAYS)
    .default(DEFAULT_REFRESH_TOKEN_TTL_DAYS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: envBoolean.optional(),
  MAILER: z.enum(['outbox']).default('outbox'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TRUST_PROXY: envBoolean.default(false),
  RATE_LIMIT_ENABLED: envBoolean.default(true),
  /** Fair-use budgets (http/fair-use-limits.ts says why each default); benchmarks raise the public one. */
  FAIR_USE_PUBLIC_WEIGHT_PER_MINUTE: budget(FAIR_USE_LIMITS.publicWeightPerMinute),
  FAIR_USE_ACCOUNT_WEIGHT_PER_MINUTE: budget(FAIR_USE_LIMITS.accountWeightPerMinute),
  FAIR_USE_ORDERS_PER_10S: budget(FAIR_USE_LIMITS.ordersPer10Seconds),
  FAIR_USE_ORDERS_PER_MINUTE: budget(FAIR_USE_LIMITS.ordersPerMinute),
  FAIR_USE_ORDERS_PER_IP_PER_MINUTE: budget(FAIR_USE_LIMITS.ordersPerIpPerMinute),
  FAIR_USE_WITHDRAWALS_PER_MINUTE: budget(FAIR_USE_LIMITS.withdrawalsPerMinute),
  PRICE_SOURCES: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== ''),
    )
    .pipe(
      z
        .array(z.enum(priceSourceNames, { error: `must be a comma list of ${priceSourceNames.join(', ')}` }))
        .min(1, { error: 'must name at least one price source' }),
    )
    .default(['simulator']),
  SIMULATOR_SEED: z.string().min(1).max(200).default('meridian'),
  SIMULATOR_TICK_MS: z.coerce
    .number()
    .int()
    .min(MIN_SIMULATOR_TICK_MS)
    .max(MAX_SIMULATOR_TICK_MS)
    .default(DEFAULT_SIMULATOR_TICK_MS),
  EXCHANGE_REST_URL: z.url({ error: 'must be an absolute http(s) URL' }).default('https://data-api.binance.vision'),
  EXCHANGE_WS_URL: z
    .string()
    .regex(/^wss?:\/\/[^\s]+$/, { error: 'must be a ws:// or wss:// URL' })
    .default('wss://data-stream.binance.vision'),
  MARKET_DATA_URL: z.url({ error: 'must be an absolute http(s) URL' }).default('https://api.coingecko.com/api/v3'),
  MARKET_DATA_API_KEY: z.string().min(1).optional(),
  PRICE_FEED_ENABLED: envBoolean.default(true),
  /** Spec §9: price polling fallback every 30 s. */
  PRICE_POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HISTORY_DAYS: z.coerce.number().int().min(0).max(MAX_HISTORY_DAYS).optional(),
  HISTORY_MINUTE_HOURS: z.coerce.number().int().min(0).max(MAX_HISTORY_MINUTE_HOURS).optional(),
  /** Limit and stop prices must lie within this many basis points of the reference price (1000 = 10 %). */
  PRICE_BAND_BPS: z.coerce.number().int().min(10).max(9_000).default(1_000),
  /** Conversions refuse to quote from a reference price older than this (docs/conversions.md). */
  CONVERSION_REFERENCE_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(CONVERSION_REFERENCE_MAX_AGE_SECONDS),
  /** What one account may convert per minute, in USD at the reference price. */
  CONVERSION_ACCOUNT_LIMIT_USD: z
    .string()
    .regex(USD_AMOUNT, { error: 'must be a USD amount like 100000 or 2500.50' })
    .default(CONVERSION_ACCOUNT_LIMIT_USD),
  /** What all accounts together may convert per minute, in USD at the reference price. */
  CONVERSION_HOUSE_LIMIT_USD: z
    .string()
    .regex(USD_AMOUNT, { error: 'must be a USD amount like 1000000 or 2500.50' })
    .default(CONVERSION_HOUSE_LIMIT_USD),
  /** An engine snapshot per market after this many commands. */
  ENGINE_SNAPSHOT_EVERY: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  MARKET_MAKER_ENABLED: envBoolean.optional(),
  /** How often the busiest markets' quotes are refreshed around the reference price (quiet ones less often). */
  MARKET_MAKER_REFRESH_MS: z.coerce.number().int().min(100).max(3_600_000).default(2_000),
  /** Price levels quoted on each side of each market. */
  MARKET_MAKER_LEVELS: z.coerce.number().int().min(1).max(100).default(20),
  /** Futures margin call: the margin ratio (maintenance / margin balance) that sends one, a decimal in (0, 1). */
  FUTURES_MARGIN_CALL_RATIO: z
    .string()
    .regex(/^0\.\d{1,8}$/, 'must be a decimal between 0 and 1, e.g. 0.8')
    .refine((text) => /[1-9]/.test(text), 'must be above 0')
    .default('0.8'),
  /** Futures funding interval in ms (8 h by default: rounds at 00:00, 08:00 and 16:00 UTC); at least a minute. */
  FUNDING_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(24 * 3_600_000)
    .default(FUTURES_DEFAULT_FUNDING_INTERVAL_MS),
  /**
   * Futures index: a price source's quote older than this (ms) is left out of the index, and a
   * market whose index is older is not liquidated until a source answers again; 1 s to 1 h.
   */
  FUTURES_INDEX_STALE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** Simulated takers trading with the market makers (on by default, off in tests). */
  MARKET_TAKER_ENABLED: envBoolean.optional(),
  /** Portfolio value snapshots every hour (on by default, off in tests, which drive the recorder themselves). */
  PORTFOLIO_SNAPSHOTS_ENABLED: envBoolean.optional(),
  /** Accounts valued per statement by the snapshot recorder. */
  PORTFOLIO_SNAPSHOT_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).default(2_000),
  /** Days of hourly snapshots kept (daily ones are kept forever); at least 8, so the 1 W chart is always hourly. */
  PORTFOLIO_HOURLY_RETENTION_DAYS: z.coerce.number().int().min(8).max(400).default(8),
  /** Mean taker orders a minute on the busiest markets (BTC and ETH against USD and USDT). */
  MARKET_TAKER_TRADES_PER_MINUTE: z.coerce.number().min(0.01).max(6_000).default(12),
  /** Comma-separated pair ids the bots quote and trade; all active pairs when unset. */
  MARKET_MAKER_PAIRS: z.string().optional(),
  /** Which payment provider moves money in and out (docs/payment-providers.md). */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'triple-a', 'nowpayments']).default('sandbox'),
  /** The sandbox lets anyone credit balances; production refuses it unless this says so (demo servers, e2e). */
  ALLOW_SANDBOX_IN_PRODUCTION: envBoolean.default(false),
  /** Sandbox: how long a paid checkout or a sent chain deposit takes to confirm. */
  SANDBOX_CONFIRM_DELAY_MS: z.coerce.number().int().min(0).max(86_400_000).default(10_000),
  /** Sandbox: the pause between two steps of a payout (creating -> waiting -> processing -> finished). */
  SANDBOX_PAYOUT_STEP_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_000),
  /** Webhooks signed longer ago than this (or this far in the future) are refused. */
  WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Hex seed (32-64 bytes) of the deposit addresses; derived from the data key when unset. */
  WALLET_HD_SEED: z
    .string()
    .regex(/^([0-9a-fA-F]{2}){32,64}$/, { error: 'must be 64 to 128 hex characters' })
    .optional(),
  TRIPLEA_API_URL: z.url({ error: 'must be an absolute http(s) URL' }).default('https://api.triple-a.io/api/v2'),
  TRIPLEA_CLIENT_ID: z.string().min(1).optional(),
  TRIPLEA_CLIENT_SECRET: z.string().min(1).optional(),
  TRIPLEA_MERCHANT_KEY: z.string().min(1).optional(),
  TRIPLEA_SANDBOX: envBoolean.default(false),
  NOWPAYMENTS_API_URL: z.url({ error: 'must be an absolute http(s) URL' }).default('https://api.nowpayments.io/v1'),
  NOWPAYMENTS_API_KEY: z.string().min(1).optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().min(1).optional(),
  NOWPAYMENTS_EMAIL: z.string().min(1).optional(),
  NOWPAYMENTS_PASSWORD: z.string().min(1).optional(),
  /** Where uploaded KYC documents are kept (object-store adapter, local disk). */
  KYC_STORAGE_DIR: z.string().min(1).optional(),
});

/** Test servers keep their seeded history tiny: every integration suite boots one. */
const TEST_HISTORY_DAYS = 2;
const TEST_HISTORY_MINUTE_HOURS = 1;
/** A year of daily candles and a day of minute candles: what the charts' longest ranges show. */
const DEFAULT_HISTORY_DAYS = 365;
const DEFAULT_HISTORY_MINUTE_HOURS = 24;

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** 'worker': PGlite's WebAssembly PostgreSQL runs on a worker thread, off the event loop. */
  pgliteThread: 'worker' | 'main';
  jwtSecret: string | undefined;
  dataEncryptionKey: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  logLevel: string;
  logPretty: boolean;
  mailer: 'outbox';
  outboxDir: string;
  webDistDir: string;
  trustProxy: boolean;
  /** Per-IP limits of the sign-in routes and every fair-use budget (off in the browser tests). */
  rateLimitEnabled: boolean;
  /** The fair-use budgets (docs/fair-use.md). */
  fairUse: FairUseLimits;
  /** In chain order, always ending with 'simulator'. */
  priceSources: PriceSourceName[];
  simulatorSeed: string;
  simulatorTickMs: number;
  exchangeRestUrl: string;
  exchangeWsUrl: string;
  marketDataUrl: string;
  marketDataApiKey: string | undefined;
  /** Runs the price feed worker (tests that do not need live prices may turn it off). */
  priceFeedEnabled: boolean;
  pricePollIntervalMs: number;
  /** Days of daily candles generated at first start. */
  historyDays: number;
  /** Hours of 1-minute candles generated at first start. */
  historyMinuteHours: number;
  priceBandBps: number;
  /** Conversions: the oldest reference price quoted from, and the per-minute limits in USD (decimal strings). */
  conversions: { referenceMaxAgeSeconds: number; accountLimitUsd: string; houseLimitUsd: string };
  engineSnapshotEvery: number;
  /** Market-making bots (on by default, off in tests unless asked for). */
  marketMakerEnabled: boolean;
  marketMakerRefreshMs: number;
  marketMakerLevels: number;
  /** Futures margin call ratio (FUTURES_MARGIN_CALL_RATIO), a decimal text in (0, 1). */
  futuresMarginCallRatio: string;
  /** Futures funding interval (FUNDING_INTERVAL_MS). */
  fundingIntervalMs: number;
  /** Futures index cut-off (FUTURES_INDEX_STALE_MS): older source quotes are left out, an older index stops liquidations. */
  futuresIndexStaleMs: number;
  marketMakerPairs: string[];
  /** Simulated takers (on by default, off in tests unless asked for). */
  marketTakerEnabled: boolean;
  /** Portfolio snapshots (docs/portfolio.md "Snapshots and value over time"). */
  portfolioSnapshots: { enabled: boolean; batchSize: number; hourlyRetentionDays: number };
  marketTakerTradesPerMinute: number;
  paymentProvider: 'sandbox' | 'triple-a' | 'nowpayments';
  sandboxConfirmDelayMs: number;
  sandboxPayoutStepMs: number;
  webhookToleranceSeconds: number;
  walletHdSeed: string | undefined;
  tripleA: {
    apiUrl: string;
    clientId: string | undefined;
    clientSecret: string | undefined;
    merchantKey: string | undefined;
    sandbox: boolean;
  };
  nowPayments: {
    apiUrl: string;
    apiKey: string | undefined;
    ipnSecret: string | undefined;
    email: string | undefined;
    password: string | undefined;
  };
  kycStorageDir: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The sandbox provider's public endpoints credit any balance on request: fine for a demo, fatal for
 * real money. In production it must be asked for by name.
 */
function refuseSandboxInProduction(env: Env): void {
  if (env.NODE_ENV !== 'production' || env.PAYMENT_PROVIDER !== 'sandbox' || env.ALLOW_SANDBOX_IN_PRODUCTION) return;
  throw new ConfigError([
    'PAYMENT_PROVIDER: the sandbox provider (the default) is refused with NODE_ENV=production: ' +
      'anyone could credit balances through its public endpoints. Set PAYMENT_PROVIDER to triple-a or nowpayments, ' +
      'or set ALLOW_SANDBOX_IN_PRODUCTION=true for a demo server.',
  ]);
}

/** Parses the environment once at start; any bad value is reported by name and stops the start. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== '')),
  );
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  refuseSandboxInProduction(env);
  return { ...serverConfig(env), ...marketConfig(env), ...moneyConfig(env) };
}

type Env = z.output<typeof envSchema>;
const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '');

/** The server itself: network, storage, secrets, sessions, logs. */
function serverConfig(env: Env) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: withoutTrailingSlash(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    pgliteThread: env.PGLITE_THREAD,
    jwtSecret: env.JWT_SECRET,
    dataEncryptionKey: env.DATA_ENCRYPTION_KEY,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
    logLevel: env.LOG_LEVEL,
    logPretty: env.LOG_PRETTY ?? (env.NODE_ENV === 'development' && process.stdout.isTTY === true),
    mailer: env.MAILER,
    outboxDir: path.join(dataDir, 'outbox'),
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    trustProxy: env.TRUST_PROXY,
    rateLimitEnabled: env.RATE_LIMIT_ENABLED,
    fairUse: {
      publicWeightPerMinute: env.FAIR_USE_PUBLIC_WEIGHT_PER_MINUTE,
      accountWeightPerMinute: env.FAIR_USE_ACCOUNT_WEIGHT_PER_MINUTE,
      ordersPer10Seconds: env.FAIR_USE_ORDERS_PER_10S,
      ordersPerMinute: env.FAIR_USE_ORDERS_PER_MINUTE,
      ordersPerIpPerMinute: env.FAIR_USE_ORDERS_PER_IP_PER_MINUTE,
      withdrawalsPerMinute: env.FAIR_USE_WITHDRAWALS_PER_MINUTE,
    },
    kycStorageDir: path.resolve(env.KYC_STORAGE_DIR ?? path.join(dataDir, 'kyc')),
  };
}

/** Prices, history, the exchange's own market maker and takers. */
function marketConfig(env: Env) {
  return {
    priceSources: [...new Set([...env.PRICE_SOURCES.filter((name) => name !== 'simulator'), 'simulator' as const])],
    simulatorSeed: env.SIMULATOR_SEED,
    simulatorTickMs: env.SIMULATOR_TICK_MS,
    exchangeRestUrl: withoutTrailingSlash(env.EXCHANGE_REST_URL),
    exchangeWsUrl: withoutTrailingSlash(env.EXCHANGE_WS_URL),
    marketDataUrl: withoutTrailingSlash(env.MARKET_DATA_URL),
    marketDataApiKey: env.MARKET_DATA_API_KEY,
    priceFeedEnabled: env.PRICE_FEED_ENABLED,
    pricePollIntervalMs: env.PRICE_POLL_INTERVAL_MS,
    historyDays: env.HISTORY_DAYS ?? (env.NODE_ENV === 'test' ? TEST_HISTORY_DAYS : DEFAULT_HISTORY_DAYS),
    historyMinuteHours:
      env.HISTORY_MINUTE_HOURS ?? (env.NODE_ENV === 'test' ? TEST_HISTORY_MINUTE_HOURS : DEFAULT_HISTORY_MINUTE_HOURS),
    priceBandBps: env.PRICE_BAND_BPS,
    engineSnapshotEvery: env.ENGINE_SNAPSHOT_EVERY,
    marketMakerEnabled: env.MARKET_MAKER_ENABLED ?? env.NODE_ENV !== 'test',
    marketMakerRefreshMs: env.MARKET_MAKER_REFRESH_MS,
    marketMakerLevels: env.MARKET_MAKER_LEVELS,
    futuresMarginCallRatio: env.FUTURES_MARGIN_CALL_RATIO,
    fundingIntervalMs: env.FUNDING_INTERVAL_MS,
    futuresIndexStaleMs: env.FUTURES_INDEX_STALE_MS,
    marketMakerPairs: (env.MARKET_MAKER_PAIRS ?? '')
      .split(',')
      .map((pair) => pair.trim().toUpperCase())
      .filter((pair) => pair.length > 0),
    marketTakerEnabled: env.MARKET_TAKER_ENABLED ?? env.NODE_ENV !== 'test',
    marketTakerTradesPerMinute: env.MARKET_TAKER_TRADES_PER_MINUTE,
    portfolioSnapshots: {
      enabled: env.PORTFOLIO_SNAPSHOTS_ENABLED ?? env.NODE_ENV !== 'test',
      batchSize: env.PORTFOLIO_SNAPSHOT_BATCH_SIZE,
      hourlyRetentionDays: env.PORTFOLIO_HOURLY_RETENTION_DAYS,
    },
  };
}

/** Money in and out: conversions' limits, the payment provider and its credentials. */
function moneyConfig(env: Env) {
  return {
    conversions: {
      referenceMaxAgeSeconds: env.CONVERSION_REFERENCE_MAX_AGE_SECONDS,
      accountLimitUsd: env.CONVERSION_ACCOUNT_LIMIT_USD,
      houseLimitUsd: env.CONVERSION_HOUSE_LIMIT_USD,
    },
    paymentProvider: env.PAYMENT_PROVIDER,
    sandboxConfirmDelayMs: env.SANDBOX_CONFIRM_DELAY_MS,
    sandboxPayoutStepMs: env.SANDBOX_PAYOUT_STEP_MS,
    webhookToleranceSeconds: env.WEBHOOK_TOLERANCE_SECONDS,
    walletHdSeed: env.WALLET_HD_SEED?.toLowerCase(),
    tripleA: {
      apiUrl: withoutTrailingSlash(env.TRIPLEA_API_URL),
      clientId: env.TRIPLEA_CLIENT_ID,
      clientSecret: env.TRIPLEA_CLIENT_SECRET,
      merchantKey: env.TRIPLEA_MERCHANT_KEY,
      sandbox: env.TRIPLEA_SANDBOX,
    },
    nowPayments: {
      apiUrl: withoutTrailingSlash(env.NOWPAYMENTS_API_URL),
      apiKey: env.NOWPAYMENTS_API_KEY,
      ipnSecret: env.NOWPAYMENTS_IPN_SECRET,
      email: env.NOWPAYMENTS_EMAIL,
      password: env.NOWPAYMENTS_PASSWORD,
    },
  };
}
