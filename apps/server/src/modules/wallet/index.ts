import type { PaymentGateway } from '../../adapters/payments/index.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { InsertNotifications } from '../notifications/index.ts';
import { type AccountMovement, accountMovements } from './movements.ts';
import { walletRoutes } from './routes.ts';
import { type UserTransfer, userTransfersPage } from './transfer-history.ts';
import { TransferSettler, type WalletDeps } from './transfers.ts';

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
export type { AccountMovement } from './movements.ts';
export type { UserTransfer } from './transfer-history.ts';

/** What the wallet offers: its routes, and the account's history of balance changes (the portfolio's lots). */
export type Wallet = ModuleParts & {
  movements(accountId: string): Promise<AccountMovement[]>;
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
    movements: (accountId) => accountMovements(context.db, accountId),
    userTransfersPage: (accountId, window, after, limit) =>
      userTransfersPage(context.db, accountId, window, after, limit),
  };
}
