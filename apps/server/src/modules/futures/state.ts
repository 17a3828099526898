import { MarketEngine, ReferenceOrderBook } from '@platform/engine';
import type { Queryable } from '../../db/database.ts';
import type { FuturesMarketSpec } from './markets.ts';
import {
  DEFAULT_LEVERAGE,
  DEFAULT_MARGIN_MODE,
  type FuturesOrderState,
  futuresKey,
  type PositionState,
  type SettingsState,
  type WalletState,
} from './types.ts';
import { storedUnits } from './units.ts';

/**
 * A map that also keeps its values by account, in the map's own order: a command reads one
 * account's positions and orders, and must not walk every account's (100,000 positions).
 */
export class AccountIndexed<V extends { accountId: string }> extends Map<string, V> {
  private readonly byAccount = new Map<string, Map<string, V>>();

  override set(key: string, value: V): this {
    const old = super.get(key);
    if (old && old.accountId !== value.accountId) this.unindex(key, old.accountId);
    super.set(key, value);
    let own = this.byAccount.get(value.accountId);
    if (!own) {
      own = new Map();
      this.byAccount.set(value.accountId, own);
    }
    own.set(key, value);
    return this;
  }

  override delete(key: string): boolean {
    const old = super.get(key);
    if (old) this.unindex(key, old.accountId);
    return super.delete(key);
  }

  override clear(): void {
    this.byAccount.clear();
    super.clear();
  }

  /** The account's values, in the order the map holds them. */
  ofAccount(accountId: string): V[] {
    const own = this.byAccount.get(accountId);
    return own ? [...own.values()] : [];
  }

  private unindex(key: string, accountId: string): void {
    const own = this.byAccount.get(accountId);
    own?.delete(key);
    if (own?.size === 0) this.byAccount.delete(accountId);
  }
}

/**
 * Everything the exchange decides on, in memory: futures wallets, positions, settings, open orders
 * and one matching engine per market. Built only from committed rows (loadState), so a restart or
 * a failed write starts from exactly what the database holds.
 */
export class FuturesState {
  readonly wallets = new Map<string, WalletState>();
  readonly positions = new AccountIndexed<PositionState>();
  readonly settings = new Map<string, SettingsState>();
  /** Open orders by id. */
  readonly orders = new AccountIndexed<FuturesOrderState>();
  readonly engines = new Map<string, MarketEngine>();
  /** The insurance fund's balance (money). */
  insuranceFund = 0n;
  sequence = 0;

  constructor(
    readonly markets: ReadonlyMap<string, FuturesMarketSpec>,
    private readonly bandBps: number,
    /** A replay's state: every wallet starts empty when first used (live, wallets are read from the ledger first). */
    private readonly openWallets = false,
  ) {
    for (const spec of markets.values()) this.engines.set(spec.id, this.newEngine(spec));
  }

  newEngine(spec: FuturesMarketSpec): MarketEngine {
    return new MarketEngine(new ReferenceOrderBook(), {
      minQuantityLots: 1,
      maxQuantityLots: spec.maxLots,
      priceBandBps: this.bandBps,
      selfTradePrevention: 'cancel_newest',
    });
  }

  engine(marketId: string): MarketEngine {
    const engine = this.engines.get(marketId);
    if (!engine) throw new Error(`no engine for ${marketId}`);
    return engine;
  }

  position(accountId: string, marketId: string): PositionState {
    const key = futuresKey(accountId, marketId);
    let position = this.positions.get(key);
    if (!position) {
      position = {
        accountId,
        marketId,
        sizeLots: 0,
        costTickLots: 0n,
        isolatedMargin: 0n,
        realisedPnl: 0n,
        takeProfitTicks: null,
        stopLossTicks: null,
        updatedAt: new Date(0),
      };
      this.positions.set(key, position);
    }
    return position;
  }

  setting(accountId: string, marketId: string): SettingsState {
    const key = futuresKey(accountId, marketId);
    let setting = this.settings.get(key);
    if (!setting) {
      setting = { accountId, marketId, leverage: DEFAULT_LEVERAGE, mode: DEFAULT_MARGIN_MODE };
      this.settings.set(key, setting);
    }
    return setting;
  }

  wallet(accountId: string): WalletState {
    let wallet = this.wallets.get(accountId);
    if (!wallet && this.openWallets) {
      wallet = { available: 0n, locked: 0n };
      this.wallets.set(accountId, wallet);
    }
    if (!wallet) throw new Error(`futures wallet of ${accountId} not loaded`);
    return wallet;
  }

  positionsOf(accountId: string): PositionState[] {
    return this.positions.ofAccount(accountId);
  }

  openOrdersOf(accountId: string, marketId?: string): FuturesOrderState[] {
    return this.orders
      .ofAccount(accountId)
      .filter((o) => marketId === undefined || o.marketId === marketId)
      .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));
  }

  /** Reads the wallets of these accounts that are not in memory yet. */
  async loadWallets(db: Queryable, accountIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(accountIds)].filter((id) => !this.wallets.has(id));
    if (missing.length === 0) return;
    const rows = await db.query<{ account_id: string; available: string; locked: string }>(
      `SELECT account_id::text AS account_id, available::text AS available, locked::text AS locked
       FROM ledger_accounts WHERE owner_kind = 'futures' AND currency = 'USD' AND account_id = ANY($1::uuid[])`,
      [missing],
    );
    // Only the exchange moves futures wallets: a wallet that came into memory while this read ran
    // (another read, or a batch) is newer than what the read found.
    const found = new Map(rows.rows.map((row) => [row.account_id, row]));
    for (const id of missing) {
      if (this.wallets.has(id)) continue;
      const row = found.get(id);
      this.wallets.set(id, {
        available: row ? storedUnits(row.available, 8) : 0n,
        locked: row ? storedUnits(row.locked, 8) : 0n,
      });
    }
  }
}
