import { walletQueryKeys } from '../wallet/query-keys.ts';
import type { RememberedPayment } from './payment-model.ts';

const paymentsOf = (accountId: string) => [...walletQueryKeys.all(accountId), 'payments'] as const;

/**
 * The payments' TanStack Query keys (deposits, card purchases, payments and invoices). They live
 * under the wallet's (features/wallet/query-keys.ts), so a balance update from the socket, which
 * marks the wallet stale, refreshes them too.
 */
export const paymentQueryKeys = {
  cardOptions: (accountId: string) => [...walletQueryKeys.all(accountId), 'card-options'] as const,
  cardQuote: (accountId: string, currency: string, amount: string) =>
    [...walletQueryKeys.all(accountId), 'card-quote', currency, amount] as const,
  depositAddress: (accountId: string, currency: string, network: string) =>
    [...walletQueryKeys.all(accountId), 'deposit-address', currency, network] as const,
  depositEstimate: (accountId: string, currency: string, amount: string) =>
    [...walletQueryKeys.all(accountId), 'deposit-estimate', currency, amount] as const,
  recentDeposits: (accountId: string, limit: number) => [...walletQueryKeys.all(accountId), 'deposits', limit] as const,
  checkoutDeposit: (accountId: string, id: string) => [...walletQueryKeys.all(accountId), 'deposit', id] as const,
  payments: paymentsOf,
  payment: (accountId: string, id: string) => [...paymentsOf(accountId), 'payment', id] as const,
  paymentCrypto: (accountId: string, id: string) => [...paymentsOf(accountId), 'payment', id, 'crypto'] as const,
  lightning: (accountId: string, id: string) => [...paymentsOf(accountId), 'lightning', id] as const,
  remembered: (accountId: string, list: readonly RememberedPayment[]) =>
    [...paymentsOf(accountId), 'remembered', list] as const,
};
