import { REFERENCE_PRICES_USD } from '@platform/contracts';
import { decimal, formatDecimal, parseDecimal } from '@platform/money';
import type { Logger } from '../../logger.ts';
import { balanceOf, postEntries } from '../ledger/service.ts';
import { type PairSpec, priceText, quantityText } from './pair-spec.ts';
import type { MarketSequencer } from './sequencer.ts';
import { cancelOrder, placeOrder, referenceTicks, type TradingDeps } from './service.ts';

/** The house market maker: one account, no password, so nobody can sign in as it. */
export const MARKET_MAKER_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a11c';
const MARKET_MAKER_EMAIL = 'market-maker@system.meridian.invalid';

export interface MarketMakerOptions {
  levels: number;
  refreshMs: number;
  /** Only these pairs (tests); all tradable pairs when empty. */
  pairs: string[];
  log: Logger;
}

/** Distance of the first level from the reference price, and between levels, in basis points. */
const HALF_SPREAD_BPS = 5n;
const LEVEL_STEP_BPS = 10n;
/** USD value of one level's quantity, growing away from the touch. */
const LEVEL_USD = [400n, 700n, 1_000n, 1_500n, 2_000n, 3_000n, 4_000n, 5_000n];
/** Each currency is topped up to this USD value whenever it falls below half of it. */
const FUNDING_USD = 20_000_000n;

function usdPriceOf(symbol: string): bigint | null {
  if (symbol === 'USD') return 1n;
  const text = REFERENCE_PRICES_USD[symbol];
  if (text === undefined) return null;
  const parsed = parseDecimal(text, { maxScale: 30, maxIntegerDigits: 30 });
  if (!parsed.ok || parsed.value.units <= 0n) return null;
  return (parsed.value.units * 10n ** 12n) / 10n ** BigInt(parsed.value.scale); // micro-micro dollars (1e-12)
}

/**
 * Market-making bots (ARCHITECTURE.md decision 6): on embedded defaults every active pair shows a
 * full, moving book. One house account with its own ledger balances (funded from the system
 * market_making account, which may go negative: it is the house's capital) quotes a ladder of
 * levels on both sides around the F2 reference price, and requotes a market when its reference has
 * moved. It trades through the same order path as everyone (holds, fees, journal), with self-trade
 * prevention 'cancel_oldest' so that a new quote replaces a stale one of its own.
 */
