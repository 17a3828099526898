import type { FuturesAccount, FuturesOrder, FuturesPosition, MarginMode } from '@platform/contracts';
import { perp } from '@platform/engine';
import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { balanceOf } from '../ledger/service.ts';
import type { MarginCommand, TpslCommand, TransferCommand } from './account-commands.ts';
import type { FundingRow, TransferRow } from './batch.ts';
import { adlRanks } from './deleverage.ts';
import type { FuturesCore } from './exchange.ts';
import type { FundingCommand } from './funding.ts';
import type { ModifyCommand } from './modify.ts';
import { accountView, type MarkOf, positionView } from './risk.ts';
import type { SettingsState } from './types.ts';
import { moneyText, storedUnits } from './units.ts';

/** An account's futures wallet and equity (the overview's wallet_balance, unrealised_pnl and margin_balance), USD decimal texts. */
export type FuturesEquity = { walletBalance: string; unrealisedPnl: string; equity: string };

/** Account-level commands over the exchange's queue, and the in-memory views of an account. */
export class FuturesAccounts {
  constructor(
    private readonly db: Database,
    private readonly core: FuturesCore,
    private readonly markOf: MarkOf,
  ) {}

  transfer(command: TransferCommand): Promise<Result<TransferRow & { repeated: boolean }>> {
    return this.core.command('transfer', command, {
      accounts: [command.accountId],
      alone: command.direction === 'to_futures',
      prepare: () => this.transferPrepare(command),
    });
  }

  private async transferPrepare(command: TransferCommand): Promise<Result<TransferRow & { repeated: boolean }> | null> {
    if (command.clientTransferId !== null) {
      const found = await this.db.query<{
        id: string;
        direction: 'to_futures' | 'to_spot';
        amount: string;
        created_at: Date;
      }>(
        'SELECT id, direction, amount::text AS amount, created_at FROM futures_transfers WHERE account_id = $1 AND client_transfer_id = $2',
        [command.accountId, command.clientTransferId],
      );
      const row = found.rows[0];
      if (row) {
        const amount = storedUnits(row.amount, 8);
        if (row.direction !== command.direction || amount !== command.amount) return fail('IDEMPOTENCY_CONFLICT');
        return ok({ ...command, id: row.id, createdAt: new Date(row.created_at), repeated: true });
      }
    }
    if (command.direction !== 'to_futures') return null;
    const spot = await balanceOf(this.db, command.accountId, 'USD');
    // The spot balance may carry up to 18 decimals; compare at that scale.
    return storedUnits(spot.available, 18) < command.amount * 10n ** 10n ? fail('INSUFFICIENT_BALANCE') : null;
  }

  setLeverage(accountId: string, marketId: string, leverage: number): Promise<Result<SettingsState>> {
    return this.core.command('leverage', { accountId, marketId, leverage }, { accounts: [accountId] });
  }

  setMarginMode(accountId: string, marketId: string, mode: MarginMode): Promise<Result<SettingsState>> {
    return this.core.command('margin_mode', { accountId, marketId, mode }, { accounts: [accountId] });
  }

  moveMargin(command: MarginCommand): Promise<Result<{ margin: bigint }>> {
    return this.core.command('isolated_margin', command, { accounts: [command.accountId] });
  }

  setTpsl(command: TpslCommand): Promise<Result<{ takeProfitTicks: number | null; stopLossTicks: number | null }>> {
    return this.core.command('tpsl', command, { accounts: [command.accountId] });
  }

  modifyOrder(command: ModifyCommand): Promise<Result<FuturesOrder>> {
    return this.core.command('modify', command, { accounts: [command.accountId] });
  }

  /** One funding round (idempotent per market and funding time). */
  settleFunding(marketId: string, rate: bigint, markTicks: number, fundingTime: number): Promise<Result<FundingRow>> {
    const command: FundingCommand = { marketId, rate, markTicks, fundingTime };
    return this.core.command('funding', command, {
      accounts: [],
      prepare: async () => {
        const done = await this.db.query(
          'SELECT 1 FROM futures_funding_rounds WHERE market_id = $1 AND funding_time = $2',
          [marketId, fundingTime],
        );
        return done.rows.length > 0
          ? fail('VALIDATION_ERROR', { message: 'This funding round was already settled' })
          : null;
      },
    });
  }

  /** Tops the house's futures wallet up to `target` from market_making when it holds less than half of it. */
  fundHouse(accountId: string, target: bigint): Promise<Result<bigint>> {
    return this.core.command('house_funding', { accountId, target }, { accounts: [accountId] });
  }

