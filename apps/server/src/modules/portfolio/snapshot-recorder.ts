import { COINS, REFERENCE_PRICES_USD } from '@platform/contracts';
import { type Amount, add, decimal, isZero, mul, zero } from '@platform/money';
import type { Database } from '../../db/database.ts';
import type { FuturesEquity } from '../futures/accounts.ts';
import type { SpotValueRow, UsdPriceRow, Wallet } from '../wallet/index.ts';
import { FlowPricer } from './flow-prices.ts';
import type { LedgerChanges } from './ledger-changes.ts';
import { consistentRead, type PortfolioDeps } from './service.ts';
import {
  bucketMs,
  bucketOf,
  DAY_MS,
  insertSnapshots,
  previousSnapshotTimes,
  pruneHourly,
  type SnapshotGranularity,
  type SnapshotRow,
} from './snapshots.ts';
import { type PriceLookup, text } from './valuation.ts';

/**
 * The snapshot recorder (docs/portfolio.md "Snapshots and value over time"): at each top of the
 * UTC hour it values every account with a balance and writes one 'hour' row per account, and on
 * this process's first run of a UTC day one 'day' row at 00:00. Everything in bulk: the spot side
 * in SQL per page of accounts at one set of prices taken at the start of the run, the futures
 * equity from the exchange's memory per page, the flows per page from the ledger.
 */

/** How often the timer looks at the clock: a new hour is recorded within this much of its start. */
export const SNAPSHOT_TICK_MS = 15_000;

export type RecorderDeps = {
  db: Database;
  wallet: Pick<Wallet, 'spotValues' | 'flows'>;
  futures: PortfolioDeps['futures'];
  balances: PortfolioDeps['balances'];
  changes: Pick<LedgerChanges, 'version' | 'watch'>;
  /** The live USD price chain (the summary's); read once per run. */
  prices: PriceLookup;
  /** The recorded USD price of a currency at a past moment (markets.usdPriceAt), for the flows. */
  priceAt: (currency: string, timeMs: number) => Promise<string | null>;
  clock: () => Date;
  batchSize: number;
  hourlyRetentionDays: number;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
};

export type RunResult = {
  at: string;
  granularities: SnapshotGranularity[];
  accounts: number;
  written: number;
  pruned: number;
  ms: number;
  /** Where the time went (ms): spot values in SQL, futures equities, flows, writing, pruning. */
  phases: RunPhases;
};

export type RunPhases = { spotMs: number; futuresMs: number; flowsMs: number; writeMs: number; pruneMs: number };

/** The currencies a run prices: USD, the catalogue's coins and every currency with a catalogue price. */
export function runCurrencies(): string[] {
  return [...new Set(['USD', ...COINS.map((coin) => coin.symbol), ...Object.keys(REFERENCE_PRICES_USD)])].sort();
}

type RunPrices = { rows: UsdPriceRow[]; byCurrency: Map<string, Amount> };

/** The run's prices, taken once: every account of a run is valued at the same prices. */
function runPrices(lookup: PriceLookup): RunPrices {
  const byCurrency = new Map<string, Amount>();
  for (const currency of runCurrencies()) {
    const price = lookup(currency);
    if (price) byCurrency.set(currency, price.price);
  }
  return { rows: [...byCurrency].map(([currency, price]) => ({ currency, price: text(price) })), byCurrency };
}

type Run = {
  hourMs: number;
  granularities: readonly SnapshotGranularity[];
  prices: RunPrices;
  flows: FlowPricer;
  phases: RunPhases;
};

/** Runs `work` and adds its wall time to the run's phase. */
async function timed<T>(run: Run, phase: keyof RunPhases, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    run.phases[phase] += performance.now() - started;
  }
}
type AccountValue = { spot: Amount; futures: Amount; holds: boolean };

export class SnapshotRecorder {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RunResult | null> | null = null;
  /** The last hour and day this process recorded (a new process records the current ones once). */
  private lastHourMs: number | null = null;
  private lastDayMs: number | null = null;