export class MarketMaker {
  private timer: NodeJS.Timeout | null = null;
  /** Grid step per market, in ticks. */
  private readonly grid = new Map<string, number>();
  private cursor = 0;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: TradingDeps,
    private readonly options: MarketMakerOptions,
  ) {}

  async start(): Promise<void> {
    await this.ensureAccount();
    this.timer = setInterval(
      () => {
        this.running = this.running
          .then(() => this.tick())
          .catch((error: unknown) => {
            this.options.log.warn({ err: error }, 'market maker tick failed');
          });
      },
      Math.max(50, Math.floor(this.options.refreshMs / 4)),
    );
    this.timer.unref();
    this.running = this.running.then(() => this.tick());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running.catch(() => {});
  }

  private markets(): MarketSequencer[] {
    const wanted = new Set(this.options.pairs);
    return this.deps.exchange
      .all()
      .filter((market) => market.spec.tradable && (wanted.size === 0 || wanted.has(market.spec.id)));
  }

  /** A quarter of the markets per tick: every market is looked at once per refresh interval. */
  async tick(): Promise<void> {
    const markets = this.markets();
    if (markets.length === 0) return;
    const count = Math.max(1, Math.ceil(markets.length / 4));
    for (let index = 0; index < count && !this.stopped; index++) {
      const market = markets[this.cursor % markets.length]!;
      this.cursor++;
      await this.quote(market);
    }
  }

  private async ensureAccount(): Promise<void> {
    const { db } = this.deps;
    const now = this.deps.clock().toISOString();
    await db.query(
      `INSERT INTO accounts (id, email, password_hash, first_name, last_name, terms_accepted_at, created_at, updated_at)
       VALUES ($1, $2, NULL, 'Market', 'Maker', $3, $3, $3) ON CONFLICT DO NOTHING`,
      [MARKET_MAKER_ACCOUNT_ID, MARKET_MAKER_EMAIL, now],
    );
  }

  /** Tops the bot's balance of a currency up to FUNDING_USD worth when it fell below half. */
  private async fund(currency: string): Promise<void> {
    const usd = usdPriceOf(currency);
    if (usd === null) return;
    const target = (FUNDING_USD * 10n ** 12n * 10n ** 8n) / usd; // 8 decimals
    const targetText = formatDecimal({ units: target, scale: 8 });
    const balance = await balanceOf(this.deps.db, MARKET_MAKER_ACCOUNT_ID, currency);
    const have = decimal(balance.available);
    const haveAt8 =
      have.scale <= 8 ? have.units * 10n ** BigInt(8 - have.scale) : have.units / 10n ** BigInt(have.scale - 8);
    if (haveAt8 * 2n >= target) return;
    const topUp = formatDecimal({ units: target - haveAt8, scale: 8 });
    await this.deps.db.transaction(async (tx) => {
      await postEntries(tx, [
        {
          kind: 'market_making_funding',
          reference: `${currency}:${this.deps.clock().toISOString()}`,
          metadata: { target: targetText },
          postings: [
            { owner: { kind: 'system', name: 'market_making' }, currency, bucket: 'available', amount: `-${topUp}` },
            {
              owner: { kind: 'user', accountId: MARKET_MAKER_ACCOUNT_ID },
              currency,
              bucket: 'available',
              amount: topUp,
            },
          ],
        },
      ]);
    });
  }

  /**
   * Builds or refreshes one market's ladder. Levels sit on a fixed grid of prices (a tenth of a
   * percent of the first reference price apart), so when the reference moves by one grid step only
   * the level at each end changes: one cancel and one order per side, not a whole new ladder.
   */
  async quote(market: MarketSequencer): Promise<void> {
    const spec = market.spec;
    const reference = referenceTicks(this.deps.pubsub, spec);
    if (reference === null) return;
    const ladder = this.ladder(spec, reference);
    const wanted = new Map(ladder.map((level) => [`${level.side}:${level.priceTicks}`, level]));
    const mine = [...market.orders.values()].filter((order) => order.accountId === MARKET_MAKER_ACCOUNT_ID);
    const stale = mine.filter((order) => !wanted.has(`${order.side}:${order.priceTicks}`));
    const held = new Set(mine.map((order) => `${order.side}:${order.priceTicks}`));
    const missing = ladder.filter((level) => !held.has(`${level.side}:${level.priceTicks}`));
    if (stale.length === 0 && missing.length === 0) return;

    await this.fund(spec.base);
    await this.fund(spec.quote);
    // Stale quotes go first so the new ones never meet them.
    for (const order of stale) {
      await cancelOrder(this.deps, MARKET_MAKER_ACCOUNT_ID, order.id).catch(() => {});
    }
    for (const level of missing) {
      if (this.stopped) return;
      await placeOrder(this.deps, MARKET_MAKER_ACCOUNT_ID, {
        trading_pair: spec.id,
        side: level.side,
        type: 'limit',
        price: priceText(spec, level.priceTicks),
        quantity: quantityText(spec, level.lots),
        time_in_force: 'GTC',
        self_trade_prevention: 'cancel_oldest',
      }).catch((error: unknown) => {
        this.options.log.debug({ err: error, pair: spec.id }, 'market maker quote refused');
      });
    }
  }

  /** The grid step of a market in ticks, fixed at its first quote. */
  private gridStep(spec: PairSpec, reference: number): number {
    let step = this.grid.get(spec.id);
    if (step === undefined) {
      step = Math.max(1, Number((BigInt(reference) * LEVEL_STEP_BPS) / 10_000n));
      this.grid.set(spec.id, step);
    }
    return step;
  }

  private ladder(spec: PairSpec, reference: number): { side: 'buy' | 'sell'; priceTicks: number; lots: number }[] {
    const levels: { side: 'buy' | 'sell'; priceTicks: number; lots: number }[] = [];
    const baseUsd = usdPriceOf(spec.base);
    const ref = BigInt(reference);
    const step = this.gridStep(spec, reference);
    // The best bid is the grid price at or below reference - half spread; the best ask at or above reference + half spread.
    const topBid = Math.floor(Number((ref * (10_000n - HALF_SPREAD_BPS)) / 10_000n) / step) * step;
    const bottomAsk = Math.ceil(Number((ref * (10_000n + HALF_SPREAD_BPS) + 9_999n) / 10_000n) / step) * step;
    for (let index = 0; index < this.options.levels; index++) {
      const bid = topBid - index * step;
      const ask = bottomAsk + index * step;
      const usd = LEVEL_USD[Math.min(index, LEVEL_USD.length - 1)]!;
      // lots = usd / baseUsd, at the pair's quantity precision.
      let lots =
        baseUsd === null ? spec.minLots : Number((usd * 10n ** 12n * 10n ** BigInt(spec.quantityPrecision)) / baseUsd);
      lots = Math.min(spec.maxLots, Math.max(spec.minLots, lots));
      if (bid > 0 && bid < reference) levels.push({ side: 'buy', priceTicks: bid, lots });
      if (ask > reference) levels.push({ side: 'sell', priceTicks: ask, lots });
    }
    return levels;
  }
}