  async account(accountId: string): Promise<FuturesAccount> {
    await this.core.state.loadWallets(this.db, [accountId]);
    await this.core.committed();
    return accountView(this.core.state, accountId, this.markOf);
  }

  async positions(accountId: string): Promise<FuturesPosition[]> {
    await this.core.state.loadWallets(this.db, [accountId]);
    await this.core.committed();
    return this.positionViews(accountId);
  }

  private positionViews(accountId: string): FuturesPosition[] {
    const state = this.core.state;
    return state
      .positionsOf(accountId)
      .filter((p) => p.sizeLots !== 0)
      .map((p) => positionView(state, p, this.markOf, adlRanks(state, p.marketId, this.markOf).get(accountId) ?? 0));
  }

  /**
   * The account view and its open positions read from one moment of the exchange's memory (no
   * batch can commit between the two, as it could between account() and positions()).
   */
  async overview(accountId: string): Promise<{ account: FuturesAccount; positions: FuturesPosition[] }> {
    await this.core.state.loadWallets(this.db, [accountId]);
    await this.core.committed();
    return { account: accountView(this.core.state, accountId, this.markOf), positions: this.positionViews(accountId) };
  }

  /**
   * The overview, with `read` run while the exchange's queue is held: nothing the exchange moves
   * (a transfer from or to spot included) commits between the two. It stops the exchange for as
   * long as `read` runs: a fallback for a read that must be exact, never the common path.
   */
  async overviewAlongside<T>(
    accountId: string,
    read: () => Promise<T>,
  ): Promise<{ value: T; account: FuturesAccount; positions: FuturesPosition[] }> {
    await this.core.state.loadWallets(this.db, [accountId]);
    return this.core.inspect(async (state) => {
      const value = await read();
      return { value, account: accountView(state, accountId, this.markOf), positions: this.positionViews(accountId) };
    });
  }

  /**
   * The futures equity of many accounts at once (the portfolio's snapshots), each equal to its
   * overview's margin_balance at one moment of the exchange's memory. Accounts the exchange holds
   * are read from it; the others from the ledger, without loading them (valuing every account must
   * not fill the exchange's memory): only the exchange moves a futures wallet and it loads one
   * before it does, so a wallet it does not hold is what the ledger holds, and it has no position.
   * An account without a futures wallet is left out.
   */
  async equities(accountIds: readonly string[]): Promise<Map<string, FuturesEquity>> {
    for (;;) {
      const before = this.core.state;
      const missing = accountIds.filter((id) => !before.wallets.has(id));
      const stored = missing.length === 0 ? [] : await this.storedWallets(missing);
      await this.core.committed();
      // A failed write rebuilds the memory from the database (with fewer wallets): read again.
      if (this.core.state !== before) continue;
      const found = new Map(stored.map((row) => [row.account_id, row]));
      const result = new Map<string, FuturesEquity>();
      for (const id of accountIds) {
        if (before.wallets.has(id)) {
          const view = accountView(before, id, this.markOf);
          const equity = view.margin_balance;
          result.set(id, { walletBalance: view.wallet_balance, unrealisedPnl: view.unrealised_pnl, equity });
          continue;
        }
        const row = found.get(id);
        if (!row) continue;
        const balance = moneyText(storedUnits(row.available, 8) + storedUnits(row.locked, 8));
        result.set(id, { walletBalance: balance, unrealisedPnl: '0', equity: balance });
      }
      return result;
    }
  }

  private async storedWallets(accountIds: readonly string[]) {
    const rows = await this.db.query<{ account_id: string; available: string; locked: string }>(
      `SELECT account_id::text AS account_id, available::text AS available, locked::text AS locked
       FROM ledger_accounts WHERE owner_kind = 'futures' AND currency = 'USD' AND account_id = ANY($1::uuid[])`,
      [accountIds],
    );
    return rows.rows;
  }

  settings(accountId: string) {
    const state = this.core.state;
    return [...state.markets.values()].map((spec) => {
      const setting = state.setting(accountId, spec.id);
      return {
        market: spec.id,
        leverage: setting.leverage,
        margin_mode: setting.mode,
        max_leverage: maxLeverageNow(this.core, accountId, spec.id, this.markOf),
      };
    });
  }
}

/** The highest leverage the current position allows (its tier at mark), within the market's maximum. */
export function maxLeverageNow(core: FuturesCore, accountId: string, marketId: string, markOf: MarkOf): number {
  const spec = core.state.markets.get(marketId)!;
  const position = core.state.position(accountId, marketId);
  const mark = markOf(marketId) ?? 0;
  const notional = perp.notionalMoney(spec, mark, Math.abs(position.sizeLots));
  return Math.min(spec.maxLeverage, perp.maxLeverageForNotional(spec.tiers, notional));
}
