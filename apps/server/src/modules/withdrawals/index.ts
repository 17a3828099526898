import type { PaymentGateway } from '../../adapters/payments/index.ts';
import type { AppContext, ModuleParts } from '../../context.ts';
import type { KeysetPage } from '../../lib/keyset.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import type { AccountCredentials } from '../auth/account-credentials.ts';
import { AttemptLimiter } from '../auth/index.ts';
import { TWO_FACTOR_FAILURES_PER_ACCOUNT } from '../auth/limits.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { Markets } from '../markets/index.ts';
import type { InsertNotifications } from '../notifications/index.ts';
import type { WithdrawalDeps } from './deps.ts';
import { type WithdrawalRecord, withdrawalsPage } from './history.ts';
import { PayoutProcessor } from './processor.ts';
import { withdrawalRoutes } from './routes.ts';

export type { WithdrawalRecord } from './history.ts';

/** The module's parts (tests drive the processor's poll and wait for it to be idle). */
export type Withdrawals = ModuleParts & {
  processor: PayoutProcessor;
  /** The account's withdrawals, oldest first, in keyset pages (the exports). */
  withdrawalsPage: KeysetPage<WithdrawalRecord>;
};

export type WithdrawalsUses = {
  markets: Pick<Markets, 'feed'>;
  gateway: PaymentGateway;
  accounts: AccountCredentials;
  /** The ledger's balance cache (the provider facade's balance reads). */
  balances: BalanceCache;
  /** Stores the withdrawal notifications (the notifications module's). */
  insertNotifications: InsertNotifications;
};

/**
 * Money going out: withdrawals and mass payouts, held from request to completion, sent through
 * the payment provider by one payout processor per server (started when the server is ready, so a
 * withdrawal recorded before a restart is sent then), and completed or failed by the provider's
 * updates (webhooks through the payments module, and a poll of the payouts in flight).
 */
export function createWithdrawals(
  context: AppContext,
  { markets, gateway, accounts, balances, insertNotifications }: WithdrawalsUses,
): Withdrawals {
  let processor: PayoutProcessor | null = null;
  const deps: WithdrawalDeps = {
    db: context.db,
    pubsub: context.pubsub,
    log: context.log,
    clock: context.clock,
    gateway,
    feed: markets.feed,
    secretBox: new SecretBox(context.secrets.dataKey),
    accounts,
    twoFactorLimiter: new AttemptLimiter(TWO_FACTOR_FAILURES_PER_ACCOUNT, context.clock),
    kick: () => processor?.kick(),
    balances,
    insertNotifications,
  };
  processor = new PayoutProcessor(deps);
  const started = processor;
  // The webhook is answered only once this resolves: a failure makes the provider send it again.
  gateway.onPayoutUpdate((payout) => started.applyUpdate(payout));
  return {
    processor: started,
    withdrawalsPage: (accountId, window, after, limit) => withdrawalsPage(context.db, accountId, window, after, limit),
    routes: (scope) => withdrawalRoutes(scope, context, deps, started),
    start: () => started.start(),
    stop: () => started.stop(),
  };
}
