import type { Database, Queryable } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { postEntries } from '../ledger/service.ts';
import { type AccountNotification, type InsertNotifications, publishNotifications } from '../notifications/service.ts';

/** What the payments module needs from the server. */
export interface PaymentsDeps {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** Stores notifications in a transaction (the notifications module's; it drops their unread counts). */
  insertNotifications: InsertNotifications;
}

export interface Credit {
  accountId: string;
  currency: string;
  /** Canonical positive decimal. */
  amount: string;
  /** The chain deposit's or the payment's id: the ledger entry's reference. */
  reference: string;
  /** What the money came as, for the entry's metadata. */
  source: 'address' | 'checkout' | 'payment' | 'lightning';
}

/**
 * Inside the caller's transaction, after it won the guard that makes this credit happen once:
 * one 'deposit' entry (the custody account, which stands for the coins we hold outside the books
 * and may go below zero, pays the user's available balance) and the 'Deposit confirmed'
 * notification (§8 success text). The ledger announces the new balance (the trading funds book and
 * the account's balance_update follow it) once the transaction commits.
 */
export async function creditInTransaction(
  deps: Pick<PaymentsDeps, 'insertNotifications'>,
  tx: Queryable,
  credit: Credit,
  now: Date,
): Promise<AccountNotification[]> {
  await postEntries(tx, [
    {
      kind: 'deposit',
      reference: credit.reference,
      metadata: { source: credit.source },
      postings: [
        {
          owner: { kind: 'system', name: 'custody' },
          currency: credit.currency,
          bucket: 'available',
          amount: `-${credit.amount}`,
        },
        {
          owner: { kind: 'user', accountId: credit.accountId },
          currency: credit.currency,
          bucket: 'available',
          amount: credit.amount,
        },
      ],
    },
  ]);
  return deps.insertNotifications(tx, [
    {
      accountId: credit.accountId,
      type: 'deposit',
      title: 'Deposit confirmed',
      message: `Your deposit of ${credit.amount} ${credit.currency} is confirmed and available`,
      severity: 'success',
      actionUrl: '/wallet',
      textKey: 'depositConfirmed',
      params: { amount: credit.amount, currency: credit.currency },
      metadata: { amount: credit.amount, transactionId: credit.reference },
      createdAt: now,
    },
  ]);
}

/** After the commit: the stored notification and the new balance go out live. */
export function announceCredit(deps: PaymentsDeps, credit: Credit, stored: readonly AccountNotification[]): void {
  publishNotifications(deps.pubsub, stored);
  deps.log.info(
    {
      accountId: credit.accountId,
      currency: credit.currency,
      amount: credit.amount,
      reference: credit.reference,
      source: credit.source,
    },
    'deposit credited',
  );
}

export const isoOrNull = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();
