import type { PaymentGateway } from '../../adapters/payments/index.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { InsertNotifications } from '../notifications/index.ts';
import { accountMovements, type MovementCursor, type MovementPage } from './movements.ts';
import { walletRoutes } from './routes.ts';
import { type UserTransfer, userTransfersPage } from './transfer-history.ts';
import { TransferSettler, type WalletDeps } from './transfers.ts';
import {
  type AccountFlow,
  accountFlows,
  type SpotValueRow,
  spotValuesPage,
  type UsdPriceRow,
} from './valuation-reads.ts';

export type WalletUses = {
  /** Asked for the fee and minimum quotes. */
  gateway: PaymentGateway;
  /** The ledger's balance cache (one per server: the trading writer drops from it too). */
  balances: BalanceCache;
  /** Stores the transfer notifications (the notifications module's). */
  insertNotifications: InsertNotifications;
};

/**
 * The custodial wallet: balances and history from the ledger, and transfers between users. A
 * transfer held before a restart is settled when the server is ready.
 */
export type { AccountMovement, MovementCursor, MovementPage } from './movements.ts';
export type { UserTransfer } from './transfer-history.ts';
export type { AccountFlow, SpotValueRow, UsdPriceRow } from './valuation-reads.ts';

/** What the wallet offers: its routes, and the account's history of balance changes (the portfolio's lots). */
export type Wallet = ModuleParts & {
  /** All of the account's movements, or those after a cursor an earlier page gave (movements.ts). */
  movements(accountId: string, after?: MovementCursor): Promise<MovementPage>;
  /** A page of accounts with spot balances, valued in SQL at the prices given (the portfolio's snapshots). */
  spotValues(page: {
    afterAccountId: string | null;
    limit: number;
    prices: readonly UsdPriceRow[];
  }): Promise<SpotValueRow[]>;
  /** Deposits, withdrawals and transfers between users of these accounts in (fromMs, toMs]. */
  flows(accountIds: readonly string[], fromMs: number, toMs: number): Promise<AccountFlow[]>;
  /** The account's transfers to and from other users, oldest first, in keyset pages (the exports). */
  userTransfersPage: KeysetPage<UserTransfer>;
};

export function createWallet(context: AppContext, { gateway, balances, insertNotifications }: WalletUses): Wallet {
  const deps: WalletDeps = {
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
    balances,
    insertNotifications,
  };
  const settler = new TransferSettler(deps);
  const fees = { log: context.log, clock: context.clock, gateway };
  return {
    routes: (scope) => walletRoutes(scope, context, deps, settler, fees),
    start: () => settler.kick(),
    stop: () => settler.stop(),
    movements: (accountId, after) => accountMovements(context.db, accountId, after),
    spotValues: (page) => spotValuesPage(context.db, page),
    flows: (accountIds, fromMs, toMs) => accountFlows(context.db, accountIds, fromMs, toMs),
    userTransfersPage: (accountId, window, after, limit) =>
      userTransfersPage(context.db, accountId, window, after, limit),
  };
}