  constructor(private readonly deps: RecorderDeps) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch(() => {}), SNAPSHOT_TICK_MS);
    this.timer.unref();
    void this.tick().catch(() => {});
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /**
   * Records the current hour if this process has not yet (and the current day on its first run of
   * the day). One run at a time: a tick during a run waits for it. A failed run is logged and
   * retried on the next tick, for the bucket current then.
   */
  tick(): Promise<RunResult | null> {
    if (this.running) return this.running;
    this.running = this.tickOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async tickOnce(): Promise<RunResult | null> {
    const nowMs = this.deps.clock().getTime();
    const hourMs = bucketOf('hour', nowMs);
    const dayMs = bucketOf('day', nowMs);
    if (this.lastHourMs === hourMs) return null;
    const granularities: SnapshotGranularity[] = this.lastDayMs === dayMs ? ['hour'] : ['hour', 'day'];
    try {
      const result = await this.record(hourMs, granularities);
      this.lastHourMs = hourMs;
      this.lastDayMs = dayMs;
      this.deps.log.info(result, 'portfolio snapshots recorded');
      return result;
    } catch (error) {
      const at = new Date(hourMs).toISOString();
      this.deps.log.warn({ err: error, at }, 'portfolio snapshots failed; retried on the next tick');
      throw error;
    }
  }

  /**
   * One run for the hour bucket `hourMs` (and its day when asked): every page of accounts valued
   * and written, then the hourly rows past the retention pruned. Values are read now, whatever
   * the bucket: a run after downtime records the current bucket only, never a past one.
   */
  async record(hourMs: number, granularities: readonly SnapshotGranularity[]): Promise<RunResult> {
    const startedMs = performance.now();
    const prices = runPrices(this.deps.prices);
    const flows = new FlowPricer(this.deps.priceAt, (currency) => prices.byCurrency.get(currency));
    const phases: RunPhases = { spotMs: 0, futuresMs: 0, flowsMs: 0, writeMs: 0, pruneMs: 0 };
    const run: Run = { hourMs, granularities, prices, flows, phases };
    let afterAccountId: string | null = null;
    let accounts = 0;
    let written = 0;
    for (;;) {
      const page = await this.readPage(run, afterAccountId);
      if (page.spot.length === 0) break;
      const rows = await this.pageRows(run, page.spot, page.values);
      accounts += rows.length / granularities.length;
      written += await timed(run, 'writeMs', () => insertSnapshots(this.deps.db, rows));
      afterAccountId = page.spot[page.spot.length - 1]!.accountId;
      if (page.spot.length < this.deps.batchSize) break;
    }
    const retainedFromMs = hourMs - this.deps.hourlyRetentionDays * DAY_MS;
    const pruned = await timed(run, 'pruneMs', () => pruneHourly(this.deps.db, retainedFromMs));
    const ms = Math.round(performance.now() - startedMs);
    for (const phase of Object.keys(phases) as (keyof RunPhases)[]) phases[phase] = Math.round(phases[phase]);
    return {
      at: new Date(hourMs).toISOString(),
      granularities: [...granularities],
      accounts,
      written,
      pruned,
      ms,
      phases,
    };
  }

  /**
   * A page of accounts valued: spot in SQL, then the futures equity from the exchange's memory.
   * They are two reads, and a transfer between an account's wallets must be counted once: an
   * account whose balances changed between them is read again alone, as the summary reads it
   * (its balances and futures overview from one moment), at the run's prices.
   */
  private async readPage(run: Run, afterAccountId: string | null) {
    const watch = this.deps.changes.watch();
    let spot: SpotValueRow[];
    let equities: Map<string, FuturesEquity>;
    try {
      const page = { afterAccountId, limit: this.deps.batchSize, prices: run.prices.rows };
      spot = await timed(run, 'spotMs', () => this.deps.wallet.spotValues(page));
      const ids = spot.map((row) => row.accountId);
      equities = await timed(run, 'futuresMs', () => this.deps.futures.accounts.equities(ids));
    } finally {
      watch.stop();
    }
    const values = new Map<string, AccountValue>();
    for (const row of spot) {
      const id = row.accountId;
      values.set(
        id,
        watch.changed.has(id) ? await this.aloneValue(id, run.prices.byCurrency) : pageValue(row, equities.get(id)),
      );
    }
    return { spot, values };
  }

  private async aloneValue(accountId: string, prices: ReadonlyMap<string, Amount>): Promise<AccountValue> {
    const { balances, overview } = await consistentRead(this.deps, accountId);
    let spot = zero();
    let holds = false;
    for (const balance of balances) {
      const amount = add(decimal(balance.available), decimal(balance.locked));
      if (!isZero(amount)) holds = true;
      const price = prices.get(balance.currency);
      if (price) spot = add(spot, mul(amount, price));
    }
    const futures = decimal(overview.account.margin_balance);
    const wallet = decimal(overview.account.wallet_balance);
    return { spot, futures, holds: holds || !isZero(wallet) || !isZero(futures) };
  }

  /** The rows of one page: an account with no balance and no flow gets none. */
  private async pageRows(
    run: Run,
    page: readonly SpotValueRow[],
    values: ReadonlyMap<string, AccountValue>,
  ): Promise<SnapshotRow[]> {
    const ids = page.map((row) => row.accountId);
    const flows = await timed(run, 'flowsMs', () => this.pageFlows(run, ids));
    const rows: SnapshotRow[] = [];
    for (const { accountId } of page) {
      const value = values.get(accountId)!;
      const accountFlows = flows.get(accountId);
      if (!value.holds && accountFlows === undefined) continue;
      for (const granularity of run.granularities) {
        rows.push({
          accountId,
          granularity,
          atMs: bucketOf(granularity, run.hourMs),
          totalValue: text(add(value.spot, value.futures)),
          spotValue: text(value.spot),
          futuresEquity: text(value.futures),
          netFlow: text(accountFlows?.get(granularity) ?? zero()),
        });
      }
    }
    return rows;
  }

  /**
   * Per account and granularity, the USD value of its flows in (its previous row of that
   * granularity, the bucket], or for its first row over the bucket's length before it; each flow
   * at its recorded price. Accounts without a flow are left out.
   */
  private async pageFlows(run: Run, ids: readonly string[]) {
    const windows: { granularity: SnapshotGranularity; atMs: number; previous: Map<string, number> }[] = [];
    let fromMs = Number.POSITIVE_INFINITY;
    for (const granularity of run.granularities) {
      const atMs = bucketOf(granularity, run.hourMs);
      const previous = await previousSnapshotTimes(this.deps.db, ids, granularity, atMs);
      windows.push({ granularity, atMs, previous });
      fromMs = Math.min(fromMs, atMs - bucketMs(granularity), ...previous.values());
    }
    const result = new Map<string, Map<SnapshotGranularity, Amount>>();
    for (const flow of await this.deps.wallet.flows(ids, fromMs, run.hourMs)) {
      const value = await run.flows.value(flow);
      for (const { granularity, atMs, previous } of windows) {
        const startMs = previous.get(flow.accountId) ?? atMs - bucketMs(granularity);
        if (flow.createdAtMs <= startMs || flow.createdAtMs > atMs) continue;
        const own = result.get(flow.accountId) ?? new Map<SnapshotGranularity, Amount>();
        own.set(granularity, add(own.get(granularity) ?? zero(), value));
        result.set(flow.accountId, own);
      }
    }
    return result;
  }
}

function pageValue(row: SpotValueRow, equity: FuturesEquity | undefined): AccountValue {
  const futures = equity ? decimal(equity.equity) : zero();
  const walletHolds = equity !== undefined && !isZero(decimal(equity.walletBalance));
  return { spot: decimal(row.spotValue), futures, holds: row.holds || walletHolds || !isZero(futures) };
}
