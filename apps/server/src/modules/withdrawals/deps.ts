import type { PaymentGateway } from '../../adapters/payments/index.ts';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import type { AccountCredentials } from '../auth/account-credentials.ts';
import type { AttemptLimiter } from '../auth/index.ts';
import type { BalanceCache } from '../ledger/balance-cache.ts';
import type { MarketFeed } from '../markets/index.ts';
import type { InsertNotifications } from '../notifications/index.ts';

/**
 * What withdrawals and payouts need, in a file of its own so that the parts (items, daily limit,
 * reads, the processor) take it without importing service.ts, which imports them.
 */
export interface WithdrawalDeps {
  /** Sends the payouts and quotes their fees. */
  gateway: PaymentGateway;
  /** The live USD prices (the markets' feed). */
  feed: Pick<MarketFeed, 'usdPrice'>;
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** Opens the accounts' sealed TOTP secrets. */
  secretBox: SecretBox;
  /** The accounts' TOTP secrets and used steps (the accounts module's). */
  accounts: AccountCredentials;
  /** Wrong withdrawal 2FA codes per account. */
  twoFactorLimiter: AttemptLimiter;
  /** Tells the payout processor that withdrawals wait to be sent. */
  kick: () => void;
  /** The ledger's balance cache, which the provider facade's balance reads answer from. */
  balances: BalanceCache;
  /** Stores notifications in a transaction (the notifications module's; it drops their unread counts). */
  insertNotifications: InsertNotifications;
}
